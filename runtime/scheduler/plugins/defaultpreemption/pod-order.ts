// Which victim matters more, and when victims started. mirrors pkg/scheduler/util/utils.go
// (GetPodStartTime, MoreImportantPod, GetEarliestPodStartTime). Times are simulated milliseconds;
// a pod that has not started yet counts as starting now (upstream's time.Now()), read from the
// kernel's clock through the caller, never from the wall clock.
import { parseRFC3339 } from '../../../api/index.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';

/** GetPodStartTime: status.startTime, or now when the pod has not started. */
export function podStartTimeMs(p: SchedPodInfo, nowMs: number): number {
  const text = p.pod.status?.startTime;
  const ms = text ? parseRFC3339(text) : undefined;
  return ms ?? nowMs;
}

/** MoreImportantPod: higher priority first; on equal priority, the pod that started earlier. */
export function moreImportantPod(a: SchedPodInfo, b: SchedPodInfo, nowMs: number): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  return podStartTimeMs(a, nowMs) < podStartTimeMs(b, nowMs);
}

/**
 * A comparator sorting the most important pods first. Array.prototype.sort is stable, so pods
 * that tie keep their order (upstream's sort.Slice is not stable: their order is unspecified).
 */
export function byImportance(nowMs: number): (a: SchedPodInfo, b: SchedPodInfo) => number {
  return (a, b) => (moreImportantPod(a, b, nowMs) ? -1 : moreImportantPod(b, a, nowMs) ? 1 : 0);
}

/**
 * GetEarliestPodStartTime: the earliest start time among the victims of the highest priority;
 * undefined for no victims (upstream logs "should not reach here" and returns nil).
 */
export function earliestStartOfHighestPriority(
  victims: readonly SchedPodInfo[],
  nowMs: number,
): number | undefined {
  const first = victims[0];
  if (!first) return undefined;
  let earliestMs = podStartTimeMs(first, nowMs);
  let maxPriority = first.priority;
  for (const p of victims) {
    if (p.priority === maxPriority) earliestMs = Math.min(earliestMs, podStartTimeMs(p, nowMs));
    else if (p.priority > maxPriority) {
      maxPriority = p.priority;
      earliestMs = podStartTimeMs(p, nowMs);
    }
  }
  return earliestMs;
}
