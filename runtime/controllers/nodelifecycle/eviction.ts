// Taint-based eviction: when a pod on a NoExecute-tainted node must go. mirrors
// pkg/controller/tainteviction/taint_eviction.go (processPodOnNode, getMinTolerationTime); the
// toleration rule is api's toleratesTaint. An untolerated NoExecute taint deletes the pod at once; otherwise the smallest tolerationSeconds among the tolerations used
// counts from when the controller saw the taints (not the taint's timeAdded); no limit at all
// means the pod stays forever.
import { toleratesTaint, type Pod, type Taint, type Toleration } from '../../api/index.ts';

export const TAINT_EVICTION_REASON = 'TaintManagerEviction';

export type EvictionPlan =
  | { kind: 'none' }
  | { kind: 'now' }
  | { kind: 'after'; delayMs: number };

/** processPodOnNode for the node's NoExecute taints. */
export function planEviction(pod: Pod, nodeTaints: readonly Taint[]): EvictionPlan {
  const taints = nodeTaints.filter((t) => t.effect === 'NoExecute');
  if (taints.length === 0) return { kind: 'none' };
  const tolerations = pod.spec.tolerations ?? [];
  const used: Toleration[] = [];
  for (const taint of taints) {
    const match = tolerations.filter((t) => toleratesTaint(t, taint));
    if (match.length === 0) return { kind: 'now' };
    used.push(...match);
  }
  // getMinTolerationTime: no tolerationSeconds means forever; <= 0 means at once
  let minSeconds = Infinity;
  for (const t of used) {
    if (t.tolerationSeconds === undefined) continue;
    minSeconds = Math.min(minSeconds, Math.max(0, t.tolerationSeconds));
  }
  if (minSeconds === Infinity) return { kind: 'none' };
  return { kind: 'after', delayMs: minSeconds * 1000 };
}
