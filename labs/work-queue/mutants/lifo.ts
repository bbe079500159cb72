// Mutant: get() takes the newest key (a stack) instead of the oldest.
// The work-queue lab: client-go's work queue (dedup, one worker per key, dirty keys requeued on
// done, FIFO, shutdown), its delaying part (addAfter) and per-key exponential back-off.
// Read lab.mdx first. Run the visible examples with `npm run grade -- work-queue --examples`;
// grade with `npm run grade -- work-queue`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { QueueClock, RateLimiter } from '../../../runtime/controllers/index.ts';

/** What get() hands out: a key, or none (shutdown true: the queue is shut down and empty). */
export interface GetResult {
  item: string | undefined;
  shutdown: boolean;
}

/** client-go's RateLimitingInterface, for string keys, with a get() that never blocks. */
export interface WorkQueue {
  add(item: string): void;
  len(): number;
  get(): GetResult;
  done(item: string): void;
  shutDown(): void;
  shuttingDown(): boolean;
  addAfter(item: string, delayMs: number): void;
  addRateLimited(item: string): void;
  forget(item: string): void;
  numRequeues(item: string): number;
}

/** The rate-limiting work queue: queue.go's Type, delaying_queue.go's AddAfter, rate_limiting_queue.go. */
export function createWorkQueue(clock: QueueClock, rateLimiter?: RateLimiter<string>): WorkQueue {
  const limiter = rateLimiter ?? createItemExponentialFailureRateLimiter(5, 1_000_000);
  const queue: string[] = [];
  const dirty = new Set<string>();
  const processing = new Set<string>();
  const waiting = new Map<string, { readyAtMs: number; cancel: () => void }>();
  let shuttingDown = false;

  const add = (item: string): void => {
    if (shuttingDown || dirty.has(item)) return;
    dirty.add(item);
    if (processing.has(item)) return;
    queue.push(item);
  };

  const addAfter = (item: string, delayMs: number): void => {
    if (shuttingDown) return;
    if (delayMs <= 0) {
      add(item);
      return;
    }
    const readyAtMs = clock.now() + delayMs;
    const existing = waiting.get(item);
    if (existing && existing.readyAtMs <= readyAtMs) return;
    existing?.cancel();
    const timer = clock.setTimer(delayMs, () => {
      waiting.delete(item);
      add(item);
    });
    waiting.set(item, { readyAtMs, cancel: () => timer.cancel() });
  };

  return {
    add,
    len: () => queue.length,
    get: () => {
      const item = queue.pop();
      if (item === undefined) return { item: undefined, shutdown: shuttingDown };
      processing.add(item);
      dirty.delete(item);
      return { item, shutdown: false };
    },
    done: (item) => {
      processing.delete(item);
      if (dirty.has(item)) queue.push(item);
    },
    shutDown: () => {
      shuttingDown = true;
      for (const w of waiting.values()) w.cancel();
      waiting.clear();
    },
    shuttingDown: () => shuttingDown,
    addAfter,
    addRateLimited: (item) => addAfter(item, limiter.when(item, clock.now())),
    forget: (item) => limiter.forget(item),
    numRequeues: (item) => limiter.numRequeues(item),
  };
}

/** ItemExponentialFailureRateLimiter: baseDelayMs * 2^failures, at most maxDelayMs. */
export function createItemExponentialFailureRateLimiter(baseDelayMs: number, maxDelayMs: number): RateLimiter<string> {
  const failures = new Map<string, number>();
  return {
    when: (item) => {
      const exp = failures.get(item) ?? 0;
      failures.set(item, exp + 1);
      const backoff = baseDelayMs * 2 ** exp;
      return backoff > maxDelayMs || !Number.isFinite(backoff) ? maxDelayMs : backoff;
    },
    forget: (item) => {
      failures.delete(item);
    },
    numRequeues: (item) => failures.get(item) ?? 0,
  };
}
