// The "why Pending?" message. mirrors pkg/scheduler/framework/types.go (FitError.Error,
// NoNodeAvailableMsg): "0/N nodes are available:", then either the PreFilter message or every
// Filter reason counted and sorted as strings (so "10 x" sorts before "2 y", as Go's sort.Strings
// does), each part ending in ".", then the PostFilter (preemption) message.
import type { Status } from './framework/interface.ts';

/** Go's sort.Strings order: by UTF-16 code unit here, identical to bytes for ASCII reasons. */
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function fitErrorMessage(
  numAllNodes: number,
  preFilterMsg: string,
  nodeToStatus: ReadonlyMap<string, Status>,
  postFilterMsg: string,
  /** The status of nodes absent from nodeToStatus (those a PreFilterResult left out); none by default. */
  absentStatus?: Status,
): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (preFilterMsg !== '') {
    msg += ` ${preFilterMsg}.`;
  } else {
    const counts = new Map<string, number>();
    for (const status of nodeToStatus.values()) {
      for (const reason of status.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
    }
    const absent = numAllNodes - nodeToStatus.size;
    if (absentStatus && absent > 0) {
      for (const reason of absentStatus.reasons) counts.set(reason, (counts.get(reason) ?? 0) + absent);
    }
    const parts = [...counts].map(([reason, n]) => `${n} ${reason}`).sort(byCodeUnit);
    if (parts.length > 0) msg += ` ${parts.join(', ')}.`;
  }
  if (postFilterMsg !== '') msg += ` ${postFilterMsg}`;
  return msg;
}
