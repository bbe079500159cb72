// The describe output builder: kubectl's PrefixWriter (levels of two-space indentation) feeding
// one tabwriter with padding 2 (staging/src/k8s.io/kubectl/pkg/describe/describe.go).
import { parseRFC3339 } from '../../../api/index.ts';
import { humanDuration } from '../duration.ts';
import { alignTabs, DESCRIBE_TABWRITER } from '../printers/tabwriter.ts';

export const LEVEL_0 = 0;
export const LEVEL_1 = 1;
export const LEVEL_2 = 2;
export const LEVEL_3 = 3;

export class PrefixWriter {
  private text = '';

  write(level: number, text: string): void {
    this.text += '  '.repeat(level) + text;
  }

  toString(): string {
    return alignTabs(this.text, DESCRIBE_TABWRITER);
  }
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Go's time.RFC1123Z in UTC: "Thu, 01 Jan 2026 00:00:05 +0000". */
export function rfc1123z(timestamp: string | null | undefined): string {
  if (!timestamp) return '<unknown>';
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})/.exec(timestamp);
  if (!m || parseRFC3339(timestamp) === undefined) return timestamp;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const weekday = DAYS[dayOfWeek(year, month, day)]!;
  return `${weekday}, ${m[3]} ${MONTHS[month - 1]} ${m[1]} ${m[4]} +0000`;
}

/** Sakamoto's day-of-week (0 = Sunday). */
function dayOfWeek(year: number, month: number, day: number): number {
  const t = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
  const y = month < 3 ? year - 1 : year;
  return (
    (y + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) + t[month - 1]! + day) % 7
  );
}

/** describe's translateTimestampSince ("<unknown>" for unset). */
export function since(timestamp: string | null | undefined, nowMs: number): string {
  if (!timestamp) return '<unknown>';
  const at = parseRFC3339(timestamp);
  return at === undefined ? '<unknown>' : humanDuration(nowMs - at);
}

const SKIPPED_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration']);
const MAX_ANNOTATION_LEN = 140;

/** printLabelsMultilineWithIndent: "Labels:\ta=b" then "\tc=d" per extra label, "<none>" when empty. */
export function writeLabels(
  w: PrefixWriter,
  title: string,
  labels: Record<string, string> | undefined,
  indent = '',
): void {
  const keys = Object.keys(labels ?? {}).sort();
  w.write(LEVEL_0, `${indent}${title}:\t`);
  if (keys.length === 0) {
    w.write(LEVEL_0, '<none>\n');
    return;
  }
  keys.forEach((k, i) => w.write(LEVEL_0, `${i === 0 ? '' : `${indent}\t`}${k}=${labels![k]}\n`));
}

/** printAnnotationsMultiline: "key: value", long values cut at 140 characters, last-applied skipped. */
export function writeAnnotations(
  w: PrefixWriter,
  title: string,
  annotations: Record<string, string> | undefined,
  indent = '',
): void {
  const keys = Object.keys(annotations ?? {})
    .filter((k) => !SKIPPED_ANNOTATIONS.has(k))
    .sort();
  w.write(LEVEL_0, `${indent}${title}:\t`);
  if (keys.length === 0) {
    w.write(LEVEL_0, '<none>\n');
    return;
  }
  keys.forEach((k, i) => {
    const line = `${k}: ${annotations![k]}`;
    const shown =
      line.length > MAX_ANNOTATION_LEN ? `${line.slice(0, MAX_ANNOTATION_LEN)}...` : line;
    w.write(LEVEL_0, `${i === 0 ? '' : `${indent}\t`}${shown}\n`);
  });
}
