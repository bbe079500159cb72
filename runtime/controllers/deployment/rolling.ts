// Pure planning of one rolling-update step, mirroring pkg/controller/deployment/rolling.go
// (reconcileNewReplicaSet, reconcileOldReplicaSets, cleanupUnhealthyReplicas,
// scaleDownOldReplicaSetsForRollingUpdate). Returns the ReplicaSet sizes to set, in order.
import type { Deployment, ReplicaSet } from '../../api/index.ts';
import { byCreation, fenceposts, newRSNewReplicas, replicasOf, rsReplicas } from './util.ts';

export interface ScaleStep {
  rs: ReplicaSet;
  to: number;
}

/** reconcileNewReplicaSet: the new ReplicaSet's next size, or undefined when it is right. */
export function planNewReplicaSet(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): ScaleStep | undefined {
  const want = replicasOf(d);
  if (rsReplicas(newRS) === want) return undefined;
  if (rsReplicas(newRS) > want) return { rs: newRS, to: want };
  const to = newRSNewReplicas(d, allRSs, newRS);
  return to === rsReplicas(newRS) ? undefined : { rs: newRS, to };
}

const available = (rs: ReplicaSet): number => rs.status?.availableReplicas ?? 0;

/** reconcileOldReplicaSets: unhealthy old replicas first, then as many as availability allows. */
export function planOldReplicaSets(d: Deployment, oldRSs: readonly ReplicaSet[], newRS: ReplicaSet): ScaleStep[] {
  const oldCount = oldRSs.reduce((n, rs) => n + rsReplicas(rs), 0);
  if (oldCount === 0) return [];
  const allCount = oldCount + rsReplicas(newRS);
  const minAvailable = replicasOf(d) - fenceposts(d).unavailable;
  const newUnavailable = rsReplicas(newRS) - available(newRS);
  const maxScaledDown = allCount - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return [];
  const sizes = new Map<ReplicaSet, number>(oldRSs.map((rs) => [rs, rsReplicas(rs)]));
  const sorted = [...oldRSs].sort(byCreation);
  // cleanupUnhealthyReplicas: replicas that are not available can go without lowering availability
  let cleaned = 0;
  for (const rs of sorted) {
    if (cleaned >= maxScaledDown) break;
    const size = sizes.get(rs)!;
    if (size === 0 || size === available(rs)) continue;
    const down = Math.min(maxScaledDown - cleaned, size - available(rs));
    sizes.set(rs, size - down);
    cleaned += down;
  }
  // scaleDownOldReplicaSetsForRollingUpdate: then only down to minAvailable
  const availableCount = [...oldRSs, newRS].reduce((n, rs) => n + available(rs), 0);
  let budget = availableCount - minAvailable;
  for (const rs of sorted) {
    if (budget <= 0) break;
    const size = sizes.get(rs)!;
    if (size === 0) continue;
    const down = Math.min(size, budget);
    sizes.set(rs, size - down);
    budget -= down;
  }
  return sorted.filter((rs) => sizes.get(rs)! !== rsReplicas(rs)).map((rs) => ({ rs, to: sizes.get(rs)! }));
}
