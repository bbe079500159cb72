// Table tests for the token bucket, after client-go util/flowcontrol/throttle_test.go (burst,
// refill at QPS, waits) and golang.org/x/time/rate's reservation arithmetic; and the throttled log.
import { describe, expect, it } from 'vitest';
import { ThrottleLog, TokenBucketRateLimiter, goDuration, rateLimiterFor, throttleMessage } from './rate-limiter.ts';

describe('TokenBucketRateLimiter', () => {
  it('lets a full burst through at once, then spaces callers 1/qps apart', () => {
    const l = new TokenBucketRateLimiter(5, 10, 0);
    const waits = Array.from({ length: 14 }, () => l.reserve(0));
    expect(waits).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 200, 400, 600, 800]);
  });

  it.each([
    // qps, burst, [reservation times], expected waits
    { qps: 20, burst: 30, at: Array(32).fill(0), last: [0, 50, 100] },
    { qps: 50, burst: 100, at: Array(102).fill(0), last: [0, 20, 40] },
    { qps: 1, burst: 1, at: [0, 0, 500], last: [0, 1000, 1500] },
  ])('qps $qps burst $burst: the last callers wait $last ms', ({ qps, burst, at, last }) => {
    const l = new TokenBucketRateLimiter(qps, burst, 0);
    const waits = (at as number[]).map((t) => l.reserve(t));
    expect(waits.slice(-3)).toEqual(last);
  });

  it('refills at qps tokens per second, never above burst', () => {
    const l = new TokenBucketRateLimiter(10, 3, 0);
    for (let i = 0; i < 3; i++) l.reserve(0);
    expect(l.available(0)).toBe(0);
    expect(l.available(100)).toBeCloseTo(1, 9);
    expect(l.available(250)).toBeCloseTo(2.5, 9);
    expect(l.available(10_000)).toBe(3);
  });

  it('serves waiting callers in the order they asked (FIFO), each a later turn', () => {
    const l = new TokenBucketRateLimiter(4, 2, 0);
    const due = [0, 10, 20, 30, 40, 50].map((t) => t + l.reserve(t));
    // the third caller is due when the first refilled token exists (250 ms), then every 250 ms
    expect(due).toEqual([0, 10, 250, 500, 750, 1000]);
    expect([...due].sort((a, b) => a - b)).toEqual(due);
  });

  it('owes tokens to waiting callers: a quiet spell first pays the debt back', () => {
    const l = new TokenBucketRateLimiter(10, 2, 0);
    for (let i = 0; i < 5; i++) l.reserve(0); // 2 free, 3 owed: the bucket is at -3
    expect(l.available(0)).toBe(-3);
    expect(l.reserve(500)).toBe(0); // 5 tokens accrued: -3 + 5 = 2, take one
    expect(l.reserve(500)).toBe(0);
    expect(l.reserve(500)).toBe(100);
  });

  it('TryAccept takes a token only when one is there', () => {
    const l = new TokenBucketRateLimiter(2, 1, 0);
    expect(l.tryAccept(0)).toBe(true);
    expect(l.tryAccept(0)).toBe(false);
    expect(l.tryAccept(499)).toBe(false);
    expect(l.tryAccept(500)).toBe(true);
  });

  it('rounds a fractional wait up to the clock\'s whole ms, without float noise', () => {
    const l = new TokenBucketRateLimiter(3, 1, 0);
    expect([l.reserve(0), l.reserve(0), l.reserve(0)]).toEqual([0, 334, 667]);
    const five = new TokenBucketRateLimiter(5, 1, 0);
    five.reserve(0);
    expect(five.reserve(160)).toBe(40);
  });

  it('refuses a bucket that can never hand out a token', () => {
    expect(() => new TokenBucketRateLimiter(5, 0, 0)).toThrow(/at least 1 token/);
    expect(() => new TokenBucketRateLimiter(0, 10, 0)).toThrow(/qps > 0/);
  });

  it.each([
    { limits: undefined, limited: false },
    { limits: { qps: 0, burst: 10 }, limited: false },
    { limits: { qps: -1, burst: 10 }, limited: false },
    { limits: { qps: 5, burst: 10 }, limited: true },
  ])('rateLimiterFor($limits) limits: $limited (qps <= 0 disables, as client-go QPS -1)', ({ limits, limited }) => {
    expect(rateLimiterFor(limits, 0) !== undefined).toBe(limited);
  });
});

describe('ThrottleLog', () => {
  const url = 'https://192.168.49.2:8443/api/v1/namespaces/default/pods';

  it('at -v=0 logs a wait over 1 s, at most once per 10 s', () => {
    const lines: string[] = [];
    const log = new ThrottleLog((l) => lines.push(l));
    log.waited(1000, 1000, 'POST', url); // not over 1 s
    log.waited(2000, 1200, 'POST', url);
    log.waited(5000, 3000, 'POST', url); // within 10 s of the last line
    log.waited(12_000, 1100, 'GET', url);
    expect(lines).toEqual([throttleMessage(1200, 'POST', url), throttleMessage(1100, 'GET', url)]);
  });

  it('at -v=3 logs every wait over 50 ms, and the long ones again through the throttled logger', () => {
    const lines: string[] = [];
    const log = new ThrottleLog((l) => lines.push(l), 3);
    log.waited(0, 50, 'GET', url);
    log.waited(100, 51, 'GET', url);
    log.waited(2000, 1500, 'GET', url);
    log.waited(2500, 1500, 'GET', url); // the -v=2 setting allows one line a second
    expect(lines.length).toBe(4);
  });

  it('writes client-go\'s structured line', () => {
    expect(throttleMessage(1200, 'POST', url)).toBe(
      `"Waited before sending request" delay="1.2s" reason="client-side throttling, not priority and fairness" verb="POST" URL="${url}"`,
    );
  });
});

describe('goDuration (Go time.Duration String)', () => {
  it.each([
    [0, '0s'], [1, '1ms'], [200, '200ms'], [1000, '1s'], [1200, '1.2s'], [1234, '1.234s'],
    [60_000, '1m0s'], [123_500, '2m3.5s'], [3_600_000, '1h0m0s'],
  ])('%i ms is %s', (ms, text) => {
    expect(goDuration(ms)).toBe(text);
  });
});
