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

/** Whether labels match a LabelSelector; an invalid selector matches nothing. */
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  const parsed = labelSelectorAsSelector(selector);
  return parsed.ok && parsed.selector.matches(labels ?? {});
}

/** An empty selector would select every pod: controllers refuse to act on it. */
export function isEmptySelector(selector: LabelSelector | undefined): boolean {
  return Object.keys(selector?.matchLabels ?? {}).length + (selector?.matchExpressions ?? []).length === 0;
}

/** namespace/name, the work-queue key. */
export function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}
