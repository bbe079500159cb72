// A Deployment resized while more than one of its ReplicaSets has replicas: the extra (or missing)
// replicas are shared among them in proportion to their sizes, so a rollout in progress keeps its
// old/new balance ("proportional scaling" in the Deployment docs).
// mirrors pkg/controller/deployment/sync.go isScalingEvent and scale, and util/deployment_util.go
// FindActiveOrLatest, IsSaturated, GetReplicaSetProportion, getReplicaSetFraction.
import type { Deployment, ReplicaSet } from '../../api/index.ts';
import type { ScaleStep } from './rolling.ts';
import { DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, byCreation, fenceposts, isRollingUpdate, replicasOf, rsReplicas } from './util.ts';

function annotationInt(rs: ReplicaSet, key: string): number | undefined {
  const text = rs.metadata.annotations?.[key];
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  return Number(text);
}

const active = (rss: readonly (ReplicaSet | undefined)[]): ReplicaSet[] => rss.filter((rs): rs is ReplicaSet => rs !== undefined && rsReplicas(rs) > 0);

/** isScalingEvent: an active ReplicaSet was sized for a different spec.replicas. */
export function isScalingEvent(d: Deployment, allRSs: readonly (ReplicaSet | undefined)[]): boolean {
  return active(allRSs).some((rs) => {
    const desired = annotationInt(rs, DESIRED_REPLICAS_ANNOTATION);
    return desired !== undefined && desired !== replicasOf(d);
  });
}

/** FindActiveOrLatest: the one active ReplicaSet, else the newest when none is active, else none. */
function activeOrLatest(newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a));
  const all = active([...newestFirst, newRS]);
  if (all.length === 0) return newRS ?? newestFirst[0];
  return all.length === 1 ? all[0] : undefined;
}

/** IsSaturated: the new ReplicaSet is sized for this deployment and fully available. */
function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const want = replicasOf(d);
  return annotationInt(rs, DESIRED_REPLICAS_ANNOTATION) === want && rsReplicas(rs) === want && (rs.status?.availableReplicas ?? 0) === want;
}

/** integer.RoundToInt32: half rounds up. */
const roundToInt = (x: number): number => Math.floor(x + 0.5);

/** getReplicaSetFraction: how many replicas this ReplicaSet gains (or loses) at the new size. */
function fraction(rs: ReplicaSet, d: Deployment): number {
  if (replicasOf(d) === 0) return -rsReplicas(rs);
  const maxReplicas = replicasOf(d) + fenceposts(d).surge;
  let before = annotationInt(rs, MAX_REPLICAS_ANNOTATION) ?? 0;
  // no usable annotation (edited by hand, or made while the deployment had 0 replicas): the current size
  if (before === 0) before = d.status?.replicas ?? 0;
  if (before === 0) return 0;
  return roundToInt((rsReplicas(rs) * maxReplicas) / before) - rsReplicas(rs);
}

/** GetReplicaSetProportion: the fraction, never past what is left to add (or remove). */
function proportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number): number {
  if (rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const f = fraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(f, allowed) : Math.max(f, allowed);
}

/** Whether scaleReplicaSet would write: a new size, or replica annotations not yet for this spec. */
function needsWrite(d: Deployment, rs: ReplicaSet, to: number): boolean {
  return (
    rsReplicas(rs) !== to ||
    annotationInt(rs, DESIRED_REPLICAS_ANNOTATION) !== replicasOf(d) ||
    annotationInt(rs, MAX_REPLICAS_ANNOTATION) !== replicasOf(d) + fenceposts(d).surge
  );
}

/**
 * sync.go scale: the ReplicaSet sizes to write, in the order upstream writes them. One active (or
 * none: the newest) takes the whole size; a saturated new ReplicaSet empties the old ones; otherwise,
 * for RollingUpdate, the difference to spec.replicas + maxSurge is shared by proportion, largest
 * first (newest first among equals when growing, oldest first when shrinking), the rounding leftover
 * going to the first.
 */
export function planScale(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): ScaleStep[] {
  const only = activeOrLatest(newRS, oldRSs);
  if (only) return rsReplicas(only) === replicasOf(d) ? [] : [{ rs: only, to: replicasOf(d) }];
  if (isSaturated(d, newRS)) return active(oldRSs).map((rs) => ({ rs, to: 0 }));
  if (!isRollingUpdate(d)) return [];
  const all = active([...oldRSs, newRS]);
  const current = all.reduce((n, rs) => n + rsReplicas(rs), 0);
  const allowed = replicasOf(d) > 0 ? replicasOf(d) + fenceposts(d).surge : 0;
  const toAdd = allowed - current;
  if (toAdd > 0) all.sort((a, b) => rsReplicas(b) - rsReplicas(a) || byCreation(b, a));
  else if (toAdd < 0) all.sort((a, b) => rsReplicas(b) - rsReplicas(a) || byCreation(a, b));
  const sizes = new Map<ReplicaSet, number>();
  let added = 0;
  for (const rs of all) {
    const p = proportion(rs, d, toAdd, added);
    sizes.set(rs, rsReplicas(rs) + p);
    added += p;
  }
  const first = all[0];
  if (first && toAdd !== 0) sizes.set(first, Math.max(0, sizes.get(first)! + toAdd - added));
  return all.filter((rs) => needsWrite(d, rs, sizes.get(rs)!)).map((rs) => ({ rs, to: sizes.get(rs)! }));
}
