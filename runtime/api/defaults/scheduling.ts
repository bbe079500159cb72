// PriorityClass defaulting.
// mirrors pkg/apis/scheduling/v1/defaults.go (SetDefaults_PriorityClass).
import { PREEMPT_LOWER_PRIORITY } from '../scheduling.ts';
import type { PriorityClass } from '../types/scheduling.ts';

/** preemptionPolicy defaults to PreemptLowerPriority. */
export function defaultPriorityClass(pc: PriorityClass): void {
  if (typeof pc !== 'object' || pc === null) return;
  pc.preemptionPolicy ??= PREEMPT_LOWER_PRIORITY;
}
