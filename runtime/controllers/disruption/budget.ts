// The disruption controller's arithmetic, as pure functions over cached objects: which pods a
// budget covers, how many it expects (from the scale of their controllers), how many must stay
// healthy, which evictions are still in flight, and the status to write.
// mirrors pkg/controller/disruption/disruption.go (getPodsForPdb, the finders getPodReplicaSet /
// getPodDeployment / getScaleController, getExpectedPodCount, getExpectedScale,
// buildDisruptedPodMap, countHealthyPods, updatePdbStatus, failSafe) and
// staging/src/k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go (ConditionsAreUpToDate).
import type {
  Deployment, IntOrString, OwnerReference, Pod, PodDisruptionBudget, PodDisruptionBudgetStatus, ReplicaSet,
} from '../../api/index.ts';
import {
  DISRUPTION_ALLOWED_CONDITION, INSUFFICIENT_PODS_REASON, SUFFICIENT_PODS_REASON, SYNC_FAILED_REASON,
  labelSelectorAsSelector, parseAPIVersion, parseRFC3339, resourceForKind, setStatusCondition,
  updateDisruptionAllowedCondition,
} from '../../api/index.ts';
import { controllerOf, isPodReady } from '../controller-utils.ts';
import { getScaledValueFromIntOrPercent } from '../deployment/util.ts';

/** DeletionTimeout: an evicted pod not gone after this long counts as healthy again. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

/** controllerAndScale: the controller whose scale a pod counts toward. */
export interface ControllerAndScale {
  uid: string;
  scale: number;
}

/** A finder answers for the controllers it knows: their scale, undefined (not mine), or an error. */
export type ScaleFinder = (ref: OwnerReference, namespace: string) => ControllerAndScale | undefined | { error: string };

/** The caches the finders read (the controller's ReplicaSet and Deployment listers). */
export interface ControllerListers {
  replicaSet(namespace: string, name: string): ReplicaSet | undefined;
  deployment(namespace: string, name: string): Deployment | undefined;
}

/** verifyGroupKind: the reference names `kind` in one of `groups`. */
function refIs(ref: OwnerReference, kind: string, groups: readonly string[]): boolean {
  return ref.kind === kind && groups.includes(parseAPIVersion(ref.apiVersion).group);
}

const APPS = ['apps', 'extensions'];

/** The finders in upstream's order: a ReplicaSet of its own, a Deployment's ReplicaSet, then any scale subresource. */
export function finders(l: ControllerListers): ScaleFinder[] {
  const ownedReplicaSet = (ref: OwnerReference, ns: string): ReplicaSet | undefined => {
    if (!refIs(ref, 'ReplicaSet', APPS)) return undefined;
    const rs = l.replicaSet(ns, ref.name);
    return rs && rs.metadata.uid === ref.uid ? rs : undefined;
  };
  // getPodReplicaSet: a ReplicaSet a Deployment controls is the Deployment's finder's business
  const replicaSet: ScaleFinder = (ref, ns) => {
    const rs = ownedReplicaSet(ref, ns);
    if (!rs || controllerOf(rs)?.kind === 'Deployment') return undefined;
    return { uid: rs.metadata.uid ?? '', scale: rs.spec.replicas ?? 1 };
  };
  const deployment: ScaleFinder = (ref, ns) => {
    const rs = ownedReplicaSet(ref, ns);
    const dref = rs && controllerOf(rs);
    if (!dref || !refIs(dref, 'Deployment', APPS)) return undefined;
    const d = l.deployment(ns, dref.name);
    if (!d || d.metadata.uid !== dref.uid) return undefined;
    return { uid: d.metadata.uid ?? '', scale: d.spec.replicas ?? 1 };
  };
  // getScaleController: any kind the API serves; upstream GETs <resource>/scale, we read the caches
  const scale: ScaleFinder = (ref, ns) => {
    const info = resourceForKind(ref.kind, ref.apiVersion);
    if (!info) return undefined;
    const groupResource = info.group === '' ? info.resource : `${info.resource}.${info.group}`;
    if (!info.subresources.includes('scale')) return { error: `${groupResource} does not implement the scale subresource` };
    const obj = info.kind === 'ReplicaSet' ? l.replicaSet(ns, ref.name) : info.kind === 'Deployment' ? l.deployment(ns, ref.name) : undefined;
    if (!obj || obj.metadata.uid !== ref.uid) return undefined;
    return { uid: ref.uid, scale: obj.spec.replicas ?? 1 };
  };
  return [replicaSet, deployment, scale];
}

/** getPodsForPdb: the namespace's pods the selector matches (policy/v1: nil selects none, empty selects all). */
export function podsForBudget(pdb: PodDisruptionBudget, namespacePods: readonly Pod[]): Pod[] | { error: string } {
  const parsed = labelSelectorAsSelector(pdb.spec.selector);
  if (!parsed.ok) return { error: parsed.error };
  return namespacePods.filter((p) => parsed.selector.matches(p.metadata.labels ?? {}));
}

export interface ExpectedCount {
  expectedCount: number;
  desiredHealthy: number;
  /** Pods with no controller: counted as nothing toward a percentage (an UnmanagedPods warning). */
  unmanagedPods: string[];
}

export interface CountError {
  error: string;
  /** The error came from a pod whose controller no finder knows (upstream also records NoControllers). */
  noControllers?: boolean;
}

/** getExpectedScale: the sum of the scales of the selected pods' controllers, each counted once. */
export function expectedScale(pods: readonly Pod[], find: readonly ScaleFinder[]): { expectedCount: number; unmanagedPods: string[] } | CountError {
  const scaleByUid = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (!ref) {
      unmanagedPods.push(pod.metadata.name ?? '');
      continue;
    }
    if (scaleByUid.has(ref.uid)) continue;
    let found = false;
    for (const finder of find) {
      const r = finder(ref, pod.metadata.namespace ?? '');
      if (r === undefined) continue;
      if ('error' in r) return { error: r.error };
      scaleByUid.set(r.uid, r.scale);
      found = true;
      break;
    }
    if (!found) return { error: `found no controllers for pod "${pod.metadata.name ?? ''}"`, noControllers: true };
  }
  let expectedCount = 0;
  for (const s of scaleByUid.values()) expectedCount += s;
  return { expectedCount, unmanagedPods };
}

const scaled = (v: IntOrString, total: number): number | { error: string } => {
  const r = getScaledValueFromIntOrPercent(v, total, true);
  return r.ok ? r.value : { error: r.error };
};

/**
 * getExpectedPodCount: maxUnavailable and a percentage minAvailable scale against the controllers'
 * replicas (rounding up); an integer minAvailable counts the pods that exist.
 */
export function expectedPodCount(pdb: PodDisruptionBudget, pods: readonly Pod[], find: readonly ScaleFinder[]): ExpectedCount | CountError {
  const { maxUnavailable, minAvailable } = pdb.spec;
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const e = expectedScale(pods, find);
    if ('error' in e) return e;
    const max = scaled(maxUnavailable, e.expectedCount);
    if (typeof max !== 'number') return max;
    return { ...e, desiredHealthy: Math.max(0, e.expectedCount - max) };
  }
  if (typeof minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: minAvailable, unmanagedPods: [] };
  if (typeof minAvailable === 'string') {
    const e = expectedScale(pods, find);
    if ('error' in e) return e;
    const min = scaled(minAvailable, e.expectedCount);
    if (typeof min !== 'number') return min;
    return { ...e, desiredHealthy: min };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

export interface DisruptedPodMap {
  disruptedPods: Record<string, string>;
  /** When the earliest remaining entry expires (sim ms): sync again then. */
  recheckAtMs?: number;
  /** Pods evicted more than DeletionTimeout ago that still exist (a NotDeleted warning each). */
  notDeleted: Pod[];
}

/**
 * buildDisruptedPodMap: keep the eviction entries whose pod still exists, is not being deleted
 * and was evicted less than DeletionTimeout ago.
 */
export function buildDisruptedPodMap(pods: readonly Pod[], pdb: PodDisruptionBudget, nowMs: number, epochMs?: number): DisruptedPodMap {
  const previous = pdb.status?.disruptedPods;
  const result: DisruptedPodMap = { disruptedPods: {}, notDeleted: [] };
  if (!previous) return result;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const name = pod.metadata.name ?? '';
    const at = previous[name];
    if (at === undefined) continue;
    const expectedDeletionMs = (parseRFC3339(at, epochMs) ?? Number.NEGATIVE_INFINITY) + DELETION_TIMEOUT_MS;
    if (expectedDeletionMs < nowMs) {
      result.notDeleted.push(pod);
    } else {
      if (result.recheckAtMs === undefined || expectedDeletionMs < result.recheckAtMs) result.recheckAtMs = expectedDeletionMs;
      result.disruptedPods[name] = at;
    }
  }
  return result;
}

/** countHealthyPods: Ready, not being deleted, and not evicted in the last DeletionTimeout. */
export function countHealthyPods(pods: readonly Pod[], disruptedPods: Record<string, string>, nowMs: number, epochMs?: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disruptedPods[pod.metadata.name ?? ''];
    if (at !== undefined && (parseRFC3339(at, epochMs) ?? Number.NEGATIVE_INFINITY) + DELETION_TIMEOUT_MS > nowMs) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** ConditionsAreUpToDate: the DisruptionAllowed condition agrees with disruptionsAllowed at this generation. */
export function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const cond = (pdb.status?.conditions ?? []).find((c) => c.type === DISRUPTION_ALLOWED_CONDITION);
  if (!cond || pdb.status?.observedGeneration !== pdb.metadata.generation) return false;
  return (pdb.status?.disruptionsAllowed ?? 0) > 0
    ? cond.status === 'True' && cond.reason === SUFFICIENT_PODS_REASON
    : cond.status === 'False' && cond.reason === INSUFFICIENT_PODS_REASON;
}

/** Semantic.DeepEqual on the maps: nil and empty are equal. */
function sameDisrupted(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b).length && ka.every((k) => a![k] === b[k]);
}

export interface HealthCounts {
  currentHealthy: number;
  desiredHealthy: number;
  expectedCount: number;
  disruptedPods: Record<string, string>;
}

/**
 * updatePdbStatus: the status to write, or undefined when the stored one is already right.
 * disruptionsAllowed is 0 while the budget expects no pods, so a budget whose pods are only
 * appearing is safe before the controller has counted them.
 */
export function nextStatus(pdb: PodDisruptionBudget, c: HealthCounts, nowMs: number): PodDisruptionBudgetStatus | undefined {
  let disruptionsAllowed = c.currentHealthy - c.desiredHealthy;
  if (c.expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const s = pdb.status;
  if (
    s && s.currentHealthy === c.currentHealthy && s.desiredHealthy === c.desiredHealthy && s.expectedPods === c.expectedCount &&
    s.disruptionsAllowed === disruptionsAllowed && sameDisrupted(s.disruptedPods, c.disruptedPods) &&
    s.observedGeneration === pdb.metadata.generation && conditionsAreUpToDate(pdb)
  ) return undefined;
  const status: PodDisruptionBudgetStatus = {
    disruptionsAllowed, currentHealthy: c.currentHealthy, desiredHealthy: c.desiredHealthy, expectedPods: c.expectedCount,
  };
  if (Object.keys(c.disruptedPods).length > 0) status.disruptedPods = c.disruptedPods;
  if (pdb.metadata.generation !== undefined) status.observedGeneration = pdb.metadata.generation;
  if (s?.conditions) status.conditions = s.conditions;
  const next: PodDisruptionBudget = { ...pdb, status };
  updateDisruptionAllowedCondition(next, nowMs);
  return next.status;
}

/** failSafe: on a sync error, allow no disruption and say why (observedGeneration is left as it was). */
export function failSafeStatus(pdb: PodDisruptionBudget, message: string, nowMs: number): PodDisruptionBudgetStatus {
  const s: PodDisruptionBudgetStatus = { ...(pdb.status ?? { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptionsAllowed: 0 }), disruptionsAllowed: 0 };
  const condition = { type: DISRUPTION_ALLOWED_CONDITION, status: 'False' as const, reason: SYNC_FAILED_REASON, message };
  s.conditions = setStatusCondition(
    s.conditions ?? [],
    s.observedGeneration !== undefined ? { ...condition, observedGeneration: s.observedGeneration } : condition,
    nowMs,
  );
  return s;
}

/** DefaultStalePodDisruptionTimeout: how long a DisruptionTarget condition may stand on a pod nobody deletes. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60_000;

/**
 * nonTerminatingPodHasStaleDisruptionCondition: for a pod with DisruptionTarget=True that is not
 * being deleted, not terminal, and not marked by the kubelet, how long until the condition is
 * stale (0: now); undefined when there is nothing to clean up.
 */
export function staleDisruptionCleanupInMs(pod: Pod, nowMs: number, epochMs?: number): number | undefined {
  if (pod.metadata.deletionTimestamp) return undefined;
  const cond = (pod.status?.conditions ?? []).find((c) => c.type === 'DisruptionTarget');
  const phase = pod.status?.phase;
  if (!cond || cond.status !== 'True' || cond.reason === 'TerminationByKubelet' || phase === 'Succeeded' || phase === 'Failed') return undefined;
  const sinceMs = parseRFC3339(cond.lastTransitionTime ?? '', epochMs) ?? nowMs;
  return Math.max(0, STALE_POD_DISRUPTION_TIMEOUT_MS - (nowMs - sinceMs));
}
