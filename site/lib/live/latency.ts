// The latency widget's arithmetic: apiserver_request_duration_seconds samples (runtime
// RequestDurations) kept over simulated time, so the widget can show what Prometheus would:
// `histogram_quantile(q, sum by (le, verb) (rate(..._bucket[window])))` and requests per second.
// Counters are made monotonic per replica first (a restarted replica starts from zero: that is a
// counter reset, as Prometheus' rate() treats it), then summed. Pure TypeScript, no DOM.
import type { RequestDurations } from '../../../runtime/index.ts';

/**
 * PromQL's histogram_quantile over classic buckets (promql/quantile.go bucketQuantile): the bucket
 * where rank q x count falls, then linear interpolation inside it (from 0 for the first bucket);
 * a rank in the +Inf bucket gives the highest finite upper bound. `cumulative[i]` counts the
 * observations at most `bounds[i]`; `count` is the +Inf bucket. NaN when there is no observation.
 */
export function histogramQuantile(q: number, bounds: readonly number[], cumulative: readonly number[], count: number): number {
  if (Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  // ensureMonotonic: rates of counters can come out a hair non-monotonic; the quantile needs them not to
  const counts: number[] = [];
  let max = 0;
  for (let i = 0; i < bounds.length; i++) counts.push((max = Math.max(max, cumulative[i] ?? 0)));
  const observations = Math.max(max, count);
  counts.push(observations);
  if (bounds.length === 0 || observations <= 0) return NaN;
  let rank = q * observations;
  let b = counts.length - 1;
  for (let i = 0; i < counts.length - 1; i++) {
    if (counts[i]! >= rank) {
      b = i;
      break;
    }
  }
  if (b === counts.length - 1) return bounds[bounds.length - 1]!;
  if (b === 0 && bounds[0]! <= 0) return bounds[0]!;
  let start = 0;
  let inBucket = counts[b]!;
  if (b > 0) {
    start = bounds[b - 1]!;
    inBucket -= counts[b - 1]!;
    rank -= counts[b - 1]!;
  }
  return start + (bounds[b]! - start) * (rank / inBucket);
}

/** One verb's histogram over some span: cumulative buckets, count and sum (fractional after interpolation). */
export interface VerbWindow {
  verb: string;
  buckets: number[];
  count: number;
  sumSeconds: number;
}

interface Sample {
  timeMs: number;
  /** verb -> [buckets..., count, sum], monotonic since the history began. */
  acc: Map<string, number[]>;
  /** All verbs' requests, monotonic. */
  total: number;
}

/** Samples closer than this in simulated time replace the newest one rather than adding another. */
const SAMPLE_SPACING_MS = 500;

export class LatencyHistory {
  private samples: Sample[] = [];
  /** Each replica's raw counters at the last sample, to tell a reset from growth. */
  private last = new Map<string, Map<string, number[]>>();
  private acc = new Map<string, number[]>();
  private total = 0;
  bounds: number[] = [];

  /** `keepMs`: how far back windows and the rate chart may look. */
  constructor(private readonly keepMs = 5 * 60_000) {}

  reset(): void {
    this.samples = [];
    this.last = new Map();
    this.acc = new Map();
    this.total = 0;
  }

  get firstMs(): number | undefined {
    return this.samples[0]?.timeMs;
  }

  get lastMs(): number | undefined {
    return this.samples.at(-1)?.timeMs;
  }

  /** Adds what the replicas' counters say at `timeMs` (a time before the last sample resets the history: a rewind). */
  add(timeMs: number, d: RequestDurations): void {
    const lastMs = this.lastMs;
    if (lastMs !== undefined && timeMs < lastMs) this.reset();
    this.bounds = d.bucketsSeconds;
    const width = d.bucketsSeconds.length + 2;
    for (const server of d.servers) {
      const before = this.last.get(server.name) ?? new Map<string, number[]>();
      const now = new Map<string, number[]>();
      for (const v of server.byVerb) {
        const raw = [...v.buckets, v.count, v.sumSeconds];
        now.set(v.verb, raw);
        const prev = before.get(v.verb);
        const reset = prev !== undefined && v.count < prev[width - 2]!;
        let acc = this.acc.get(v.verb);
        if (!acc) this.acc.set(v.verb, (acc = new Array<number>(width).fill(0)));
        for (let i = 0; i < width; i++) acc[i]! += prev && !reset ? Math.max(0, raw[i]! - prev[i]!) : raw[i]!;
        this.total += prev && !reset ? Math.max(0, v.count - prev[width - 2]!) : v.count;
      }
      this.last.set(server.name, now);
    }
    const sample: Sample = { timeMs, acc: new Map([...this.acc].map(([k, a]) => [k, [...a]])), total: this.total };
    const newest = this.samples.at(-1);
    if (newest && this.samples.length > 1 && timeMs - this.samples.at(-2)!.timeMs < SAMPLE_SPACING_MS) this.samples[this.samples.length - 1] = sample;
    else if (newest && newest.timeMs === timeMs) this.samples[this.samples.length - 1] = sample;
    else this.samples.push(sample);
    // keep one sample older than keepMs, for interpolation at the window's start
    while (this.samples.length > 2 && this.samples[1]!.timeMs < timeMs - this.keepMs) this.samples.shift();
  }

  /** The monotonic counters at time t, interpolated linearly between samples (clamped to the first and last). */
  private at<T>(t: number, read: (s: Sample) => T, mix: (a: T, b: T, f: number) => T): T | undefined {
    const s = this.samples;
    if (s.length === 0) return undefined;
    if (t <= s[0]!.timeMs) return read(s[0]!);
    if (t >= s.at(-1)!.timeMs) return read(s.at(-1)!);
    let lo = 0;
    let hi = s.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (s[mid]!.timeMs <= t) lo = mid;
      else hi = mid;
    }
    const a = s[lo]!;
    const b = s[hi]!;
    return mix(read(a), read(b), (t - a.timeMs) / (b.timeMs - a.timeMs));
  }

  private totalAt(t: number): number {
    return this.at(t, (s) => s.total, (a, b, f) => a + (b - a) * f) ?? 0;
  }

  /**
   * Each verb's requests between `fromMs` and the last sample (as increase(...[window]) would count
   * them), verbs that saw none left out. Before the first sample nothing is known: a window reaching
   * further back starts there.
   */
  window(fromMs: number): VerbWindow[] {
    const newest = this.samples.at(-1);
    if (!newest) return [];
    const width = this.bounds.length + 2;
    const zero = new Array<number>(width).fill(0);
    const out: VerbWindow[] = [];
    for (const [verb, end] of newest.acc) {
      const start = this.at(fromMs, (s) => s.acc.get(verb) ?? zero, (a, b, f) => a.map((x, i) => x + (b[i]! - x) * f))!;
      const diff = end.map((x, i) => Math.max(0, x - start[i]!));
      if (diff[width - 2]! <= 0) continue;
      out.push({ verb, buckets: diff.slice(0, width - 2), count: diff[width - 2]!, sumSeconds: diff[width - 1]! });
    }
    return out;
  }

  /** Requests per second of all verbs in `bins` equal slices of the `spanMs` before the last sample (oldest first). */
  rates(spanMs: number, bins: number): number[] {
    const end = this.lastMs;
    if (end === undefined) return new Array<number>(bins).fill(0);
    const binMs = spanMs / bins;
    const out: number[] = [];
    for (let i = 0; i < bins; i++) {
      const from = end - spanMs + i * binMs;
      out.push(Math.max(0, this.totalAt(from + binMs) - this.totalAt(from)) / (binMs / 1000));
    }
    return out;
  }

  /** Requests per second over the `spanMs` before the last sample (or since the first, if that is shorter). */
  rate(spanMs: number): number {
    const end = this.lastMs;
    const first = this.firstMs;
    if (end === undefined || first === undefined) return 0;
    const from = Math.max(first, end - spanMs);
    return end > from ? (this.totalAt(end) - this.totalAt(from)) / ((end - from) / 1000) : 0;
  }
}

/** "4.1 ms", "180 ms", "1.25 s": a latency for people. */
export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '–';
  if (s < 1) {
    const ms = s * 1000;
    return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  }
  return `${Number(s.toFixed(2))} s`;
}

/** A bucket's upper bound as a short label: "5ms", "100ms", "1.25s". */
export function formatBound(s: number): string {
  return s < 1 ? `${Math.round(s * 1000)}ms` : `${s}s`;
}

/** Requests per second, short: "0", "<0.01", "0.02", "0.4", "12", "1.2k". */
export function formatRate(r: number): string {
  if (r >= 1000) return `${Number((r / 1000).toFixed(1))}k`;
  if (r >= 10) return String(Math.round(r));
  if (r <= 0) return '0';
  if (r < 0.01) return '<0.01';
  return r < 0.1 ? String(Number(r.toFixed(2))) : r.toFixed(1);
}
