// Glossary terms introduced by chapter 8 (content/08-node.mdx) beyond those in ../glossary.ts.
import type { GlossaryEntry } from '../glossary.ts';

const node = (anchor: string) => ({ chapter: '08-node', anchor });

export const TERMS: GlossaryEntry[] = [
  {
    id: 'pod-sandbox',
    term: 'Pod sandbox',
    definition:
      'The environment a container runtime creates for a Pod before any of its containers (CRI `RunPodSandbox`): shared Linux namespaces held open by a `pause` container, with the network interface and IP the CNI plugin set up. All the Pod’s containers join it, which is why they share an IP.',
    see: [node('from-a-pod-to-processes-the-cri-calls')],
  },
  {
    id: 'oci-image',
    term: 'OCI image',
    definition:
      'A container image in the format standardised by the Open Container Initiative, starting from Docker’s own: a manifest and a stack of filesystem layers, stored in a registry. Images built with Docker are such images, so containerd and CRI-O run them unchanged.',
    see: [node('container-runtimes-containerd-cri-o-and-what-happened-to-docker')],
  },
  {
    id: 'dockershim',
    term: 'dockershim',
    definition:
      'The adapter built into the kubelet that let it use Docker Engine, which does not implement the CRI, as its container runtime. It was deprecated in Kubernetes 1.20 and removed in 1.24; nodes now run a CRI runtime such as containerd or CRI-O, or Docker Engine behind the external `cri-dockerd`.',
    see: [node('container-runtimes-containerd-cri-o-and-what-happened-to-docker')],
  },
  {
    id: 'liveness-probe',
    term: 'Liveness probe',
    definition:
      'A periodic check the kubelet runs against a container (HTTP, TCP, gRPC or a command). After `failureThreshold` failures in a row the kubelet kills the container, and the restart policy decides whether it starts again.',
    see: [node('probes-alive-ready-started')],
  },
  {
    id: 'readiness-probe',
    term: 'Readiness probe',
    definition:
      'A periodic check that decides whether a container should receive traffic. While it fails, the Pod’s `Ready` condition is false and its endpoint is marked not ready, so Services stop sending it new connections; the container keeps running.',
    see: [node('probes-alive-ready-started'), node('only-ready-pods-receive-traffic')],
  },
  {
    id: 'startup-probe',
    term: 'Startup probe',
    definition:
      'A check that holds back a container’s liveness and readiness probes until it has succeeded once, for programs that start slowly. If it never succeeds within its failure budget, the container is killed.',
    see: [node('probes-alive-ready-started')],
  },
  {
    id: 'restart-policy',
    term: 'Restart policy',
    definition:
      'A Pod’s `restartPolicy`: `Always` (the default, and required by Deployments), `OnFailure` or `Never`. The kubelet applies it on the node, restarting containers inside the same Pod.',
    see: [node('restarts-and-crashloopbackoff')],
  },
  {
    id: 'crashloopbackoff',
    term: 'CrashLoopBackOff',
    definition:
      'The waiting reason of a container the kubelet is holding back between restarts because it keeps failing. The first restart is immediate, then the delay is 10 s, doubling up to 5 minutes, and it resets once the container has run for 10 minutes.',
    see: [node('restarts-and-crashloopbackoff')],
  },
  {
    id: 'node-lease',
    term: 'Node Lease',
    definition:
      'The Lease object named after a node in the `kube-node-lease` namespace, which the node’s kubelet renews every 10 seconds as its heartbeat. It is much cheaper to write than the full node status, which the kubelet writes only on change or every 5 minutes.',
    see: [node('the-nodes-heartbeat-lease-and-status')],
  },
  {
    id: 'service',
    term: 'Service',
    definition:
      'A stable virtual IP (the ClusterIP), DNS name and ports in front of the Pods that match a label selector. kube-proxy on every node turns it into kernel rules that send each new connection to one ready Pod.',
    see: [node('services-and-kube-proxy')],
  },
  {
    id: 'endpointslice',
    term: 'EndpointSlice',
    definition:
      'An object listing some of a Service’s endpoints (up to 100 by default): Pod IPs, ports and conditions such as `ready`. The EndpointSlice controller keeps them in step with the matching Pods, and kube-proxy reads them to build its rules.',
    see: [node('services-and-kube-proxy'), node('only-ready-pods-receive-traffic')],
  },
  {
    id: 'pod-cidr',
    term: 'Pod CIDR',
    definition:
      'The range of Pod addresses assigned to one node (`spec.podCIDR`, a /24 of the cluster’s Pod network in kind). The CNI plugin on that node hands each new Pod sandbox an address from it.',
    see: [node('pod-ips-and-the-cni-plugin')],
  },
];
