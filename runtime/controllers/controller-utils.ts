// Helpers every controller shares, mirroring pkg/controller/controller_utils.go and
// pkg/api/v1/pod/util.go: which pods count, readiness and availability, owner references.
import type { KubeObject, LabelSelector, OwnerReference, Pod } from '../api/index.ts';
import { labelSelectorAsSelector, parseRFC3339 } from '../api/index.ts';

/** IsPodActive: not finished and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** IsPodAvailable: ready for at least minReadySeconds (by the Ready condition's transition time). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const sinceMs = parseRFC3339(ready?.lastTransitionTime ?? '');
  return sinceMs !== undefined && sinceMs + minReadySeconds * 1000 <= nowMs;
}

/** The ownerReference with controller: true, if any (metav1.GetControllerOf). */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

/** metav1.NewControllerRef. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/**
 * Whether labels match a LabelSelector; an invalid selector matches nothing. A frozen selector (an
 * informer's object, shared and never changed) is parsed once: a ReplicaSet's sync asks for each
 * of its pods, and parsing (sorting the keys, building requirements) was most of that.
 */
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  let parsed = selector !== undefined ? parsedSelectors.get(selector) : undefined;
  if (parsed === undefined) {
    parsed = labelSelectorAsSelector(selector);
    if (selector !== undefined && Object.isFrozen(selector)) parsedSelectors.set(selector, parsed);
  }
  return parsed.ok && parsed.selector.matches(labels ?? {});
}

const parsedSelectors = new WeakMap<LabelSelector, ReturnType<typeof labelSelectorAsSelector>>();

/**
 * Whether labels include every pair of a Service's selector (labels.SelectorFromSet: an empty
 * selector matches everything; the API server validated the pairs when the Service was written).
 */
export function labelsMatchSet(selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>> | undefined): boolean {
  for (const k in selector) if (labels?.[k] !== selector[k]) return false;
  return true;
}

/** A selector parsed once, for matching many pods (an invalid selector matches nothing). */
export function selectorMatcher(selector: LabelSelector | undefined): (labels: Record<string, string> | undefined) => boolean {
  const parsed = labelSelectorAsSelector(selector);
  if (!parsed.ok) return () => false;
  return (labels) => parsed.selector.matches(labels ?? {});
}

/** controller_utils.go PodControllerUIDIndex: pods by their controller's uid, orphans under one key. */
export const POD_CONTROLLER_UID_INDEX = 'podControllerUID';
export const ORPHAN_POD_INDEX_KEY = '_ORPHAN_POD';

/** The index function of AddPodControllerUIDIndexer. */
export function podControllerUIDIndexFunc(pod: Pod): string[] {
  return [controllerOf(pod)?.uid ?? ORPHAN_POD_INDEX_KEY];
}

interface IndexablePodInformer {
  hasIndex(name: string): boolean;
  addIndexers(indexers: Record<string, (pod: Pod) => readonly string[]>): void;
  lister: { byIndex(indexName: string, value: string): Pod[] };
}

/** AddPodControllerUIDIndexer: adds the index to a shared pod informer unless a controller already did. */
export function addPodControllerUIDIndexer(pods: IndexablePodInformer): void {
  if (!pods.hasIndex(POD_CONTROLLER_UID_INDEX)) pods.addIndexers({ [POD_CONTROLLER_UID_INDEX]: podControllerUIDIndexFunc });
}

/**
 * FilterPodsByOwner: the pods whose controller is `owner` (double-checked, as the index may lag an
 * update), then, if asked, the orphans of the owner's namespace that it might adopt. Replaces a
 * scan of every pod in the namespace on each sync.
 */
export function filterPodsByOwner(pods: IndexablePodInformer, owner: KubeObject, ownerKind: string, includeOrphans: boolean): Pod[] {
  const uid = owner.metadata.uid ?? '';
  const namespace = owner.metadata.namespace ?? '';
  const result = pods.lister.byIndex(POD_CONTROLLER_UID_INDEX, uid).filter((pod) => {
    const ref = controllerOf(pod);
    return ref !== undefined && ref.kind === ownerKind && ref.uid === uid;
  });
  if (includeOrphans) {
    for (const pod of pods.lister.byIndex(POD_CONTROLLER_UID_INDEX, ORPHAN_POD_INDEX_KEY)) {
      if ((pod.metadata.namespace ?? '') === namespace) result.push(pod);
    }
  }
  return result;
}

/** An empty selector would select every pod: controllers refuse to act on it. */
export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return Object.keys(selector?.matchLabels ?? {}).length + (selector?.matchExpressions ?? []).length === 0;
}

/** namespace/name, the work-queue key. */
export function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}
