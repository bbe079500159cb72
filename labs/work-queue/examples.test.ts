// Visible examples for the work-queue lab: read them, run them, add your own.
// `npm run grade -- work-queue --examples`
import { describe, expect, it } from 'vitest';
import type { QueueClock } from '../../runtime/controllers/index.ts';
import { createItemExponentialFailureRateLimiter, createWorkQueue } from '@lab/submission';

/** A clock for tests: time moves only when advance() is called, firing the timers that fall due. */
function testClock(): QueueClock & { advance(ms: number): void } {
  let now = 0;
  let timers: { at: number; fn: () => void; live: boolean }[] = [];
  return {
    now: () => now,
    setTimer(delayMs, fn) {
      const timer = { at: now + delayMs, fn, live: true };
      timers.push(timer);
      return { cancel: () => void (timer.live = false) };
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        timers = timers.filter((t) => t.live).sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > until) break;
        next.live = false;
        now = next.at;
        next.fn();
      }
      now = until;
    },
  };
}

describe('the queue', () => {
  it('hands keys out first in, first out, and a key waiting twice only once', () => {
    const q = createWorkQueue(testClock());
    q.add('default/web');
    q.add('default/api');
    q.add('default/web');
    expect(q.len()).toBe(2);
    expect(q.get()).toEqual({ item: 'default/web', shutdown: false });
    expect(q.get()).toEqual({ item: 'default/api', shutdown: false });
    expect(q.get()).toEqual({ item: undefined, shutdown: false }); // empty: a Go worker would wait here
  });

  it('never hands a key out twice at once: added while processed, it comes back after done', () => {
    const q = createWorkQueue(testClock());
    q.add('default/web');
    expect(q.get().item).toBe('default/web'); // worker 1 takes it
    q.add('default/web'); // the ReplicaSet changes meanwhile
    expect(q.get().item).toBeUndefined(); // worker 2 must not get it
    q.done('default/web'); // worker 1 finishes
    expect(q.get().item).toBe('default/web'); // now it can be reconciled again
  });

  it('after shutDown, hands out what is queued, ignores new keys, then says shutdown', () => {
    const q = createWorkQueue(testClock());
    q.add('a');
    q.shutDown();
    q.add('b');
    expect(q.get()).toEqual({ item: 'a', shutdown: false });
    expect(q.get()).toEqual({ item: undefined, shutdown: true });
  });
});

describe('back-off', () => {
  it('the limiter doubles 5 ms per failure of a key, and forget starts over', () => {
    const limiter = createItemExponentialFailureRateLimiter(5, 1_000_000);
    expect([limiter.when('k', 0), limiter.when('k', 0), limiter.when('k', 0)]).toEqual([5, 10, 20]);
    expect(limiter.numRequeues('k')).toBe(3);
    limiter.forget('k');
    expect(limiter.numRequeues('k')).toBe(0);
    expect(limiter.when('k', 0)).toBe(5);
  });

  it('a failed key comes back 5 ms later, then 10 ms', () => {
    const clock = testClock();
    const q = createWorkQueue(clock);
    q.add('default/db');
    expect(q.get().item).toBe('default/db');
    q.addRateLimited('default/db'); // the reconcile failed
    q.done('default/db');
    clock.advance(4);
    expect(q.len()).toBe(0);
    clock.advance(1);
    expect(q.get().item).toBe('default/db'); // 5 ms after the failure
    q.addRateLimited('default/db'); // failed again
    q.done('default/db');
    clock.advance(9);
    expect(q.len()).toBe(0);
    clock.advance(1);
    expect(q.len()).toBe(1); // 10 ms after the second failure
  });
});
