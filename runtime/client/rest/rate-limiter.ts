// client-go's client-side rate limiting, on the simulated clock.
// mirrors k8s.io/client-go/util/flowcontrol/throttle.go NewTokenBucketRateLimiter, which wraps
// golang.org/x/time/rate: a bucket of `burst` tokens, full at the start, refilled at `qps` tokens
// per second. Wait() reserves a token at once and sleeps until it is due, so a token taken before
// it exists makes the bucket go below zero: each later caller is told to wait longer, and callers
// are served in the order they asked (FIFO), whatever their timers' order.
// And the log line of k8s.io/client-go/rest/request.go tryThrottleWithInfo: a wait over
// longThrottleLatency (50 ms) is logged at -v=3, a wait over extraLongThrottleLatency (1 s) through
// globalThrottledLogger (at most once a second at -v=2, once per 10 s at -v=0), per process.

/** A client's QPS and burst (rest.Config QPS / Burst). */
export interface ClientRateLimits {
  /** Tokens per second; <= 0 disables limiting (client-go: QPS -1, no rate limiter). */
  qps: number;
  /** Bucket size: how many requests may go at once after a quiet spell (at least 1 when limited). */
  burst: number;
}

export class TokenBucketRateLimiter {
  /** Tokens in the bucket; below zero, tokens already promised to waiting callers. */
  private tokens: number;
  private lastMs: number;

  constructor(readonly qps: number, readonly burst: number, nowMs: number) {
    if (!(qps > 0) || !Number.isFinite(qps)) throw new Error(`invariant violated: a token bucket refills at a finite qps > 0 (got ${qps})`);
    if (!Number.isInteger(burst) || burst < 1) throw new Error(`invariant violated: a token bucket holds at least 1 token (got burst ${burst})`);
    this.tokens = burst;
    this.lastMs = nowMs;
  }

  /**
   * Takes a token (rate.Limiter.Wait's reservation): returns how many ms the caller must wait
   * before sending, 0 when a token was in the bucket. Rounded up to the clock's whole ms.
   */
  reserve(nowMs: number): number {
    this.advance(nowMs);
    this.tokens -= 1;
    if (this.tokens >= 0) return 0;
    // tiny float error must not add a whole ms (0.2 tokens at 5 qps is exactly 40 ms)
    return Math.ceil((-this.tokens * 1000) / this.qps - 1e-9);
  }

  /** flowcontrol's TryAccept: takes a token only if one is there now. */
  tryAccept(nowMs: number): boolean {
    this.advance(nowMs);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Tokens available at nowMs (negative: that many are owed to waiting callers). */
  available(nowMs: number): number {
    this.advance(nowMs);
    return this.tokens;
  }

  /** rate.Limiter.advance: tokens accrue for the time since the last reservation, up to burst. */
  private advance(nowMs: number): void {
    const elapsedMs = nowMs - this.lastMs;
    if (elapsedMs <= 0) return;
    this.tokens = Math.min(this.burst, this.tokens + (elapsedMs * this.qps) / 1000);
    this.lastMs = nowMs;
  }
}

/** A limiter for these limits, or none when they disable limiting (qps <= 0). */
export function rateLimiterFor(limits: Partial<ClientRateLimits> | undefined, nowMs: number): TokenBucketRateLimiter | undefined {
  const qps = limits?.qps ?? 0;
  if (!(qps > 0)) return undefined;
  return new TokenBucketRateLimiter(qps, limits?.burst ?? 1, nowMs);
}

const LONG_THROTTLE_LATENCY_MS = 50;
const EXTRA_LONG_THROTTLE_LATENCY_MS = 1000;
/** globalThrottledLogger's settings: at -v=2 at most one line a second, else at -v=0 one per 10 s. */
const THROTTLED_LOG_SETTINGS = [
  { level: 2, minIntervalMs: 1_000 },
  { level: 0, minIntervalMs: 10_000 },
] as const;

/**
 * Where one process's throttling lines go, with its log verbosity (-v) and the throttled
 * logger's memory of when it last wrote (a package variable upstream: one per process, shared
 * by all the process's clients).
 */
export class ThrottleLog {
  private readonly lastLogMs: number[] = THROTTLED_LOG_SETTINGS.map(() => -Infinity);

  constructor(private readonly sink: (line: string) => void, readonly verbosity = 0) {}

  /** A request waited `waitMs` for its token, and is sent at nowMs; a retry says why it was retried. */
  waited(nowMs: number, waitMs: number, verb: string, url: string, retryReason?: string): void {
    const line = throttleMessage(waitMs, verb, url, retryReason);
    if (waitMs > LONG_THROTTLE_LATENCY_MS && this.verbosity >= 3) this.sink(line);
    if (waitMs > EXTRA_LONG_THROTTLE_LATENCY_MS && this.attemptToLog(nowMs)) this.sink(line);
  }

  /** throttledLogger.attemptToLog: the first setting whose level is enabled decides. */
  private attemptToLog(nowMs: number): boolean {
    for (const [i, s] of THROTTLED_LOG_SETTINGS.entries()) {
      if (this.verbosity < s.level) continue;
      if (nowMs - this.lastLogMs[i]! < s.minIntervalMs) return false;
      this.lastLogMs[i] = nowMs;
      return true;
    }
    return false;
  }
}

/**
 * The structured line client-go v1.32+ logs (earlier versions printed
 * `Waited for 1.2s due to client-side throttling, not priority and fairness, request: GET:<url>`).
 * A retry's reason is with_retry.go's retryAfter.Reason (getRetryReason) instead.
 */
export function throttleMessage(waitMs: number, verb: string, url: string, retryReason?: string): string {
  const reason = (retryReason ?? 'client-side throttling, not priority and fairness').replace(/["\\]/g, (c) => `\\${c}`);
  return `"Waited before sending request" delay="${goDuration(waitMs)}" reason="${reason}" verb="${verb}" URL="${url}"`;
}

/** getRetryReason (with_retry.go) for a retry after a transport error (the url.Error's text). */
export function retryReason(retries: number, retryAfterMs: number, error: string): string {
  return `retries: ${retries}, retry-after: ${goDuration(retryAfterMs)} - retry-reason: due to retryable error, error: ${error}`;
}

/** Go's time.Duration String() for whole milliseconds: "0s", "200ms", "1.2s", "2m3.5s", "1h0m0s". */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = ((ms % 60_000) / 1000).toFixed(3).replace(/\.?0+$/, '');
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}
