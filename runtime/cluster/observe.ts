// The observation side of the public API: a compact, serializable picture of the cluster for the
// page's widgets (the cluster view, the event stream) and for tests. It is read the way a god's-eye
// debugger would read it, never through the simulated network: Kubernetes objects from a running
// API server's watch cache (ApiServer.peek), etcd members from their Raft status, components from
// their processes. Looking changes nothing, so a snapshot never perturbs the trace.
import type { CoreEvent, KubeObject, Lease, Node, Pod } from '../api/index.ts';
import { nodeRoles, nodeStatus, podSummary } from '../cli/index.ts';
import { podRequests } from '../scheduler/index.ts';
import type { ControlPlane } from './control-plane.ts';
import { prefixEnd } from '../etcd/index.ts';
import type { ClusterPlan } from './options.ts';
import { parseQuantity, parseRFC3339 } from '../api/index.ts';

export interface NodeSnapshot {
  name: string;
  /** The node-role labels ("control-plane"); empty for a worker. */
  roles: string[];
  /** `kubectl get nodes` STATUS: "Ready", "NotReady", "Unknown", with ",SchedulingDisabled" when cordoned. */
  status: string;
  conditions: { type: string; status: string; reason?: string }[];
  taints: { key: string; value?: string; effect: string }[];
  allocatable: { milliCPU: number; memoryBytes: number; pods: number };
  /** Sum of the requests of the pods bound here that have not finished (what the scheduler counts). */
  requested: { milliCPU: number; memoryBytes: number };
  podCount: number;
  /** Whether the machine itself runs (a stopped machine's Node lingers until the controllers notice). */
  machineUp: boolean;
}

export interface PodSnapshot {
  namespace: string;
  name: string;
  phase: string;
  /** `kubectl get pods` STATUS (Running, Pending, ContainerCreating, CrashLoopBackOff, Terminating...). */
  status: string;
  /** READY as kubectl prints it ("1/1"), and whether every container is ready. */
  ready: string;
  allReady: boolean;
  restarts: number;
  node?: string;
  /** The controlling owner ("ReplicaSet/web-7f9d59dc7f"), if any. */
  owner?: string;
}

export interface EtcdMemberSnapshot {
  /** Member name as etcdctl member list shows it (the machine: cp-1). */
  name: string;
  /** The simulation's process name, which faults take (etcd-cp-1). */
  process: string;
  up: boolean;
  /** Raft role: leader, follower, candidate, pre-candidate; "stopped" when the process is down. */
  role: 'leader' | 'follower' | 'candidate' | 'pre-candidate' | 'stopped';
  term: number;
  commit: number;
  applied: number;
  /** The last index in its Raft log (0 when stopped). */
  lastIndex: number;
  /** Its newest RAFT_LOG_TAIL log entries, oldest first: index, term and the command in a few words. */
  log: RaftEntrySnapshot[];
  /** On the leader: how far each member's log is known to match (process name to index). */
  match?: Record<string, number>;
}

export interface RaftEntrySnapshot {
  index: number;
  term: number;
  /** "txn /registry/pods/default/web-1", "put /registry/leases/...", "(new leader's empty entry)". */
  summary: string;
}

/** How many of each member's newest log entries a snapshot carries (the Raft view shows them side by side). */
export const RAFT_LOG_TAIL = 10;

export interface ComponentSnapshot {
  name: string;
  kind: string;
  machine?: string;
  up: boolean;
  /** For leader-elected components (scheduler, controller manager): whether this one holds the Lease. */
  leader?: boolean;
}

export interface EventSnapshot {
  /** The Event's resourceVersion: a total order of writes, and the cursor of eventsSince(). */
  resourceVersion: number;
  namespace: string;
  type: string;
  reason: string;
  /** "pod/web-7f9d59dc7f-6lz76" as `kubectl get events` OBJECT prints it. */
  object: string;
  message: string;
  count: number;
  /** Simulated ms of the last occurrence (lastTimestamp, else eventTime). */
  lastSeenMs: number;
  source: string;
}

export interface ClusterSnapshot {
  /** Simulated ms since boot. */
  timeMs: number;
  /** False when no API server is running with a ready cache: nodes and pods are then unknown (empty). */
  apiAvailable: boolean;
  nodes: NodeSnapshot[];
  pods: PodSnapshot[];
  etcd: EtcdMemberSnapshot[];
  components: ComponentSnapshot[];
}

const ROLE: Record<string, EtcdMemberSnapshot['role']> = {
  StateLeader: 'leader', StateFollower: 'follower', StateCandidate: 'candidate', StatePreCandidate: 'pre-candidate',
};

function quantityMilli(q: string | undefined): number {
  if (q === undefined) return 0;
  const r = parseQuantity(q);
  return r.ok ? r.quantity.milliValue() : 0;
}

function quantityValue(q: string | undefined): number {
  if (q === undefined) return 0;
  const r = parseQuantity(q);
  return r.ok ? r.quantity.value() : 0;
}

/** An object's RFC 3339 timestamp back to simulated ms (0 when absent). */
function simMs(time: string | null | undefined): number {
  return (time && parseRFC3339(time)) || 0;
}

/** A running API server whose caches are ready (any replica: they all follow the same etcd). */
function liveServer(controlPlane: ControlPlane) {
  return controlPlane.liveServers()[0];
}

function podSnapshot(pod: Pod, nowMs: number): PodSnapshot {
  const summary = podSummary(pod, nowMs);
  const [readyCount, total] = summary.ready.split('/');
  const owner = pod.metadata.ownerReferences?.find((o) => o.controller);
  return {
    namespace: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name ?? '',
    phase: pod.status?.phase ?? 'Pending',
    status: summary.status,
    ready: summary.ready,
    allReady: readyCount === total && total !== '0',
    restarts: Number.parseInt(summary.restarts, 10) || 0,
    ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
    ...(owner ? { owner: `${owner.kind}/${owner.name}` } : {}),
  };
}

function nodeSnapshot(node: Node, pods: readonly Pod[], machineUp: boolean): NodeSnapshot {
  const requested = { milliCPU: 0, memoryBytes: 0 };
  let podCount = 0;
  for (const pod of pods) {
    if (pod.spec.nodeName !== node.metadata.name) continue;
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    podCount++;
    const r = podRequests(pod, false);
    requested.milliCPU += r.milliCPU;
    requested.memoryBytes += r.memory;
  }
  const alloc = node.status?.allocatable ?? {};
  return {
    name: node.metadata.name ?? '',
    roles: nodeRoles(node),
    status: nodeStatus(node),
    conditions: (node.status?.conditions ?? []).map((c) => ({ type: c.type, status: c.status, ...(c.reason ? { reason: c.reason } : {}) })),
    taints: (node.spec?.taints ?? []).map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect })),
    allocatable: { milliCPU: quantityMilli(alloc['cpu']), memoryBytes: quantityValue(alloc['memory']), pods: quantityValue(alloc['pods']) },
    requested,
    podCount,
    machineUp,
  };
}

/** The holder of each leader-election Lease in kube-system, by lease name. */
function leaseHolders(leases: readonly KubeObject[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of leases as readonly Lease[]) {
    if (o.metadata.namespace !== 'kube-system') continue;
    const holder = o.spec?.holderIdentity;
    if (holder) out.set(o.metadata.name ?? '', holder);
  }
  return out;
}

export function clusterSnapshot(plan: ClusterPlan, controlPlane: ControlPlane, nowMs: number): ClusterSnapshot {
  const server = liveServer(controlPlane);
  const nodes = (server?.peek('', 'nodes') ?? []) as readonly Node[];
  const pods = (server?.peek('', 'pods') ?? []) as readonly Pod[];
  const holders = leaseHolders(server?.peek('coordination.k8s.io', 'leases') ?? []);
  const components = [...controlPlane.components.values()];
  const machineUp = (name: string): boolean => components.some((c) => c.machine === name && c.isUp());
  const etcd: EtcdMemberSnapshot[] = controlPlane.etcd.members.map((m) => {
    const st = controlPlane.etcd.isUp(m.process) ? controlPlane.etcd.raftStatus(m.process) : undefined;
    const log = st ? controlPlane.etcd.raftLog(m.process, RAFT_LOG_TAIL) : undefined;
    return st && log
      ? { name: m.name, process: m.process, up: true, role: ROLE[st.state] ?? 'follower', term: st.term, commit: st.commit, applied: st.applied,
        lastIndex: log.lastIndex, log: log.entries, ...(log.match ? { match: log.match } : {}) }
      : { name: m.name, process: m.process, up: false, role: 'stopped', term: 0, commit: 0, applied: 0, lastIndex: 0, log: [] };
  });
  return {
    timeMs: nowMs,
    apiAvailable: server !== undefined && server.peek('', 'nodes').length > 0,
    nodes: nodes.map((n) => nodeSnapshot(n, pods, machineUp(n.metadata.name ?? ''))),
    pods: pods.map((p) => podSnapshot(p, nowMs)),
    etcd,
    components: components.map((c) => {
      const leaseName = c.kind === 'kube-scheduler' || c.kind === 'kube-controller-manager' ? c.kind : undefined;
      const holder = leaseName ? holders.get(leaseName) : undefined;
      return {
        name: c.name, kind: c.kind, up: c.isUp(),
        ...(c.machine ? { machine: c.machine } : {}),
        ...(leaseName ? { leader: holder !== undefined && c.machine !== undefined && holder.startsWith(`${c.machine}_`) && c.isUp() } : {}),
      };
    }),
  };
}

/**
 * The core/v1 Events written after `afterResourceVersion`, oldest first (at most `limit`, the newest
 * kept). The API server keeps no watch cache for events (as upstream), so they are read from a
 * running etcd member's store, as etcdctl get /registry/events/ --prefix would show them.
 */
export function eventsSince(controlPlane: ControlPlane, afterResourceVersion: number, limit = 500): EventSnapshot[] {
  const etcd = controlPlane.etcd;
  const member = etcd.leader() ?? etcd.members.find((m) => etcd.isUp(m.process))?.process;
  const store = member ? etcd.store(member) : undefined;
  const range = store?.range({ key: EVENTS_PREFIX, rangeEnd: prefixEnd(EVENTS_PREFIX) });
  if (!range?.ok) return [];
  const out: EventSnapshot[] = [];
  for (const kv of range.value.kvs) {
    if (kv.modRevision <= afterResourceVersion) continue;
    let o: CoreEvent;
    try {
      o = JSON.parse(kv.value) as CoreEvent;
    } catch {
      continue; // not an object the API server wrote (someone used etcdctl put): not an Event to show
    }
    const kind = (o.involvedObject?.kind ?? '').toLowerCase();
    out.push({
      resourceVersion: kv.modRevision,
      namespace: o.metadata?.namespace ?? 'default',
      type: o.type ?? 'Normal',
      reason: o.reason ?? '',
      object: `${kind}/${o.involvedObject?.name ?? ''}`,
      message: o.message ?? '',
      count: o.count ?? o.series?.count ?? 1,
      lastSeenMs: simMs(o.lastTimestamp ?? o.eventTime ?? o.firstTimestamp),
      source: o.reportingComponent || o.source?.component || '',
    });
  }
  out.sort((a, b) => a.resourceVersion - b.resourceVersion);
  return out.length > limit ? out.slice(out.length - limit) : out;
}

const EVENTS_PREFIX = '/registry/events/';
