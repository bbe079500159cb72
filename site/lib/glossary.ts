// The glossary of the book: one entry per term, written in our own words, each linking to the
// chapter sections that explain it. Rendered by site/pages/glossary.astro (anchor = id) and
// indexed by the search. glossary.test.ts checks that ids are unique and every link resolves.

import { TERMS as TERMS_01 } from './glossary-terms/01-journey.ts';
import { TERMS as TERMS_02 } from './glossary-terms/02-anatomy.ts';
import { TERMS as TERMS_03 } from './glossary-terms/03-api-server.ts';
import { TERMS as TERMS_04 } from './glossary-terms/04-etcd-raft.ts';
import { TERMS as TERMS_05 } from './glossary-terms/05-controllers.ts';
import { TERMS as TERMS_06 } from './glossary-terms/06-deployments.ts';
import { TERMS as TERMS_07 } from './glossary-terms/07-scheduler.ts';
import { TERMS as TERMS_08 } from './glossary-terms/08-node.ts';
import { TERMS as TERMS_09 } from './glossary-terms/09-ha-failure.ts';
import { TERMS as TERMS_10 } from './glossary-terms/10-operating.ts';

export interface GlossaryLink {
  /** Chapter content id (file name in content/ without .mdx). */
  chapter: string;
  /** Heading slug in that chapter, as Astro renders it. */
  anchor: string;
}

export interface GlossaryEntry {
  /** URL fragment on /glossary/: lower-case, dashes. */
  id: string;
  term: string;
  /** One to three sentences, Markdown inline code allowed (`kubectl`). */
  definition: string;
  /** Where the book explains the term. */
  see: GlossaryLink[];
}

const journey = (anchor: string): GlossaryLink => ({ chapter: '01-journey', anchor });

const CORE_TERMS: readonly GlossaryEntry[] = [
  {
    id: 'admission',
    term: 'Admission control',
    definition:
      'The stage of an API request after authorization where plugins and webhooks may change the object (mutating admission) or refuse it (validating admission) before it is stored.',
    see: [journey('admission-and-validation')],
  },
  {
    id: 'api-server',
    term: 'API server (kube-apiserver)',
    definition:
      'The only door into the cluster: every client, from `kubectl` to the scheduler and the kubelets, reads and writes cluster state through its HTTP API, and it is the only component that talks to etcd. It keeps no state of its own, so several copies can run side by side.',
    see: [journey('kubectl-finds-the-api-server'), journey('the-write-to-etcd')],
  },
  {
    id: 'authentication',
    term: 'Authentication',
    definition:
      'The first check on every API request: establishing who is calling, from a client certificate, a bearer token or a service account token. A request nobody can vouch for is answered with 401 Unauthorized.',
    see: [journey('authentication-who-is-asking')],
  },
  {
    id: 'authorization',
    term: 'Authorization',
    definition:
      'The second check on every API request: deciding whether the authenticated user may perform this verb on this resource. In most clusters the RBAC authorizer answers; a refusal is 403 Forbidden.',
    see: [journey('authorization-rbac-decides')],
  },
  {
    id: 'binding',
    term: 'Binding',
    definition:
      'The scheduler’s decision written down: a request to the API server that sets a Pod’s `spec.nodeName`. After the binding, the Pod belongs to one node and that node’s kubelet takes over.',
    see: [journey('the-scheduler-filters-scores-and-binds')],
  },
  {
    id: 'cni',
    term: 'CNI (Container Network Interface)',
    definition:
      'The plug-in contract the container runtime uses to give a new Pod its network: an interface in the Pod’s network namespace, an IP address from the node’s range, and routes so Pods on different nodes can reach each other.',
    see: [journey('pod-networking-and-cni')],
  },
  {
    id: 'container-runtime',
    term: 'Container runtime',
    definition:
      'The software on each node that actually pulls images and runs containers, usually containerd or CRI-O. The kubelet drives it through CRI and never starts processes itself.',
    see: [journey('the-container-runtime-and-cri')],
  },
  {
    id: 'control-plane',
    term: 'Control plane',
    definition:
      'The components that decide what the cluster should look like and keep pushing it there: API server, etcd, scheduler and controller manager (plus the cloud controller manager on a cloud). It runs no application workloads.',
    see: [journey('the-journey-at-a-glance')],
  },
  {
    id: 'controller',
    term: 'Controller',
    definition:
      'A loop that watches some kind of object, compares what is asked for with what exists, and makes one step towards the difference disappearing, then waits for the next change. Deployments, ReplicaSets, nodes and endpoints each have one.',
    see: [journey('the-deployment-controller-creates-a-replicaset'), journey('the-replicaset-controller-creates-pods')],
  },
  {
    id: 'controller-manager',
    term: 'Controller manager (kube-controller-manager)',
    definition:
      'One process that runs dozens of built-in controllers side by side. With several replicas, only the one holding the leader lease does any work.',
    see: [journey('watches-wake-the-controllers')],
  },
  {
    id: 'cri',
    term: 'CRI (Container Runtime Interface)',
    definition:
      'The gRPC API between the kubelet and a container runtime: calls such as RunPodSandbox, PullImage, CreateContainer and StartContainer. Any runtime that implements it can run Kubernetes Pods.',
    see: [journey('the-container-runtime-and-cri')],
  },
  {
    id: 'deployment',
    term: 'Deployment',
    definition:
      'An object that asks for a number of identical Pods from a template and manages rollouts between versions of that template. It does so by owning ReplicaSets, one per template version.',
    see: [journey('the-deployment-controller-creates-a-replicaset')],
  },
  {
    id: 'desired-state',
    term: 'Desired state',
    definition:
      'What an object’s `spec` asks for, as opposed to its `status`, which reports what is. Controllers exist to close the gap between the two.',
    see: [journey('watches-wake-the-controllers')],
  },
  {
    id: 'etcd',
    term: 'etcd',
    definition:
      'A consistent, replicated key-value store that holds every Kubernetes object under keys such as `/registry/pods/default/web-1`. It is the memory of the cluster: everything else can be rebuilt from it, nothing can replace it.',
    see: [journey('the-write-to-etcd'), journey('the-memory-of-the-cluster')],
  },
  {
    id: 'event',
    term: 'Event',
    definition:
      'A small API object that records something a component did or noticed about another object (Scheduled, Pulling, Pulled, Created, Started, FailedScheduling). `kubectl describe` and `kubectl get events` show them.',
    see: [journey('watching-it-happen')],
  },
  {
    id: 'filter',
    term: 'Filter (scheduling)',
    definition:
      'The first phase of scheduling a Pod: plugins remove every node that cannot run it, for reasons such as too little free CPU or memory, a taint the Pod does not tolerate, or a node selector that does not match.',
    see: [journey('the-scheduler-filters-scores-and-binds')],
  },
  {
    id: 'image-pull',
    term: 'Image pull',
    definition:
      'The container runtime downloading an image’s layers from a registry to the node. The kubelet asks for it according to the container’s `imagePullPolicy`; an image already on the node is not downloaded again.',
    see: [journey('pulling-the-image')],
  },
  {
    id: 'informer',
    term: 'Informer',
    definition:
      'The client-side machinery controllers use to follow the API server: it lists objects once, then watches for changes, keeps a local cache, and calls handlers that queue work. Controllers read from the cache instead of asking the API server each time.',
    see: [journey('watches-wake-the-controllers')],
  },
  {
    id: 'kube-proxy',
    term: 'kube-proxy',
    definition:
      'An agent on every node that turns Services into packet rules (iptables, IPVS or nftables), so traffic to a Service’s virtual IP reaches one of the Pods behind it.',
    see: [journey('pod-networking-and-cni')],
  },
  {
    id: 'kubeconfig',
    term: 'kubeconfig',
    definition:
      'The file (`~/.kube/config` by default) that tells `kubectl` which clusters exist, which credentials to present and which namespace to use; a context ties the three together.',
    see: [journey('kubectl-finds-the-api-server')],
  },
  {
    id: 'kubelet',
    term: 'kubelet',
    definition:
      'The agent on every node. It watches for Pods bound to its node, asks the container runtime to make them real, runs their probes, and reports their status back to the API server.',
    see: [journey('the-kubelet-takes-over'), journey('status-flows-back')],
  },
  {
    id: 'label-selector',
    term: 'Labels and selectors',
    definition:
      'Labels are key-value tags on objects; a selector is a query over them. A ReplicaSet finds its Pods, and a Service its endpoints, by selector rather than by name.',
    see: [journey('the-replicaset-controller-creates-pods')],
  },
  {
    id: 'leader-election',
    term: 'Leader election',
    definition:
      'How replicated components such as the scheduler and the controller manager make sure only one copy acts at a time: they compete to hold a Lease object and keep renewing it while they lead.',
    see: [journey('watches-wake-the-controllers')],
  },
  {
    id: 'lease',
    term: 'Lease',
    definition:
      'A small object with a holder and a renewal time. Kubelets renew one per node as a heartbeat, and leader election uses one per component. etcd also has its own leases: keys that expire unless kept alive.',
    see: [journey('status-flows-back')],
  },
  {
    id: 'mutating-admission',
    term: 'Mutating admission',
    definition:
      'Admission plugins and webhooks that may change an incoming object, for example to fill in defaults or inject a sidecar container. They run before validation.',
    see: [journey('mutating-admission')],
  },
  {
    id: 'namespace',
    term: 'Namespace',
    definition:
      'A named scope for objects: names must be unique within it, and RBAC rules and quotas usually apply per namespace. Nodes and cluster-wide roles live outside any namespace.',
    see: [journey('authorization-rbac-decides')],
  },
  {
    id: 'node',
    term: 'Node',
    definition:
      'A machine, physical or virtual, that runs Pods. Each one runs a kubelet, a container runtime and usually kube-proxy, and is represented in the API by a Node object with its capacity and conditions.',
    see: [journey('the-kubelet-takes-over')],
  },
  {
    id: 'owner-reference',
    term: 'Owner reference',
    definition:
      'A field in `metadata.ownerReferences` that says which object created this one: a Pod points at its ReplicaSet, a ReplicaSet at its Deployment. The garbage collector deletes dependents when their owner goes.',
    see: [journey('the-deployment-controller-creates-a-replicaset')],
  },
  {
    id: 'pod',
    term: 'Pod',
    definition:
      'The smallest thing Kubernetes schedules: one or more containers that share a network namespace and volumes and always run together on one node.',
    see: [journey('the-replicaset-controller-creates-pods')],
  },
  {
    id: 'quorum',
    term: 'Quorum',
    definition:
      'A strict majority of the members of an etcd cluster: 2 of 3, 3 of 5. A write is committed only once a quorum has it, which is why a 3-member cluster survives one failure but not two.',
    see: [journey('quorum-and-the-raft-log')],
  },
  {
    id: 'raft',
    term: 'Raft',
    definition:
      'The consensus algorithm etcd uses to keep its members identical: one elected leader appends each write to a replicated log and applies it once a quorum of members has stored it.',
    see: [journey('quorum-and-the-raft-log')],
  },
  {
    id: 'rbac',
    term: 'RBAC (role-based access control)',
    definition:
      'The usual Kubernetes authorizer. Roles and ClusterRoles list allowed verbs on resources; RoleBindings and ClusterRoleBindings grant them to users, groups or service accounts. Anything not granted is denied.',
    see: [journey('authorization-rbac-decides')],
  },
  {
    id: 'reconcile',
    term: 'Reconcile',
    definition:
      'One pass of a controller over one object: read desired and actual state, act to bring them together, and finish. It is level-triggered: it looks at the whole current state, not at which change woke it up, so a missed event does no lasting harm.',
    see: [journey('watches-wake-the-controllers')],
  },
  {
    id: 'replicaset',
    term: 'ReplicaSet',
    definition:
      'An object that keeps a given number of Pods matching a selector alive, creating Pods from its template when there are too few and deleting some when there are too many.',
    see: [journey('the-replicaset-controller-creates-pods')],
  },
  {
    id: 'resource-requests',
    term: 'Resource requests',
    definition:
      'The CPU and memory a container declares it needs (`resources.requests`). The scheduler places Pods by requests, not by actual use, so a Pod without requests looks free to it.',
    see: [journey('the-scheduler-filters-scores-and-binds')],
  },
  {
    id: 'resource-version',
    term: 'resourceVersion',
    definition:
      'A version string on every object, taken from etcd’s revision at its last write. Clients send it back to detect conflicting updates, and to resume a watch exactly where they left off.',
    see: [journey('the-write-to-etcd')],
  },
  {
    id: 'scheduler',
    term: 'Scheduler (kube-scheduler)',
    definition:
      'The component that picks a node for every Pod that has none: it filters out nodes that cannot run the Pod, scores the rest, and records the winner with a binding. It never starts anything itself.',
    see: [journey('the-scheduler-filters-scores-and-binds')],
  },
  {
    id: 'score',
    term: 'Score (scheduling)',
    definition:
      'The second phase of scheduling a Pod: plugins rate each node that passed filtering from 0 to 100 (a plugin with a NormalizeScore step rescales its scores into that range; the others must return it directly), each plugin\'s scores are multiplied by its weight, and the highest total wins.',
    see: [journey('the-scheduler-filters-scores-and-binds')],
  },
  {
    id: 'service-account',
    term: 'ServiceAccount',
    definition:
      'An identity for software running in the cluster. Pods get a token for their service account, which the API server authenticates like any other user.',
    see: [journey('authentication-who-is-asking')],
  },
  {
    id: 'taint',
    term: 'Taint',
    definition:
      'A mark on a node (`key=value:Effect`) that repels Pods: with NoSchedule, only Pods that tolerate it may be scheduled there. Control-plane nodes are usually tainted so applications stay off them.',
    see: [journey('the-scheduler-filters-scores-and-binds')],
  },
  {
    id: 'term',
    term: 'Term (Raft)',
    definition:
      'A numbered period of Raft’s logical time that begins with an election and has at most one leader. Every message carries its term, and a member that sees a higher one steps down.',
    see: [journey('quorum-and-the-raft-log')],
  },
  {
    id: 'toleration',
    term: 'Toleration',
    definition:
      'A field on a Pod saying it accepts a given taint, which lets the scheduler place it on a tainted node. A toleration permits a node; it does not attract the Pod to it.',
    see: [journey('the-scheduler-filters-scores-and-binds')],
  },
  {
    id: 'validating-admission',
    term: 'Validating admission',
    definition:
      'Admission plugins and webhooks that may accept or reject an object but not change it, such as policy checks and quotas. They run after validation, just before the object is stored.',
    see: [journey('validating-admission')],
  },
  {
    id: 'validation',
    term: 'Validation',
    definition:
      'The API server’s built-in checks on an object’s fields: required fields present, names well formed, values in range. A failure comes back as 422 Unprocessable Entity with the offending field paths.',
    see: [journey('validation')],
  },
  {
    id: 'watch',
    term: 'Watch',
    definition:
      'A long-running API request that streams every change (ADDED, MODIFIED, DELETED) to a kind of object from a given resourceVersion on. Watches are how components notice work without polling.',
    see: [journey('watches-wake-the-controllers')],
  },
];

/**
 * Every term of the book: the core terms above, then each chapter's own (site/lib/glossary-terms/,
 * one file per chapter, written with the chapter).
 */
export const GLOSSARY: readonly GlossaryEntry[] = [
  ...CORE_TERMS,
  ...TERMS_01,
  ...TERMS_02,
  ...TERMS_03,
  ...TERMS_04,
  ...TERMS_05,
  ...TERMS_06,
  ...TERMS_07,
  ...TERMS_08,
  ...TERMS_09,
  ...TERMS_10,
];
