// klog's line format, as kubectl writes its log lines on stderr: "Lmmdd hh:mm:ss.uuuuuu pid file:line] msg"
// (k8s.io/klog/v2 formatHeader), L being I, W, E or F. The time is the simulated clock's (UTC).
import { rfc3339Micro } from '../../api/index.ts';

/** klog's thread id column: kubectl's process id (a fixed one: the simulation has no pids). */
const KUBECTL_PID = 48_213;

export type KlogSeverity = 'I' | 'W' | 'E' | 'F';

/** The "Lmmdd hh:mm:ss.uuuuuu threadid " prefix. */
function klogHeader(nowMs: number, severity: KlogSeverity = 'I'): string {
  // "2026-01-01T00:00:01.200000Z" -> "I0101 00:00:01.200000"
  const [, month, day, clock] = /^\d+-(\d\d)-(\d\d)T([\d:.]+)Z$/.exec(rfc3339Micro(nowMs))!;
  return `${severity}${month}${day} ${clock} ${String(KUBECTL_PID).padStart(7)} `;
}

/** One whole klog line: header, "file:line] ", message, newline. */
export function klogLine(nowMs: number, severity: KlogSeverity, source: string, message: string): string {
  return `${klogHeader(nowMs, severity)}${source}] ${message}\n`;
}
