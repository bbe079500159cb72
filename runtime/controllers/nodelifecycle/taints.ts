// The taints the node lifecycle controller owns. mirrors node_lifecycle_controller.go
// (doNoScheduleTaintingPass with nodeConditionToTaintKeyStatusMap, doNoExecuteTaintingPass,
// processTaintBaseEviction, markNodeAsReachable) and pkg/controller/util/node
// (SwapNodeControllerTaint: the added NoExecute taint carries timeAdded).
import type { Node, NodeCondition, Taint } from '../../api/index.ts';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** Condition type -> condition status -> the NoSchedule taint key it implies. */
const CONDITION_TAINTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const NO_SCHEDULE_KEYS = new Set([
  ...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)),
  TAINT_UNSCHEDULABLE,
]);

/** A NoSchedule taint this controller manages. */
export const ownNoSchedule = (t: Taint): boolean => t.effect === 'NoSchedule' && NO_SCHEDULE_KEYS.has(t.key);
/** A NoExecute taint this controller manages (not-ready, unreachable). */
export const ownNoExecute = (t: Taint): boolean =>
  t.effect === 'NoExecute' && (t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE);

/**
 * doNoScheduleTaintingPass: NoSchedule taints follow the conditions and spec.unschedulable. A taint
 * the node already has (same key and effect) is kept as it is; a new one is stamped with timeAdded,
 * as SwapNodeControllerTaint stamps every taint it adds.
 */
export function desiredNoScheduleTaints(node: Node, now: string): Taint[] {
  const current = node.spec?.taints ?? [];
  const want = (key: string): Taint => current.find((t) => ownNoSchedule(t) && t.key === key) ?? { key, effect: 'NoSchedule', timeAdded: now };
  const taints: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key && !taints.some((t) => t.key === key)) taints.push(want(key));
  }
  if (node.spec?.unschedulable && !taints.some((t) => t.key === TAINT_UNSCHEDULABLE)) taints.push(want(TAINT_UNSCHEDULABLE));
  return taints;
}

/**
 * processTaintBaseEviction + doNoExecuteTaintingPass: Ready False -> not-ready:NoExecute, Unknown
 * -> unreachable:NoExecute (swapping the other one out), True -> neither. A taint already present
 * keeps its timeAdded.
 */
export function desiredNoExecuteTaints(node: Node, ready: NodeCondition | undefined, now: string): Taint[] {
  const key =
    ready?.status === 'False' ? TAINT_NOT_READY : ready?.status === 'Unknown' ? TAINT_UNREACHABLE : null;
  if (!key) return [];
  const existing = (node.spec?.taints ?? []).find((t) => t.key === key && t.effect === 'NoExecute');
  return [existing ?? { key, effect: 'NoExecute', timeAdded: now }];
}

/** The node's taints with the controller-owned ones replaced; null when nothing changes. */
export function reconcileTaints(node: Node, noSchedule: Taint[], noExecute: Taint[]): Taint[] | null {
  const current = node.spec?.taints ?? [];
  const others = current.filter((t) => !ownNoSchedule(t) && !ownNoExecute(t));
  const keep = (want: Taint[], own: (t: Taint) => boolean) =>
    want.map((w) => current.find((t) => own(t) && t.key === w.key) ?? w);
  const next = [...others, ...keep(noExecute, ownNoExecute), ...keep(noSchedule, ownNoSchedule)];
  const sig = (ts: Taint[]) => ts.map((t) => `${t.key}:${t.effect}`).sort().join(',');
  return sig(next) === sig(current) ? null : next;
}

/**
 * The node's taints once both tainting passes have acted on its current conditions: the NoSchedule
 * pass (doNoScheduleTaintingPass) and the NoExecute one for its Ready condition (False: not-ready,
 * Unknown: unreachable, True: neither; no Ready condition: left as they are), leaving every taint
 * the controller does not own alone. Order is not significant.
 */
export function reconcileNodeTaints(node: Node, now: string): Taint[] {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  const noExecute = ready ? desiredNoExecuteTaints(node, ready, now) : (node.spec?.taints ?? []).filter(ownNoExecute);
  return reconcileTaints(node, desiredNoScheduleTaints(node, now), noExecute) ?? [...(node.spec?.taints ?? [])];
}
