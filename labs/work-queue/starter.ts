// The work-queue lab: client-go's work queue (dedup, one worker per key, dirty keys requeued on
// done, FIFO, shutdown), its delaying part (addAfter) and per-key exponential back-off.
// Read lab.mdx first. Run the visible examples with `npm run grade -- work-queue --examples`;
// grade with `npm run grade -- work-queue`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { QueueClock, RateLimiter } from '../../runtime/controllers/index.ts';

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
  // TODO 1: the queue (keys in order), the dirty set and the processing set (queue.go).
  // TODO 2: get() takes the first key and marks it processing; done() puts a dirty key back.
  // TODO 3: shutDown(): no more adds; get() says shutdown once nothing is queued.
  // TODO 4: addAfter() with clock.setTimer (the earliest ready time wins); addRateLimited() asks the limiter.
  const limiter = rateLimiter ?? createItemExponentialFailureRateLimiter(5, 1_000_000);
  const queue: string[] = [];
  let shuttingDown = false;
  return {
    add: (item) => {
      queue.push(item);
    },
    len: () => queue.length,
    get: () => {
      const item = queue.pop();
      return { item, shutdown: item === undefined && shuttingDown };
    },
    done: (item) => {
      void item;
    },
    shutDown: () => {
      shuttingDown = true;
    },
    shuttingDown: () => shuttingDown,
    addAfter: (item, delayMs) => {
      void clock;
      void delayMs;
      queue.push(item);
    },
    addRateLimited: (item) => {
      queue.push(item);
    },
    forget: (item) => limiter.forget(item),
    numRequeues: (item) => limiter.numRequeues(item),
  };
}

/** ItemExponentialFailureRateLimiter: baseDelayMs * 2^failures, at most maxDelayMs. */
export function createItemExponentialFailureRateLimiter(baseDelayMs: number, maxDelayMs: number): RateLimiter<string> {
  // TODO 5: count failures per key; when() returns baseDelayMs * 2^(failures so far), capped at maxDelayMs.
  void maxDelayMs;
  return {
    when: () => baseDelayMs,
    forget: () => {},
    numRequeues: () => 0,
  };
}
