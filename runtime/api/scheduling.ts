// The scheduling group's constants and the two system priority classes every API server creates.
// mirrors pkg/apis/scheduling/types.go (HighestUserDefinablePriority, SystemCriticalPriority,
// SystemPriorityClassPrefix, the class names) and pkg/apis/scheduling/v1/helpers.go
// (SystemPriorityClasses, IsKnownSystemPriorityClass).
import type { PriorityClass } from './types/scheduling.ts';

/** The highest value a user-defined PriorityClass may have. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** The base of the system classes: twice the highest user value. */
export const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
/** A pod that names no class gets this when no class is globalDefault. */
export const DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS = 0;
/** Names with this prefix are reserved for the system classes. */
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
export const SYSTEM_CLUSTER_CRITICAL = 'system-cluster-critical';
export const SYSTEM_NODE_CRITICAL = 'system-node-critical';
export const PREEMPT_LOWER_PRIORITY = 'PreemptLowerPriority';
export const PREEMPT_NEVER = 'Never';

const SYSTEM_CLASSES: readonly { name: string; value: number; description: string }[] = Object.freeze([
  {
    name: SYSTEM_NODE_CRITICAL,
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: SYSTEM_CLUSTER_CRITICAL,
    value: SYSTEM_CRITICAL_PRIORITY,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
]);

/** Fresh copies of the system classes, as the post-start hook creates them (globalDefault false). */
export function systemPriorityClasses(): PriorityClass[] {
  return SYSTEM_CLASSES.map((c) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: c.name },
    value: c.value,
    description: c.description,
    preemptionPolicy: PREEMPT_LOWER_PRIORITY,
  }));
}

export const isSystemPriorityClassName = (name: string): boolean =>
  SYSTEM_CLASSES.some((c) => c.name === name);

/**
 * IsKnownSystemPriorityClass: undefined when `name` is a system class with its exact value and
 * globalDefault false, else the reason it is not (the text upstream appends to its Forbidden error).
 */
export function unknownSystemPriorityClassReason(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const known = SYSTEM_CLASSES.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${known.name} PriorityClass must be ${known.value}`;
  if (globalDefault) return `globalDefault of ${known.name} PriorityClass must be false`;
  return undefined;
}
