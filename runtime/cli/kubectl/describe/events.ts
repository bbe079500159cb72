// The Events section every describe ends with.
// mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go DescribeEvents: sorted by last
// timestamp, "x3 over 5m" for repeated events, the source component (or reporting controller).
import type { CoreEvent } from '../../../api/index.ts';
import { parseRFC3339 } from '../../../api/index.ts';
import { LEVEL_0, LEVEL_1, type PrefixWriter, since } from './writer.ts';

/** SortableEvents' eventTime: a series' last observation, else lastTimestamp, else eventTime. */
const lastSeenMs = (e: CoreEvent): number =>
  parseRFC3339(e.series?.lastObservedTime || e.lastTimestamp || e.eventTime || '') ?? Number.NEGATIVE_INFINITY;

export function writeEvents(w: PrefixWriter, events: readonly CoreEvent[], nowMs: number): void {
  if (events.length === 0) {
    w.write(LEVEL_0, 'Events:\t<none>\n');
    return;
  }
  const sorted = [...events].sort((a, b) => lastSeenMs(a) - lastSeenMs(b));
  w.write(LEVEL_0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(LEVEL_1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const first = e.eventTime ? since(e.eventTime, nowMs) : since(e.firstTimestamp, nowMs);
    let interval = first;
    if (e.series)
      interval = `${since(e.series.lastObservedTime, nowMs)} (x${e.series.count} over ${first})`;
    else if ((e.count ?? 0) > 1)
      interval = `${since(e.lastTimestamp, nowMs)} (x${e.count} over ${first})`;
    const source =
      e.source?.component ||
      (e as { reportingController?: string }).reportingController ||
      e.reportingComponent ||
      '';
    w.write(
      LEVEL_1,
      `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${source}\t${(e.message ?? '').trim()}\n`,
    );
  }
}
