// The controllers' public face re-exports client-go's work queue (runtime/client/workqueue) for the
// work-queue lab: the same classes, and the controllers' default per-key back-off
// (client-go default_rate_limiters.go DefaultControllerRateLimiter: 5 ms doubling to 1000 s).
import { describe, expect, it } from 'vitest';
import * as client from '../client/index.ts';
import { ItemExponentialFailureRateLimiter, RateLimitingQueue, WorkQueue, defaultControllerRateLimiter, runWorkers, type RateLimiter } from './index.ts';

describe('runtime/controllers re-exports the work queue', () => {
  it('is the client package\'s own implementation', () => {
    expect(WorkQueue).toBe(client.WorkQueue);
    expect(RateLimitingQueue).toBe(client.RateLimitingQueue);
    expect(ItemExponentialFailureRateLimiter).toBe(client.ItemExponentialFailureRateLimiter);
    expect(defaultControllerRateLimiter).toBe(client.defaultControllerRateLimiter);
    expect(runWorkers).toBe(client.runWorkers);
  });

  it.each([
    [1, 5],
    [2, 10],
    [3, 20],
    [10, 2560],
    [18, 655_360],
    [19, 1_000_000],
    [40, 1_000_000],
  ])('the per-key back-off of failure %i is %i ms', (failures, delayMs) => {
    const limiter: RateLimiter<string> = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    let last = 0;
    for (let i = 0; i < failures; i++) last = limiter.when('default/web', 0);
    expect(last).toBe(delayMs);
    expect(limiter.numRequeues('default/web')).toBe(failures);
  });
});
