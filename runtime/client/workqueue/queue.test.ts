import { describe, expect, it } from 'vitest';
import { createKernel } from '../../kernel/index.ts';
import { WorkQueue } from './queue.ts';
import { RateLimitingQueue } from './rate-limiting-queue.ts';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from './rate-limiters.ts';

// Cases follow client-go util/workqueue/queue_test.go and default_rate_limiters_test.go.
describe('WorkQueue (client-go queue.go semantics)', () => {
  it('deduplicates an item added twice before it is taken', () => {
    const q = new WorkQueue<string>();
    q.add('default/a');
    q.add('default/a');
    q.add('default/b');
    expect(q.len()).toBe(2);
    expect([q.get(), q.get(), q.get()]).toEqual(['default/a', 'default/b', undefined]);
  });

  it('never hands out an item that is being processed; re-adds it after done()', () => {
    const q = new WorkQueue<string>();
    q.add('k');
    expect(q.get()).toBe('k');
    q.add('k'); // changed while being processed: only marked dirty
    expect(q.len()).toBe(0);
    expect(q.get()).toBeUndefined();
    q.done('k');
    expect(q.len()).toBe(1);
    expect(q.get()).toBe('k');
    q.done('k');
    expect(q.len()).toBe(0);
  });

  it('calls onAvailable when an item becomes ready, not for a duplicate', () => {
    const q = new WorkQueue<string>();
    let calls = 0;
    q.onAvailable = () => calls++;
    q.add('a');
    q.add('a');
    expect(calls).toBe(1);
  });

  it('throws, naming the invariant, when done() is called for an item not being processed', () => {
    const q = new WorkQueue<string>();
    expect(() => q.done('x')).toThrow(/invariant violated: done\(\) called/);
  });

  it('ignores adds after shutDown but still hands out queued items', () => {
    const q = new WorkQueue<string>();
    q.add('a');
    q.shutDown();
    q.add('b');
    expect([q.get(), q.get()]).toEqual(['a', undefined]);
  });
});

describe('rate limiters', () => {
  it('ItemExponentialFailureRateLimiter doubles per failure up to the max, per item', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(1, 1000);
    expect([1, 2, 3, 4, 5].map(() => l.when('one'))).toEqual([1, 2, 4, 8, 16]);
    expect(l.numRequeues('one')).toBe(5);
    expect(l.when('two')).toBe(1);
    l.forget('one');
    expect(l.numRequeues('one')).toBe(0);
    expect(l.when('one')).toBe(1);
  });

  it('ItemExponentialFailureRateLimiter caps overflow at the max delay', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    let last = 0;
    for (let i = 0; i < 2000; i++) last = l.when('x');
    expect(last).toBe(1_000_000);
  });

  it('BucketRateLimiter lets a burst through, then spaces retries at 1/qps', () => {
    const l = new BucketRateLimiter<string>(10, 3);
    expect([l.when('a', 0), l.when('b', 0), l.when('c', 0)]).toEqual([0, 0, 0]);
    expect(l.when('d', 0)).toBe(100);
    expect(l.when('e', 0)).toBe(200);
    expect(l.when('f', 1000)).toBe(0); // refilled after a second
  });

  it('MaxOfRateLimiter takes the longest delay', () => {
    const l = new MaxOfRateLimiter<string>(
      new ItemExponentialFailureRateLimiter(1, 100),
      new ItemExponentialFailureRateLimiter(10, 1000),
    );
    expect([l.when('a', 0), l.when('a', 0)]).toEqual([10, 20]);
    expect(l.numRequeues('a')).toBe(2);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
  });

  it('defaultControllerRateLimiter starts at 5 ms and doubles', () => {
    const l = defaultControllerRateLimiter<string>();
    expect([l.when('k', 0), l.when('k', 0), l.when('k', 0)]).toEqual([5, 10, 20]);
  });
});

describe('RateLimitingQueue (delaying_queue.go, rate_limiting_queue.go)', () => {
  it('adds an item only after its delay has passed on the kernel clock', () => {
    const k = createKernel({ seed: 1 });
    const q = new RateLimitingQueue<string>(k);
    q.addAfter('a', 50);
    k.runFor(49);
    expect(q.len()).toBe(0);
    k.runFor(1);
    expect(q.get()).toBe('a');
  });

  it('keeps the earlier ready time when the same item is delayed twice', () => {
    const k = createKernel({ seed: 1 });
    const q = new RateLimitingQueue<string>(k);
    q.addAfter('a', 100);
    q.addAfter('a', 10);
    q.addAfter('a', 500);
    k.runFor(10);
    expect(q.len()).toBe(1);
    expect(q.waitingCount()).toBe(0);
  });

  it('backs off exponentially with addRateLimited and resets with forget', () => {
    const k = createKernel({ seed: 1 });
    const q = new RateLimitingQueue<string>(k, new ItemExponentialFailureRateLimiter(5, 1000));
    const readyAt: number[] = [];
    q.onAvailable = () => readyAt.push(k.now());
    for (let i = 0; i < 3; i++) {
      q.addRateLimited('k');
      k.runUntil(() => q.len() > 0, 1000);
      q.done(q.get()!);
    }
    expect(readyAt).toEqual([5, 15, 35]);
    expect(q.numRequeues('k')).toBe(3);
    q.forget('k');
    expect(q.numRequeues('k')).toBe(0);
  });
});
