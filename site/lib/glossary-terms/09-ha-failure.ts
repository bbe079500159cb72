// Glossary terms introduced by chapter 9 (content/09-ha-failure.mdx) beyond those in ../glossary.ts.
import type { GlossaryEntry } from '../glossary.ts';

const ha = (anchor: string) => ({ chapter: '09-ha-failure', anchor });

export const TERMS: GlossaryEntry[] = [
  {
    id: 'node-monitor-grace-period',
    term: 'Node monitor grace period',
    definition:
      'How long the node lifecycle controller waits without seeing a node’s Lease or Ready condition change before declaring the node’s health unknown: `--node-monitor-grace-period` on kube-controller-manager, 50 seconds since Kubernetes 1.32 (40 before).',
    see: [ha('the-heartbeat-a-lease-per-node')],
  },
  {
    id: 'default-toleration-seconds',
    term: 'DefaultTolerationSeconds',
    definition:
      'The admission plugin that gives every Pod two tolerations it did not ask for, `node.kubernetes.io/not-ready:NoExecute` and `node.kubernetes.io/unreachable:NoExecute`, each for 300 seconds. It is why a Pod on a dead node is evicted about five minutes after the node is declared unreachable, not at once.',
    see: [ha('tolerations-with-a-timer')],
  },
  {
    id: 'taint-based-eviction',
    term: 'Taint-based eviction',
    definition:
      'Deleting the Pods on a node that has a `NoExecute` taint they do not tolerate, or tolerate only for a while. The taint eviction controller in kube-controller-manager does it when the smallest matching `tolerationSeconds` runs out, and records a `TaintManagerEviction` event.',
    see: [ha('tolerations-with-a-timer'), ha('watching-a-node-die')],
  },
  {
    id: 'out-of-service-taint',
    term: 'Out-of-service taint',
    definition:
      '`node.kubernetes.io/out-of-service:NoExecute`, added by an operator who knows a node is shut down for good. It lets the Pod garbage collector force-delete the Pods stuck `Terminating` on that node, so a StatefulSet can recreate them elsewhere (non-graceful node shutdown, GA in Kubernetes 1.28).',
    see: [ha('why-the-old-pod-says-terminating')],
  },
  {
    id: 'failure-domain',
    term: 'Failure domain',
    definition:
      'A group of machines that one event can take down together: a rack, a power feed, a network switch, an availability zone. A highly available control plane places its replicas and etcd members in different failure domains.',
    see: [ha('several-of-everything-the-ha-control-plane')],
  },
  {
    id: 'stacked-etcd',
    term: 'Stacked etcd',
    definition:
      'kubeadm’s default HA topology: every control-plane machine runs an etcd member next to its API server, and each API server talks to its own machine’s member. Fewest machines; losing a machine costs an API server and an etcd member at once.',
    see: [ha('stacked-or-external-etcd')],
  },
  {
    id: 'external-etcd',
    term: 'External etcd',
    definition:
      'An HA topology in which etcd runs on its own machines and every API server is given all of their addresses. Losing a control-plane machine costs no etcd member, at the price of more machines and more certificates to manage.',
    see: [ha('stacked-or-external-etcd')],
  },
  {
    id: 'etcd-snapshot',
    term: 'etcd snapshot',
    definition:
      'A file holding a consistent copy of an etcd member’s whole key-value store at one revision, taken with `etcdctl snapshot save` and checked with `etcdutl snapshot status`. Restoring one with `etcdutl snapshot restore` builds a new etcd cluster in which every object is as it was at that revision.',
    see: [ha('taking-a-snapshot-even-with-a-machine-down'), ha('the-restore-drill')],
  },
];
