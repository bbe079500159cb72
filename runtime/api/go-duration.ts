// Go's time.Duration as text: what flags read (kubectl --timeout) and what messages print.
// mirrors src/time/format.go (ParseDuration) and src/time/time.go (Duration.String).

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** ParseDuration: "90s", "1m30s", "1.5h", "0"; undefined when Go would refuse it. */
export function parseGoDuration(text: string): number | undefined {
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let totalMs = 0;
  const part = /^([0-9]*(?:\.[0-9]*)?)(ns|us|µs|ms|s|m|h)/;
  while (s.length > 0) {
    const m = part.exec(s);
    if (!m || m[1] === '' || m[1] === '.') return undefined;
    totalMs += Number(m[1]) * UNIT_MS[m[2]!]!;
    s = s.slice(m[0].length);
  }
  return sign * totalMs;
}

/** Go's %v of a float: at most 9 decimals, no trailing zeros. */
const trimmed = (n: number): string => String(Number(n.toFixed(9)));

/**
 * Duration.String: "0s", "750µs", "500ms", "1.69s", "1m30s", "1h0m0s". What kubelet events
 * ("Successfully pulled image ... in 1.69s"), kubectl messages ("global timeout reached: 20s") and
 * etcdctl ("took = 2.5ms") print.
 */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) {
    // under a second Go picks the largest unit that keeps the integer part non-zero
    const ns = Math.round(rest * 1e6);
    if (ns < 1000) return `${sign}${ns}ns`;
    if (ns < 1e6) return `${sign}${trimmed(ns / 1000)}µs`;
    return `${sign}${trimmed(ns / 1e6)}ms`;
  }
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = `${trimmed(rest / 1000)}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}
