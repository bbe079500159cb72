// mirrors pkg/scheduler/framework/plugins/queuesort/priority_sort.go: higher priority first, then
// the earlier queue timestamp.
export const NAME = 'PrioritySort';

export interface QueuedPodKey {
  priority: number;
  timestampMs: number;
}

export function prioritySortLess(a: QueuedPodKey, b: QueuedPodKey): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.timestampMs < b.timestampMs);
}
