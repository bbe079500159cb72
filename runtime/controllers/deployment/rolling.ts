// Pure planning of one rolling-update step, mirroring pkg/controller/deployment/rolling.go
// (reconcileNewReplicaSet, reconcileOldReplicaSets, cleanupUnhealthyReplicas,
// scaleDownOldReplicaSetsForRollingUpdate). Returns the ReplicaSet sizes to set, in order.
import type { Deployment, IntOrString, ReplicaSet } from '../../api/index.ts';
import { byCreation, fenceposts, newRSNewReplicas, replicasOf, resolveFenceposts, rsReplicas } from './util.ts';

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

/** ResolveFenceposts' result: how many Pods above and below spec.replicas a rollout may use. */
export interface Fenceposts {
  surge: number;
  unavailable: number;
}

/** One ReplicaSet's new spec.replicas, as a scale step names it. */
export interface ReplicaSetScale {
  name: string;
  replicas: number;
}

/**
 * The rolling-update arithmetic of the Deployment controller as plain functions over the objects
 * the controller reads (the rolling-update lab implements it). mirrors
 * pkg/controller/deployment/util/deployment_util.go (ResolveFenceposts, MaxSurge, MaxUnavailable,
 * NewRSNewReplicas) and pkg/controller/deployment/rolling.go (reconcileNewReplicaSet,
 * reconcileOldReplicaSets with cleanupUnhealthyReplicas and scaleDownOldReplicaSetsForRollingUpdate).
 * Every function is pure: the controller around it makes the API calls.
 */
export interface RollingUpdateArithmetic {
  /** maxSurge rounded up, maxUnavailable rounded down, against `desired`; both 0 makes unavailable 1. */
  resolveFenceposts(maxSurge: IntOrString, maxUnavailable: IntOrString, desired: number): Fenceposts;
  /** MaxSurge: the resolved surge of a RollingUpdate Deployment, 0 under Recreate. */
  maxSurge(deployment: Deployment): number;
  /** MaxUnavailable: the resolved unavailability, at most spec.replicas, 0 under Recreate or with 0 replicas. */
  maxUnavailable(deployment: Deployment): number;
  /** NewRSNewReplicas: how big the new ReplicaSet may be now; `allRSs` includes `newRS`. */
  newRSNewReplicas(deployment: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number;
  /** reconcileNewReplicaSet: the new ReplicaSet's next spec.replicas (its current one when nothing changes). */
  reconcileNewReplicaSet(deployment: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number;
  /** reconcileOldReplicaSets: the old ReplicaSets whose size changes, each once with its new size. */
  reconcileOldReplicaSets(deployment: Deployment, oldRSs: readonly ReplicaSet[], newRS: ReplicaSet): ReplicaSetScale[];
}

/** The simulation's own RollingUpdateArithmetic, over the functions the DeploymentController uses. */
export const rollingUpdateArithmetic: RollingUpdateArithmetic = {
  resolveFenceposts(maxSurge, maxUnavailable, desired) {
    const r = resolveFenceposts(maxSurge, maxUnavailable, desired);
    if ('error' in r) throw new Error(r.error);
    return r;
  },
  maxSurge: (d) => fenceposts(d).surge,
  maxUnavailable: (d) => fenceposts(d).unavailable,
  newRSNewReplicas: (d, allRSs, newRS) => newRSNewReplicas(d, allRSs, newRS),
  reconcileNewReplicaSet: (d, allRSs, newRS) => planNewReplicaSet(d, allRSs, newRS)?.to ?? rsReplicas(newRS),
  reconcileOldReplicaSets: (d, oldRSs, newRS) =>
    planOldReplicaSets(d, oldRSs, newRS).map((step) => ({ name: step.rs.metadata.name ?? '', replicas: step.to })),
};
