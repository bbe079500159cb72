/**
 * A work queue with delays and per-item back-off, mirroring client-go's delaying_queue.go and
 * rate_limiting_queue.go. Delays are kernel timers. Adding an item that is already waiting keeps
 * the earlier of the two ready times, as upstream's waitingForQueue does.
 */
import type { TimerHandle } from '../../kernel/index.ts';
import { WorkQueue } from './queue.ts';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters.ts';

/** The part of the kernel a queue needs: its clock and its timers. */
export interface QueueClock {
  now(): number;
  setTimer(delayMs: number, fn: () => void): TimerHandle;
}

export class RateLimitingQueue<T> extends WorkQueue<T> {
  private readonly waiting = new Map<T, { readyAtMs: number; timer: TimerHandle }>();

  constructor(
    private readonly clock: QueueClock,
    private readonly limiter: RateLimiter<T> = defaultControllerRateLimiter<T>(),
  ) {
    super();
  }

  /** Adds item after delayMs (at once if delayMs <= 0). */
  addAfter(item: T, delayMs: number): void {
    if (this.isShuttingDown) return;
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    const readyAtMs = this.clock.now() + Math.ceil(delayMs);
    const existing = this.waiting.get(item);
    if (existing && existing.readyAtMs <= readyAtMs) return;
    existing?.timer.cancel();
    const timer = this.clock.setTimer(readyAtMs - this.clock.now(), () => {
      this.waiting.delete(item);
      this.add(item);
    });
    this.waiting.set(item, { readyAtMs, timer });
  }

  /** Adds item after the rate limiter's delay for it (its back-off grows with each call). */
  addRateLimited(item: T): void {
    this.addAfter(item, this.limiter.when(item, this.clock.now()));
  }

  /** Clears item's back-off history (call after a successful sync). */
  forget(item: T): void {
    this.limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.limiter.numRequeues(item);
  }

  /** Items waiting for their delay to pass. */
  waitingCount(): number {
    return this.waiting.size;
  }

  override shutDown(): void {
    super.shutDown();
    for (const w of this.waiting.values()) w.timer.cancel();
    this.waiting.clear();
  }
}
