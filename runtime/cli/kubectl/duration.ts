// Ages as kubectl prints them ("5m30s", "3h5m", "2d3h", "367d", "2y1d").
// mirrors staging/src/k8s.io/apimachinery/pkg/util/duration/duration.go (HumanDuration,
// ShortHumanDuration). Go's int(d.Seconds()) truncates toward zero, hence Math.trunc.
import { parseRFC3339 } from '../../api/index.ts';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/** A short age with ~2-3 significant figures, used by every AGE column. */
export function humanDuration(durationMs: number): string {
  const seconds = Math.trunc(durationMs / SECOND_MS);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(durationMs / MINUTE_MS);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(durationMs / HOUR_MS);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** The one-unit form ("59s", "1m", "23h", "364d", "2y"). */
export function shortHumanDuration(durationMs: number): string {
  const seconds = Math.trunc(durationMs / SECOND_MS);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.trunc(durationMs / MINUTE_MS);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.trunc(durationMs / HOUR_MS);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${Math.trunc(hours / 24)}d`;
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/**
 * The age of a timestamp at simulated time nowMs, or "<unknown>" when the timestamp is unset,
 * as pkg/printers/internalversion translateTimestampSince does.
 */
export function translateTimestampSince(
  timestamp: string | null | undefined,
  nowMs: number,
): string {
  if (!timestamp) return '<unknown>';
  const atMs = parseRFC3339(timestamp);
  if (atMs === undefined) return '<unknown>';
  return humanDuration(nowMs - atMs);
}
