// Which nodes should run a daemon pod, mirroring pkg/controller/daemon/daemon_controller.go
// (NodeShouldRunDaemonPod, predicates, NewPod) and pkg/controller/daemon/util/daemonset_util.go
// (AddOrUpdateDaemonPodTolerations). The node-affinity and toleration matching follow
// component-helpers/scheduling/corev1 (nodeaffinity.go, helpers.go): the controllers subsystem
// may not import the scheduler, so the few lines it needs live here.
import { toleratesTaint, type DaemonSet, type Node, type NodeSelectorRequirement, type NodeSelectorTerm, type PodSpec, type Taint, type Toleration } from '../../api/index.ts';

export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_NODE_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NODE_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';

/**
 * The tolerations every daemon pod gets (AddOrUpdateDaemonPodTolerations): daemons must survive
 * the node lifecycle controller's NoExecute eviction and keep running on nodes under pressure or
 * cordoned; hostNetwork daemons (the CNI agent itself) also run before the network is up.
 */
export function daemonPodTolerations(spec: Pick<PodSpec, 'hostNetwork'>): Toleration[] {
  const exists = (key: string, effect: 'NoExecute' | 'NoSchedule'): Toleration => ({ key, operator: 'Exists', effect });
  const out = [
    exists(TAINT_NODE_NOT_READY, 'NoExecute'),
    exists(TAINT_NODE_UNREACHABLE, 'NoExecute'),
    exists(TAINT_NODE_DISK_PRESSURE, 'NoSchedule'),
    exists(TAINT_NODE_MEMORY_PRESSURE, 'NoSchedule'),
    exists(TAINT_NODE_PID_PRESSURE, 'NoSchedule'),
    exists(TAINT_NODE_UNSCHEDULABLE, 'NoSchedule'),
  ];
  if (spec.hostNetwork) out.push(exists(TAINT_NODE_NETWORK_UNAVAILABLE, 'NoSchedule'));
  return out;
}

/**
 * v1helper.AddOrUpdateTolerationInPodSpec for each daemon toleration: a toleration with the same
 * key, operator, value and effect is replaced (so it never appears twice), others are appended.
 */
export function withDaemonTolerations(spec: PodSpec): Toleration[] {
  const out = [...(spec.tolerations ?? [])];
  for (const t of daemonPodTolerations(spec)) {
    const same = out.findIndex((x) => (x.key ?? '') === t.key && (x.operator ?? 'Equal') === t.operator && (x.value ?? '') === '' && (x.effect ?? '') === t.effect);
    if (same >= 0) out[same] = t;
    else out.push(t);
  }
  return out;
}

/** FindMatchingUntoleratedTaint: the first taint passing include that no toleration tolerates. */
export function untoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[], include: (t: Taint) => boolean): Taint | undefined {
  return taints.find((taint) => include(taint) && !tolerations.some((t) => toleratesTaint(t, taint)));
}

function matchExpression(req: NodeSelectorRequirement, labels: Readonly<Record<string, string>>): boolean {
  const values = req.values ?? [];
  const has = Object.hasOwn(labels, req.key);
  const value = labels[req.key] ?? '';
  switch (req.operator) {
    case 'In':
      return has && values.includes(value);
    case 'NotIn':
      return !has || !values.includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1 || !/^[+-]?\d+$/.test(values[0] ?? '') || !/^[+-]?\d+$/.test(value)) return false;
      return req.operator === 'Gt' ? Number(value) > Number(values[0]) : Number(value) < Number(values[0]);
    }
    default:
      return false;
  }
}

/** matchFields: only metadata.name, with In / NotIn (as the field selector upstream builds). */
function matchField(req: NodeSelectorRequirement, nodeName: string): boolean {
  if (req.key !== 'metadata.name') return false;
  if (req.operator === 'In') return (req.values ?? []).includes(nodeName);
  if (req.operator === 'NotIn') return !(req.values ?? []).includes(nodeName);
  return false;
}

/** A term matches when it has at least one requirement and all of them match. */
function matchTerm(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length + fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  return exprs.every((r) => matchExpression(r, labels)) && fields.every((r) => matchField(r, node.metadata.name ?? ''));
}

/** GetRequiredNodeAffinity(pod).Match(node): spec.nodeSelector AND any required affinity term. */
export function matchesNodeSelectorAndAffinity(spec: PodSpec, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (!Object.hasOwn(labels, k) || labels[k] !== v) return false;
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return terms === undefined || terms.some((t) => matchTerm(t, node));
}

export interface DaemonPlacement {
  /** A daemon pod should be created on the node if it has none. */
  shouldRun: boolean;
  /** An existing daemon pod may stay (only NoExecute taints it does not tolerate evict it). */
  shouldContinueRunning: boolean;
}

/**
 * NodeShouldRunDaemonPod: the template's nodeName, nodeSelector and required node affinity must
 * fit; then NoSchedule/NoExecute taints the pod (with the daemon tolerations added) does not
 * tolerate stop new pods, and only untolerated NoExecute taints stop existing ones.
 */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): DaemonPlacement {
  const spec = ds.spec.template.spec;
  const nodeName = node.metadata.name ?? '';
  if (spec.nodeName && spec.nodeName !== nodeName) return { shouldRun: false, shouldContinueRunning: false };
  if (!matchesNodeSelectorAndAffinity(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const taints = node.spec?.taints ?? [];
  const tolerations = withDaemonTolerations(spec);
  const blocking = untoleratedTaint(taints, tolerations, (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  if (!blocking) return { shouldRun: true, shouldContinueRunning: true };
  const evicting = untoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute');
  return { shouldRun: false, shouldContinueRunning: evicting === undefined };
}
