/**
 * Rate limiters of client-go util/workqueue/default_rate_limiters.go. `when(item)` says how long
 * to wait before the item may be retried, and counts the retry; `forget(item)` clears its history.
 * Time comes from the caller's clock (the simulation kernel), never a real one.
 */
export interface RateLimiter<T> {
  when(item: T, nowMs: number): number;
  forget(item: T): void;
  numRequeues(item: T): number;
}

/** base * 2^failures, capped at max: 5 ms, 10 ms, 20 ms ... 1000 s by default for controllers. */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();
  constructor(
    readonly baseDelayMs: number,
    readonly maxDelayMs: number,
  ) {}

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    // Upstream guards the float overflow of base * 2^exp the same way: anything huge is max.
    const backoff = this.baseDelayMs * Math.pow(2, exp);
    return backoff > this.maxDelayMs || !Number.isFinite(backoff) ? this.maxDelayMs : backoff;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * An overall token bucket (golang.org/x/time/rate Limiter.Reserve semantics): `qps` tokens per
 * second up to `burst`; each retry reserves one token and waits until it is available. Tokens may
 * go negative, so reservations queue up behind each other.
 */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private tokens: number;
  private lastMs = 0;
  constructor(
    readonly qps: number,
    readonly burst: number,
  ) {
    this.tokens = burst;
  }

  when(_item: T, nowMs: number): number {
    const elapsedMs = Math.max(0, nowMs - this.lastMs);
    this.tokens = Math.min(this.burst, this.tokens + (elapsedMs * this.qps) / 1000);
    this.lastMs = nowMs;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens * 1000) / this.qps);
  }

  forget(): void {}

  numRequeues(): number {
    return 0;
  }
}

/** The worst (longest) delay of several limiters. */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: readonly RateLimiter<T>[];
  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T, nowMs: number): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(item, nowMs));
    return max;
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/** DefaultControllerRateLimiter: per-item exponential 5 ms..1000 s, and 10 qps / 100 burst overall. */
export function defaultControllerRateLimiter<T>(): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(5, 1000 * 1000),
    new BucketRateLimiter<T>(10, 100),
  );
}
