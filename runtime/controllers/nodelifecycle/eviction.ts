// Taint-based eviction: when a pod on a NoExecute-tainted node must go. mirrors
// pkg/controller/tainteviction/taint_eviction.go (processPodOnNode, getMinTolerationTime) with
// pkg/apis/core/v1/helper (GetMatchingTolerations: the first toleration that tolerates each taint)
// and api's toleratesTaint. An untolerated NoExecute taint deletes the pod at once; otherwise the
// smallest tolerationSeconds among the tolerations used (<= 0: at once; none: forever) counts from
// when the controller processed the taints (not the taint's timeAdded), and an eviction already
// scheduled keeps its time.
import { toleratesTaint, type Pod, type Taint, type Toleration } from '../../api/index.ts';

export const TAINT_EVICTION_REASON = 'TaintManagerEviction';

export type EvictionPlan =
  | { kind: 'none' }
  | { kind: 'now' }
  | { kind: 'after'; delayMs: number };

/** The NoExecute taints of a node's taints (getNoExecuteTaints). */
export const noExecuteTaints = (taints: readonly Taint[]): Taint[] => taints.filter((t) => t.effect === 'NoExecute');

/** processPodOnNode's verdict for the node's NoExecute taints, before the eviction queue. */
export function planEviction(pod: Pod, nodeTaints: readonly Taint[]): EvictionPlan {
  return planFor(pod.spec.tolerations ?? [], noExecuteTaints(nodeTaints));
}

function planFor(tolerations: readonly Toleration[], taints: readonly Taint[]): EvictionPlan {
  if (taints.length === 0) return { kind: 'none' };
  // GetMatchingTolerations: for each taint, the first toleration (in the pod's order) that tolerates it
  const used: Toleration[] = [];
  for (const taint of taints) {
    const match = tolerations.find((t) => toleratesTaint(t, taint));
    if (!match) return { kind: 'now' };
    used.push(match);
  }
  // getMinTolerationTime: no tolerationSeconds means forever; <= 0 means at once
  let minSeconds = Infinity;
  for (const t of used) {
    if (t.tolerationSeconds === undefined) continue;
    if (t.tolerationSeconds <= 0) return { kind: 'after', delayMs: 0 };
    minSeconds = Math.min(minSeconds, t.tolerationSeconds);
  }
  if (minSeconds === Infinity) return { kind: 'none' };
  return { kind: 'after', delayMs: minSeconds * 1000 };
}

/** A deletion the taint eviction controller has scheduled (its TimedWorkerQueue entry). */
export interface PendingEviction {
  /** When the work was first created (WorkArgs' CreatedAt), ms. */
  createdAtMs: number;
  /** When it fires: the pod is deleted then, ms. */
  fireAtMs: number;
}

/**
 * processPodOnNode for one pod at nowMs: given its tolerations, its node's taints and the deletion
 * already scheduled for it (or null), the deletion scheduled afterwards (or null: none). An
 * untolerated taint schedules (now, now); a pending deletion is kept unless it was created at nowMs.
 */
export function processPodOnNode(
  tolerations: readonly Toleration[],
  taints: readonly Taint[],
  nowMs: number,
  pending: PendingEviction | null,
): PendingEviction | null {
  const plan = planFor(tolerations, noExecuteTaints(taints));
  if (plan.kind === 'none') return null;
  if (plan.kind === 'now') return { createdAtMs: nowMs, fireAtMs: nowMs };
  const triggerAtMs = nowMs + plan.delayMs;
  if (!pending) return { createdAtMs: nowMs, fireAtMs: triggerAtMs };
  // "startTime.Add(minTolerationTime).Before(triggerTime)": the earlier start stands, with its own fire time
  if (pending.createdAtMs + plan.delayMs < triggerAtMs) return pending;
  return { createdAtMs: pending.createdAtMs, fireAtMs: triggerAtMs };
}
