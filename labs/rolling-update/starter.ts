// The rolling-update lab: the arithmetic of the Deployment controller's RollingUpdate strategy, how
// many Pods a rollout may add and remove at each sync. Read lab.mdx first. Run the visible examples
// with `npm run grade -- rolling-update --examples`; grade with `npm run grade -- rolling-update`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { Deployment, IntOrString, ReplicaSet } from '../../runtime/api/index.ts';
import type { Fenceposts, ReplicaSetScale } from '../../runtime/controllers/index.ts';

/** maxSurge rounds up, maxUnavailable rounds down; both 0 makes maxUnavailable 1. */
export function resolveFenceposts(maxSurge: IntOrString, maxUnavailable: IntOrString, desired: number): Fenceposts {
  // TODO: "25%" of desired with the right rounding; an integer as it is.
  const surge = typeof maxSurge === 'number' ? maxSurge : 0;
  const unavailable = typeof maxUnavailable === 'number' ? maxUnavailable : 0;
  void desired;
  return { surge, unavailable };
}

/** MaxSurge: how many Pods above spec.replicas a rollout may create (0 under Recreate). */
export function maxSurge(deployment: Deployment): number {
  const rolling = deployment.spec.strategy?.rollingUpdate;
  return resolveFenceposts(rolling?.maxSurge ?? '25%', rolling?.maxUnavailable ?? '25%', deployment.spec.replicas ?? 1).surge; // TODO: Recreate
}

/** MaxUnavailable: how many Pods below spec.replicas may be unavailable (never more than spec.replicas). */
export function maxUnavailable(deployment: Deployment): number {
  const rolling = deployment.spec.strategy?.rollingUpdate;
  return resolveFenceposts(rolling?.maxSurge ?? '25%', rolling?.maxUnavailable ?? '25%', deployment.spec.replicas ?? 1).unavailable; // TODO
}

/** NewRSNewReplicas: how big the new ReplicaSet may be now. `allRSs` includes `newRS`. */
export function newRSNewReplicas(deployment: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  void allRSs;
  void newRS;
  return deployment.spec.replicas ?? 1; // TODO: stay within spec.replicas + maxSurge Pods in all
}

/** reconcileNewReplicaSet: the new ReplicaSet's next spec.replicas (unchanged when it must not move). */
export function reconcileNewReplicaSet(deployment: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  return newRSNewReplicas(deployment, allRSs, newRS); // TODO: the two early cases
}

/** reconcileOldReplicaSets: each old ReplicaSet whose size changes, once, with its new size. */
export function reconcileOldReplicaSets(deployment: Deployment, oldRSs: readonly ReplicaSet[], newRS: ReplicaSet): ReplicaSetScale[] {
  void deployment;
  void newRS;
  // TODO: the room (maxScaledDown), cleanupUnhealthyReplicas, then scaleDownOldReplicaSetsForRollingUpdate.
  return oldRSs.filter((rs) => (rs.spec.replicas ?? 0) > 0).map((rs) => ({ name: rs.metadata.name ?? '', replicas: 0 }));
}
