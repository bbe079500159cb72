import { describe, expect, it } from 'vitest';
import { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS } from './expectations.ts';
import { slowStartBatch } from './slow-start.ts';

// mirrors pkg/controller/replicaset/replica_set_test.go TestSlowStartBatch
describe('slowStartBatch', () => {
  it.each([
    { name: 'callback function succeeds', count: 10, failFrom: Infinity, successes: 10, calls: 10, batches: [1, 2, 4, 3] },
    { name: 'callback function fails', count: 10, failFrom: 0, successes: 0, calls: 1, batches: [1] },
    { name: 'callback function fails after 3 calls (the batch of 2 still completes, none after)', count: 10, failFrom: 3, successes: 3, calls: 7, batches: [1, 2, 4] },
    { name: 'zero items', count: 0, failFrom: Infinity, successes: 0, calls: 0, batches: [] },
    { name: 'one item', count: 1, failFrom: Infinity, successes: 1, calls: 1, batches: [1] },
  ])('$name', ({ count, failFrom, successes, calls, batches }) => {
    let called = 0;
    let result: { successes: number; batches: number[] } | undefined;
    slowStartBatch(count, 1, (i, done) => {
      called++;
      done(i < failFrom);
    }, (s, b) => {
      result = { successes: s, batches: b };
    });
    expect(result).toEqual({ successes, batches });
    expect(called).toBe(calls);
  });
});

describe('ControllerExpectations', () => {
  it('is satisfied when nothing is expected, when all are observed, or after 5 minutes', () => {
    let nowMs = 0;
    const e = new ControllerExpectations({ now: () => nowMs });
    expect(e.satisfied('ns/rs')).toBe(true);
    e.expect('ns/rs', 2, 0);
    expect(e.satisfied('ns/rs')).toBe(false);
    e.creationObserved('ns/rs');
    expect(e.satisfied('ns/rs')).toBe(false);
    e.creationObserved('ns/rs');
    expect(e.satisfied('ns/rs')).toBe(true);
    e.expect('ns/rs', 0, 3);
    e.deletionObserved('ns/rs');
    nowMs = EXPECTATIONS_TIMEOUT_MS;
    expect(e.satisfied('ns/rs')).toBe(false);
    nowMs = EXPECTATIONS_TIMEOUT_MS + 1;
    expect(e.satisfied('ns/rs')).toBe(true);
    expect(e.pending('ns/rs')).toEqual({ add: 0, del: 2 });
  });
});
