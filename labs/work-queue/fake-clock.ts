// The clock the work-queue suites hand to the queue: simulated milliseconds that move only when a
// test advances them, and timers that fire in order of time, then of creation (the kernel's order).
import type { QueueClock } from '../../runtime/controllers/index.ts';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  live: boolean;
}

export class FakeClock implements QueueClock {
  private nowMs = 0;
  private seq = 0;
  private timers: Timer[] = [];
  /** Called after each timer has fired (a controller's idle workers look for work then). */
  afterFire: (() => void) | null = null;

  now(): number {
    return this.nowMs;
  }

  setTimer(delayMs: number, fn: () => void): { cancel(): void } {
    if (typeof fn !== 'function') throw new TypeError('clock.setTimer(delayMs, fn) needs a function to call');
    const timer: Timer = { at: this.nowMs + Math.max(0, delayMs), seq: this.seq++, fn, live: true };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.live = false;
      },
    };
  }

  /** Moves time forward by ms, firing every timer that falls due on the way. */
  advance(ms: number): void {
    this.runUntil(this.nowMs + ms);
  }

  runUntil(targetMs: number): void {
    for (let fired = 0; ; fired++) {
      if (fired > 200_000) throw new Error('more than 200000 timers fired in one advance of the clock: does a timer keep setting itself?');
      this.timers = this.timers.filter((t) => t.live);
      let next: Timer | undefined;
      for (const t of this.timers) {
        if (t.at <= targetMs && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      }
      if (!next) break;
      next.live = false;
      this.nowMs = Math.max(this.nowMs, next.at);
      next.fn();
      this.afterFire?.();
    }
    this.nowMs = Math.max(this.nowMs, targetMs);
  }

  /** Timers set and neither fired nor cancelled. */
  pending(): number {
    return this.timers.filter((t) => t.live).length;
  }
}
