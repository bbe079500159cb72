// What the eviction API and the disruption controller share about PodDisruptionBudgets.
// mirrors staging/src/k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go and
// staging/src/k8s.io/apimachinery/pkg/api/meta/conditions.go (SetStatusCondition).
import { labelSelectorAsSelector } from './labels/selector.ts';
import type { Condition } from './types/meta.ts';
import type { PodDisruptionBudget } from './types/policy.ts';
import { rfc3339 } from './types/time.ts';

export const DISRUPTION_ALLOWED_CONDITION = 'DisruptionAllowed';
export const SUFFICIENT_PODS_REASON = 'SufficientPods';
export const INSUFFICIENT_PODS_REASON = 'InsufficientPods';
export const SYNC_FAILED_REASON = 'SyncFailed';

/**
 * meta.SetStatusCondition: adds the condition or updates the one of its type; lastTransitionTime
 * moves only when the status changes (and is `nowMs` for a new condition).
 */
export function setStatusCondition(conditions: Condition[], next: Omit<Condition, 'lastTransitionTime'>, nowMs: number): Condition[] {
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i < 0) return [...conditions, { ...next, lastTransitionTime: rfc3339(nowMs) }];
  const cur = conditions[i]!;
  const updated: Condition = {
    ...cur,
    status: next.status,
    reason: next.reason,
    message: next.message,
    lastTransitionTime: cur.status === next.status ? cur.lastTransitionTime : rfc3339(nowMs),
  };
  if (next.observedGeneration !== undefined) updated.observedGeneration = next.observedGeneration;
  return conditions.map((c, j) => (j === i ? updated : c));
}

/**
 * UpdateDisruptionAllowedCondition: DisruptionAllowed True/SufficientPods while disruptionsAllowed
 * is positive, False/InsufficientPods otherwise, at the status's observedGeneration.
 */
export function updateDisruptionAllowedCondition(pdb: PodDisruptionBudget, nowMs: number): void {
  const status = pdb.status!;
  const allowed = status.disruptionsAllowed > 0;
  const condition: Omit<Condition, 'lastTransitionTime'> = {
    type: DISRUPTION_ALLOWED_CONDITION,
    status: allowed ? 'True' : 'False',
    reason: allowed ? SUFFICIENT_PODS_REASON : INSUFFICIENT_PODS_REASON,
    message: '',
  };
  if (status.observedGeneration !== undefined) condition.observedGeneration = status.observedGeneration;
  status.conditions = setStatusCondition(status.conditions ?? [], condition, nowMs);
}

/**
 * Whether a budget guards pods with these labels, as the eviction API (getPodDisruptionBudgets) and
 * preemption (filterPodsWithPDBViolation) decide it: a nil, empty or invalid selector guards
 * nothing (the disruption controller instead counts every pod for an empty one). The selector is
 * parsed once; the namespace is the caller's to check.
 */
export function budgetGuards(pdb: PodDisruptionBudget): (labels: Readonly<Record<string, string>>) => boolean {
  const parsed = labelSelectorAsSelector(pdb.spec.selector);
  if (!parsed.ok || parsed.selector.empty()) return () => false;
  const selector = parsed.selector;
  return (labels) => selector.matches(labels);
}
