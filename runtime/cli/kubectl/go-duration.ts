// Go's time.Duration as kubectl's flags read and its messages print it.
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

/** Duration.String for whole milliseconds: "0s", "500ms", "30s", "1m30s", "1h0m0s", "1.5s". */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = `${Math.floor(rest / 1000)}${rest % 1000 === 0 ? '' : `.${String(rest % 1000).padStart(3, '0').replace(/0+$/, '')}`}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}
