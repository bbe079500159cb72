// Mutant "no-cleanup": skips cleanupUnhealthyReplicas: unavailable old Pods are only removed as part of the availability budget.
// A plausible wrong solution; the hidden suite must fail it.
// mirrors pkg/controller/deployment/util/deployment_util.go (ResolveFenceposts, MaxSurge, MaxUnavailable,
// NewRSNewReplicas), staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go
// (GetScaledValueFromIntOrPercent) and pkg/controller/deployment/rolling.go (reconcileNewReplicaSet,
// reconcileOldReplicaSets, cleanupUnhealthyReplicas, scaleDownOldReplicaSetsForRollingUpdate), with
// pkg/controller/controller_utils.go (ReplicaSetsByCreationTimestamp).
import type { Deployment, IntOrString, ReplicaSet } from '../../../runtime/api/index.ts';
import type { Fenceposts, ReplicaSetScale } from '../../../runtime/controllers/index.ts';

/** intstr.GetScaledValueFromIntOrPercent: an int as is; "N%" of total, rounded up or down. */
function scaled(value: IntOrString, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const percent = Number(value.slice(0, -1)); // "25%" -> 25
  const exact = (percent * total) / 100; // multiply first: 29 * 100 / 100 is exactly 29
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

export function resolveFenceposts(maxSurge: IntOrString, maxUnavailable: IntOrString, desired: number): Fenceposts {
  const surge = scaled(maxSurge, desired, true);
  const unavailable = scaled(maxUnavailable, desired, false);
  // both 0 would freeze the rollout: allow one Pod down (surge may be blocked by a quota)
  if (surge === 0 && unavailable === 0) return { surge: 0, unavailable: 1 };
  return { surge, unavailable };
}

const replicasOf = (d: Deployment): number => d.spec.replicas ?? 1;
const isRolling = (d: Deployment): boolean => (d.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

function fenceposts(d: Deployment): Fenceposts {
  const rolling = d.spec.strategy?.rollingUpdate;
  return resolveFenceposts(rolling?.maxSurge ?? '25%', rolling?.maxUnavailable ?? '25%', replicasOf(d));
}

export function maxSurge(d: Deployment): number {
  if (!isRolling(d)) return 0;
  return fenceposts(d).surge;
}

export function maxUnavailable(d: Deployment): number {
  if (!isRolling(d) || replicasOf(d) === 0) return 0;
  return Math.min(fenceposts(d).unavailable, replicasOf(d));
}

const size = (rs: ReplicaSet): number => rs.spec.replicas ?? 0;
const available = (rs: ReplicaSet): number => rs.status?.availableReplicas ?? 0;
const total = (rss: readonly ReplicaSet[], count: (rs: ReplicaSet) => number): number => rss.reduce((n, rs) => n + count(rs), 0);

export function newRSNewReplicas(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  if (!isRolling(d)) return replicasOf(d);
  const maxTotalPods = replicasOf(d) + maxSurge(d);
  const current = total(allRSs, size);
  if (current >= maxTotalPods) return size(newRS); // no room for a surge Pod now
  const scaleUp = Math.min(maxTotalPods - current, replicasOf(d) - size(newRS)); // never above spec.replicas
  return size(newRS) + scaleUp;
}

export function reconcileNewReplicaSet(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  if (size(newRS) === replicasOf(d)) return size(newRS);
  if (size(newRS) > replicasOf(d)) return replicasOf(d);
  return newRSNewReplicas(d, allRSs, newRS);
}

/** ReplicaSetsByCreationTimestamp: oldest first, the name breaking ties. */
function oldestFirst(a: ReplicaSet, b: ReplicaSet): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

export function reconcileOldReplicaSets(d: Deployment, oldRSs: readonly ReplicaSet[], newRS: ReplicaSet): ReplicaSetScale[] {
  const oldPods = total(oldRSs, size);
  if (oldPods === 0) return [];
  const allPods = oldPods + size(newRS);
  const minAvailable = replicasOf(d) - maxUnavailable(d);
  const newRSUnavailable = size(newRS) - available(newRS);
  // unavailable Pods of the new ReplicaSet must not let us remove more old ones
  const maxScaledDown = allPods - minAvailable - newRSUnavailable;
  if (maxScaledDown <= 0) return [];

  const sorted = [...oldRSs].sort(oldestFirst);
  const sizes = new Map(sorted.map((rs) => [rs, size(rs)]));

  // cleanupUnhealthyReplicas: unavailable old Pods go first, they cost no availability
  let cleaned = 0;
  for (const rs of sorted) {
    break;
    if (size(rs) === 0 || size(rs) === available(rs)) continue;
    const down = Math.min(maxScaledDown - cleaned, size(rs) - available(rs));
    sizes.set(rs, size(rs) - down);
    cleaned += down;
  }

  // scaleDownOldReplicaSetsForRollingUpdate: then available ones, down to minAvailable
  const availablePods = total([...oldRSs, newRS], available);
  if (availablePods > minAvailable) {
    const budget = availablePods - minAvailable;
    let scaledDown = 0;
    for (const rs of sorted) {
      if (scaledDown >= budget) break;
      const current = sizes.get(rs)!;
      if (current === 0) continue;
      const down = Math.min(current, budget - scaledDown);
      sizes.set(rs, current - down);
      scaledDown += down;
    }
  }

  return sorted.filter((rs) => sizes.get(rs) !== size(rs)).map((rs) => ({ name: rs.metadata.name ?? '', replicas: sizes.get(rs)! }));
}
