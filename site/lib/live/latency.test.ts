import { describe, expect, it } from 'vitest';
import type { RequestDurations } from '../../../runtime/index.ts';
import { formatBound, formatRate, formatSeconds, histogramQuantile, LatencyHistory } from './latency.ts';

const BOUNDS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

/** Cumulative counts from per-bucket counts (the rest of the buckets repeat the last). */
function cumulative(perBucket: number[]): number[] {
  let n = 0;
  return BOUNDS.map((_, i) => (n += perBucket[i] ?? 0));
}

describe('histogramQuantile (PromQL bucketQuantile)', () => {
  it('interpolates inside the bucket where the rank falls, from 0 in the first bucket', () => {
    // 100 requests: 50 at most 5 ms, 40 in (5, 25] ms, 10 in (25, 50] ms
    const c = cumulative([50, 40, 10]);
    expect(histogramQuantile(0.5, BOUNDS, c, 100)).toBeCloseTo(0.005); // rank 50: the first bucket's top
    expect(histogramQuantile(0.25, BOUNDS, c, 100)).toBeCloseTo(0.0025); // rank 25 of 50 in [0, 5 ms]
    expect(histogramQuantile(0.7, BOUNDS, c, 100)).toBeCloseTo(0.005 + 0.02 * (20 / 40));
    expect(histogramQuantile(0.99, BOUNDS, c, 100)).toBeCloseTo(0.025 + 0.025 * (9 / 10));
    expect(histogramQuantile(1, BOUNDS, c, 100)).toBeCloseTo(0.05);
  });

  it('gives the highest finite bound for a rank in the +Inf bucket, NaN with no requests, ±Inf outside [0, 1]', () => {
    const c = cumulative([1]); // 1 request at most 5 ms, 1 longer than 60 s
    expect(histogramQuantile(0.99, BOUNDS, c, 2)).toBe(60);
    expect(histogramQuantile(0.5, BOUNDS, cumulative([]), 0)).toBeNaN();
    expect(histogramQuantile(-0.1, BOUNDS, c, 2)).toBe(-Infinity);
    expect(histogramQuantile(1.1, BOUNDS, c, 2)).toBe(Infinity);
  });

  it('skips empty buckets: the rank lands in the first bucket that reaches it', () => {
    const c = cumulative([0, 0, 0, 10]); // all 10 in (50, 100] ms
    expect(histogramQuantile(0.5, BOUNDS, c, 10)).toBeCloseTo(0.075);
  });

  it('takes slightly non-monotonic buckets (rates of counters) as monotonic', () => {
    const c = cumulative([10, 5]);
    c[2] = 14.999999;
    expect(histogramQuantile(0.99, BOUNDS, c, 15)).toBeCloseTo(0.005 + 0.02 * (14.85 - 10) / 5);
  });
});

function durations(servers: Record<string, Record<string, number[]>>): RequestDurations {
  const byServer = Object.entries(servers).map(([name, verbs]) => ({
    name,
    byVerb: Object.entries(verbs).map(([verb, per]) => {
      const buckets = cumulative(per);
      return { verb, buckets, count: buckets.at(-1)!, sumSeconds: 0.001 * buckets.at(-1)! };
    }),
  }));
  const total = new Map<string, { verb: string; buckets: number[]; count: number; sumSeconds: number }>();
  for (const s of byServer) for (const v of s.byVerb) {
    const t = total.get(v.verb) ?? { verb: v.verb, buckets: BOUNDS.map(() => 0), count: 0, sumSeconds: 0 };
    v.buckets.forEach((x, i) => (t.buckets[i]! += x));
    t.count += v.count;
    t.sumSeconds += v.sumSeconds;
    total.set(v.verb, t);
  }
  return { bucketsSeconds: BOUNDS, byVerb: [...total.values()], servers: byServer };
}

describe('LatencyHistory', () => {
  it('counts the requests in a window and their rate, summed over replicas', () => {
    const h = new LatencyHistory();
    h.add(0, durations({ a: { GET: [10] }, b: { GET: [5] } }));
    h.add(10_000, durations({ a: { GET: [30], POST: [0, 4] }, b: { GET: [25] } }));
    const w = h.window(0);
    expect(w.find((v) => v.verb === 'GET')!.count).toBe(40);
    expect(w.find((v) => v.verb === 'POST')).toMatchObject({ count: 4, buckets: cumulative([0, 4]) });
    expect(h.rate(10_000)).toBeCloseTo(4.4);
    // half the window: half the requests, as increase() interpolates
    expect(h.window(5_000).find((v) => v.verb === 'GET')!.count).toBeCloseTo(20);
  });

  it('takes a replica whose counters went down as restarted (a counter reset), not as negative requests', () => {
    const h = new LatencyHistory();
    h.add(0, durations({ a: { GET: [100] }, b: { GET: [100] } }));
    h.add(1_000, durations({ a: { GET: [110] }, b: { GET: [3] } }));
    expect(h.window(0).find((v) => v.verb === 'GET')!.count).toBe(13);
  });

  it('shows a burst as a spike in the rate bins', () => {
    const h = new LatencyHistory();
    let n = 0;
    for (let t = 0; t <= 60_000; t += 1_000) {
      n += t >= 40_000 && t < 44_000 ? 100 : 2;
      h.add(t, durations({ a: { GET: [n] } }));
    }
    const bins = h.rates(60_000, 30);
    expect(bins).toHaveLength(30);
    const peak = bins.indexOf(Math.max(...bins));
    expect(peak).toBeGreaterThanOrEqual(19);
    expect(peak).toBeLessThanOrEqual(21);
    expect(Math.max(...bins)).toBeGreaterThan(40);
    expect(bins[0]).toBeCloseTo(2);
  });

  it('starts again after a rewind (a time before the last sample)', () => {
    const h = new LatencyHistory();
    h.add(5_000, durations({ a: { GET: [10] } }));
    h.add(9_000, durations({ a: { GET: [50] } }));
    h.add(6_000, durations({ a: { GET: [20] } }));
    expect(h.firstMs).toBe(6_000);
    expect(h.window(0)).toEqual([]);
  });

  it('keeps samples at most every half second of simulated time, and only as far back as asked', () => {
    const h = new LatencyHistory(10_000);
    for (let t = 0; t <= 60_000; t += 50) h.add(t, durations({ a: { GET: [t / 50] } }));
    expect(h.firstMs).toBeGreaterThanOrEqual(49_000);
    expect((h as unknown as { samples: unknown[] }).samples.length).toBeLessThanOrEqual(24);
    expect(h.window(50_000).find((v) => v.verb === 'GET')!.count).toBeCloseTo(200);
  });
});

describe('formatting', () => {
  it('prints latencies, bounds and rates for people', () => {
    expect(formatSeconds(0.0041)).toBe('4.1 ms');
    expect(formatSeconds(0.18)).toBe('180 ms');
    expect(formatSeconds(1.25)).toBe('1.25 s');
    expect(formatSeconds(NaN)).toBe('–');
    expect(formatBound(0.005)).toBe('5ms');
    expect(formatBound(1.25)).toBe('1.25s');
    expect(formatRate(0)).toBe('0');
    expect(formatRate(0.44)).toBe('0.4');
    expect(formatRate(0.021)).toBe('0.02');
    expect(formatRate(0.001)).toBe('<0.01');
    expect(formatRate(12.4)).toBe('12');
    expect(formatRate(1234)).toBe('1.2k');
    expect(formatRate(1000)).toBe('1k');
  });
});
