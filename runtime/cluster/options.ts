// The options of createCluster (docs: shared DESIGN section 2, a contract) and the plan they turn
// into: which machines exist, which of them run etcd members and API server replicas, and whether
// a load balancer fronts the replicas.
import type { ReplicaSetReconciler } from '../controllers/index.ts';
import { isDNS1123Subdomain, parseQuantity } from '../api/index.ts';
import type { PluginFactory } from '../scheduler/index.ts';
import type { ClientRateLimits } from '../client/index.ts';
import { resolveClientRateLimits, type RateLimitedComponent } from './client-rate-limits.ts';

export interface WorkerSpec {
  name?: string;
  /** Allocatable, Kubernetes quantities. */
  cpu?: string;
  memory?: string;
  pods?: number;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }[];
  /** Images already pulled, as in node.status.images. */
  images?: { names: string[]; sizeBytes: number }[];
}

export type Topology = 'single-node' | 'ha' | 'managed';

export interface ClusterOptions {
  /** Seed of every random choice (default 1). */
  seed?: number;
  /**
   * single-node: one machine is control plane and worker (minikube); ha: 3 control-plane machines
   * with stacked etcd and API servers behind a load balancer, plus workers; managed: the control
   * plane is hidden (no Node objects for it, no etcdctl), only workers are visible (EKS/GKE/AKS).
   */
  topology?: Topology;
  /** Worker machines (default 0 for single-node, 3 otherwise); a list makes them differ. */
  workers?: number | WorkerSpec[];
  etcdMembers?: 1 | 3 | 5;
  /** Default allocatable of every machine. */
  node?: { cpu?: string; memory?: string; pods?: number };
  /** A KubeSchedulerConfiguration (v1 shape) for every kube-scheduler replica. */
  scheduler?: object;
  /**
   * Which built-in control-plane components run (default: all). Turning one off leaves room for
   * your own, started on `cluster.internals` (a component under test, or a learner's piece in a lab).
   * controllerManager: false also stops the node lifecycle controller it hosts.
   * cloudControllerManager (managed topology only, default true): false leaves new Nodes tainted
   * node.cloudprovider.kubernetes.io/uninitialized and LoadBalancer Services <pending>.
   */
  components?: { scheduler?: boolean; controllerManager?: boolean; cloudControllerManager?: boolean };
  /**
   * Pieces a learner wrote, plugged into the built-in components (a lab's "Run in cluster"):
   * the ReplicaSet controller's decision step, and out-of-tree scheduler plugins that
   * `scheduler` (a KubeSchedulerConfiguration) can enable by name.
   */
  plugins?: { replicaSetReconciler?: ReplicaSetReconciler; schedulerRegistry?: Readonly<Record<string, PluginFactory>> };
  /**
   * Whether the scheduler writes kube-scheduler-simulator's "why this node?" annotations on the
   * pods it places (default: on in clusters of up to 100 nodes). They hold an entry per node, so
   * in bigger clusters every pod would carry O(nodes) bytes through etcd, the watch caches and
   * every informer; real kube-scheduler writes none.
   */
  schedulerAnnotations?: boolean;
  /**
   * kind's CNI bootstrap (default on, as in kind): every node is NotReady ("cni plugin not
   * initialized") and runs only hostNetwork pods until its kindnet pod writes
   * /etc/cni/net.d/10-kindnet.conflist. Off (or without a controller manager or a scheduler, which
   * kindnet's pods need), the machines come with that file already written.
   */
  cniFromKindnet?: boolean;
  /**
   * Whether kindnet routes the pod network as kind's does (default: with the CNI bootstrap, in
   * clusters of up to 100 nodes): each node's kindnet watches every Node and routes the other
   * nodes' podCIDRs via their InternalIPs, and a node without those routes cannot reach other
   * nodes' pods. Off, the machines' gateway routes every podCIDR (as a cloud VPC's route table
   * would) and kindnet watches its own Node only: N kindnets each caching N Nodes would make
   * bigger clusters cost O(nodes^2) memory.
   */
  kindnetRoutes?: boolean;
  /**
   * Client-side rate limits (client-go rest.Config QPS / Burst) per component, over upstream's
   * defaults (client-rate-limits.ts): kube-controller-manager 20/30 for each controller's own
   * client, kube-scheduler 50/100, kubelet 50/100, kube-proxy 5/10, cloud-controller-manager
   * 20/30, kubectl 5/10, kindnet 5/10. Raise them as upstream's scale tests raise
   * --kube-api-qps, e.g. { 'kube-controller-manager': { qps: 100, burst: 200 } }; qps <= 0
   * disables limiting (client-go's QPS -1). Clients from cluster.internals.restClient are unlimited.
   */
  clientRateLimits?: Partial<Record<RateLimitedComponent, Partial<ClientRateLimits>>>;
}

export interface MachinePlan {
  name: string;
  role: 'control-plane' | 'worker';
  /** A control-plane machine that also takes pods (single-node). */
  schedulable: boolean;
  /** Registered as a Node object (false for a managed control plane). */
  visible: boolean;
  internalIP: string;
  /** This machine's /24 of the cluster's pod subnet (the node IPAM controller's spec.podCIDR). */
  podCIDR: string;
  spec: WorkerSpec;
  /** --cloud-provider=external: the kubelet registers its Node tainted uninitialized for the CCM (managed workers). */
  cloudProvider?: 'external';
  /** Component processes on this machine (etcd member, API server replica). */
  etcdMember?: string;
  apiServer?: string;
}

export interface ClusterPlan {
  seed: number;
  topology: Topology;
  machines: MachinePlan[];
  etcdMembers: string[];
  apiServers: string[];
  /** The load balancer's endpoint, when replicas sit behind one. */
  loadBalancer?: string;
  /** The endpoint clients dial (the load balancer, or the single replica). */
  serverEndpoint: string;
  /** The URL kubectl reports in connection errors. */
  serverURL: string;
  /** The KubeSchedulerConfiguration given to every scheduler replica. */
  scheduler?: object;
  /** Which built-in control-plane components run. */
  components: { scheduler: boolean; controllerManager: boolean; cloudControllerManager: boolean };
  /** Learner pieces plugged into them. */
  plugins: NonNullable<ClusterOptions['plugins']>;
  /** The cluster's pod network (kubeadm --pod-network-cidr, kube-controller-manager --cluster-cidr). */
  podSubnet: string;
  /** Whether the scheduler writes the simulator's annotations (ClusterOptions.schedulerAnnotations). */
  schedulerAnnotations: boolean;
  /** Whether each node's CNI config comes from its kindnet pod (ClusterOptions.cniFromKindnet). */
  cniFromKindnet: boolean;
  /** Whether each node's pod routes come from its kindnet pod, else from the machines' gateway (ClusterOptions.kindnetRoutes). */
  kindnetRoutes: boolean;
  /** Each component's client QPS and burst (ClusterOptions.clientRateLimits over upstream's defaults). */
  clientRateLimits: Record<RateLimitedComponent, ClientRateLimits>;
}

export const LOAD_BALANCER = 'kube-apiserver-lb';
const DEFAULT_NODE = { cpu: '4', memory: '8Gi', pods: 110 };

export function planCluster(options: ClusterOptions = {}): ClusterPlan {
  const topology = options.topology ?? 'single-node';
  if (!['single-node', 'ha', 'managed'].includes(topology)) {
    throw new Error(`createCluster: unknown topology "${String(topology)}" (single-node, ha or managed)`);
  }
  const members = options.etcdMembers ?? (topology === 'single-node' ? 1 : 3);
  if (![1, 3, 5].includes(members)) throw new Error(`createCluster: etcdMembers must be 1, 3 or 5 (got ${String(members)})`);
  if (topology === 'single-node' && members !== 1) {
    throw new Error('createCluster: a single-node cluster has one etcd member (use topology "ha" for more)');
  }
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) throw new Error(`createCluster: seed must be an integer (got ${String(options.seed)})`);
  const base = { ...DEFAULT_NODE, ...options.node };
  checkResources('node', base);
  const cpCount = topology === 'single-node' ? 1 : topology === 'ha' ? Math.max(3, members) : members;
  const prefix = topology === 'managed' ? 'managed-cp' : 'cp';
  const machines: MachinePlan[] = [];
  const specs = workerSpecs(options.workers, topology);
  // kind's 10.244.0.0/16 has room for 256 nodes' /24s; bigger clusters get a /9 (as large clusters
  // are given a wider --cluster-cidr), which stays clear of the service range 10.96.0.0/12.
  const wide = specs.length + 8 > 256; // workers take /24s number 8 and up
  for (let i = 1; i <= cpCount; i++) {
    const name = `${prefix}-${i}`;
    machines.push({
      name, role: 'control-plane', schedulable: topology === 'single-node', visible: topology !== 'managed',
      internalIP: machineIP(i + 1), podCIDR: nodePodCIDR(i - 1, wide),
      spec: { name, cpu: base.cpu, memory: base.memory, pods: base.pods },
      ...(i <= members ? { etcdMember: `etcd-${name}` } : {}),
      apiServer: `kube-apiserver-${name}`,
    });
  }
  for (const [i, w] of specs.entries()) {
    const name = w.name ?? `worker-${i + 1}`;
    checkWorker(name, w);
    if (machines.some((m) => m.name === name)) throw new Error(`createCluster: two machines are named "${name}"`);
    machines.push({
      name, role: 'worker', schedulable: true, visible: true, internalIP: machineIP(i + 10), podCIDR: nodePodCIDR(i + 8, wide),
      ...(topology === 'managed' ? { cloudProvider: 'external' as const } : {}),
      spec: { cpu: base.cpu, memory: base.memory, pods: base.pods, ...w, name },
    });
  }
  // kindnet's pods need the DaemonSet controller and the scheduler
  const cniFromKindnet = (options.cniFromKindnet ?? true) && (options.components?.scheduler ?? true) && (options.components?.controllerManager ?? true);
  const apiServers = machines.flatMap((m) => (m.apiServer ? [m.apiServer] : []));
  const etcdMembers = machines.flatMap((m) => (m.etcdMember ? [m.etcdMember] : []));
  const loadBalancer = apiServers.length > 1 ? LOAD_BALANCER : undefined;
  const serverEndpoint = loadBalancer ?? apiServers[0]!;
  const serverURL = loadBalancer ? 'https://control-plane.cluster.local:6443' : `https://${machines[0]!.internalIP}:8443`;
  return {
    seed: options.seed ?? 1, topology, machines, etcdMembers, apiServers, ...(loadBalancer ? { loadBalancer } : {}), serverEndpoint, serverURL,
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    components: {
      scheduler: options.components?.scheduler ?? true, controllerManager: options.components?.controllerManager ?? true,
      // only a managed cluster has a cloud provider (kubeadm-style clusters run on bare machines)
      cloudControllerManager: topology === 'managed' && (options.components?.cloudControllerManager ?? true),
    },
    plugins: options.plugins ?? {},
    podSubnet: wide ? WIDE_POD_SUBNET : POD_SUBNET,
    schedulerAnnotations: options.schedulerAnnotations ?? machines.filter((m) => m.visible).length <= SCHEDULER_ANNOTATIONS_MAX_NODES,
    cniFromKindnet,
    kindnetRoutes: cniFromKindnet && (options.kindnetRoutes ?? machines.filter((m) => m.visible).length <= KINDNET_ROUTES_MAX_NODES),
    clientRateLimits: resolveClientRateLimits(options.clientRateLimits),
  };
}

const POD_SUBNET = '10.244.0.0/16';
const SCHEDULER_ANNOTATIONS_MAX_NODES = 100;
const KINDNET_ROUTES_MAX_NODES = 100;
const WIDE_POD_SUBNET = '10.128.0.0/9';

/**
 * Host number h on the machines' network: minikube's and kind's 192.168.49.0/24 while it fits,
 * continuing into the next /24s of 192.168.0.0/16 for clusters of hundreds or thousands of nodes.
 */
function machineIP(h: number): string {
  return `192.168.${49 + (h >> 8)}.${h & 255}`;
}

/** The n-th /24 of the pod subnet, as the node IPAM controller hands them out. */
function nodePodCIDR(n: number, wide: boolean): string {
  return wide ? `10.${128 + (n >> 8)}.${n & 255}.0/24` : `10.244.${n}.0/24`;
}

/**
 * Bad options are refused up front with what is wrong, rather than a cluster whose kubelet cannot
 * register its Node two simulated minutes later (a Node's name is a DNS-1123 subdomain, quantities
 * parse as resource.Quantity, a taint has one of the three effects).
 */
function checkWorker(name: string, w: WorkerSpec): void {
  const bad = isDNS1123Subdomain(name);
  if (bad.length > 0) throw new Error(`createCluster: worker name "${name}" is not a valid Node name: ${bad.join('; ')}`);
  checkResources(`worker "${name}"`, w);
  for (const t of w.taints ?? []) {
    if (!['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) {
      throw new Error(`createCluster: worker "${name}" has a taint "${t.key}" with effect "${String(t.effect)}" (NoSchedule, PreferNoSchedule or NoExecute)`);
    }
  }
}

function checkResources(what: string, r: { cpu?: string | undefined; memory?: string | undefined; pods?: number | undefined }): void {
  for (const field of ['cpu', 'memory'] as const) {
    const q = r[field];
    if (q === undefined) continue;
    const parsed = typeof q === 'string' ? parseQuantity(q) : undefined;
    if (!parsed?.ok || parsed.quantity.sign() <= 0) {
      throw new Error(`createCluster: ${what} ${field} "${String(q)}" is not a positive Kubernetes quantity (for example ${field === 'cpu' ? '"4" or "500m"' : '"8Gi" or "512Mi"'})`);
    }
  }
  if (r.pods !== undefined && (!Number.isInteger(r.pods) || r.pods < 1)) throw new Error(`createCluster: ${what} pods must be a positive integer (got ${String(r.pods)})`);
}

function workerSpecs(workers: ClusterOptions['workers'], topology: Topology): WorkerSpec[] {
  if (Array.isArray(workers)) return workers;
  const count = workers ?? (topology === 'single-node' ? 0 : 3);
  if (!Number.isInteger(count) || count < 0 || count > 5000) {
    throw new Error(`createCluster: workers must be an integer from 0 to 5000 (got ${String(count)})`);
  }
  return Array.from({ length: count }, () => ({}));
}
