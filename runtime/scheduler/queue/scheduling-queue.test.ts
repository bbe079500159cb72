// Modeled on pkg/scheduler/backend/queue/scheduling_queue_test.go (TestPriorityQueue_Add,
// _Pop, _AddUnschedulableIfNotPresent_Backoff, TestBackOffFlow, _MoveAllToActiveOrBackoffQueue,
// TestFlushUnschedulablePodsLeftover).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newPodInfo } from '../framework/pod-info.ts';
import { makePod } from '../testing-builders.ts';
import { KeyedHeap } from './heap.ts';
import { SchedulingQueue } from './scheduling-queue.ts';

const pod = (name: string, priority = 0) => newPodInfo(makePod(name, { priority }));

describe('activeQ order', () => {
  it('pops by priority, then by the earlier timestamp', () => {
    const q = new SchedulingQueue();
    q.add(pod('low', 0), 0);
    q.add(pod('mid-late', 10), 2);
    q.add(pod('mid-early', 10), 1);
    q.add(pod('high', 100), 3);
    expect([1, 2, 3, 4].map(() => q.pop(5)?.key)).toEqual([
      'default/high',
      'default/mid-early',
      'default/mid-late',
      'default/low',
    ]);
    expect(q.pop(5)).toBeUndefined();
  });
});

describe('back-off (TestBackOffFlow)', () => {
  it('doubles from 1s and caps at 10s', () => {
    const q = new SchedulingQueue();
    expect([1, 2, 3, 4, 5, 6, 10].map((a) => q.backoffDurationMs(a))).toEqual([
      1000, 2000, 4000, 8000, 10000, 10000, 10000,
    ]);
  });

  it('a pod that failed after a move request waits in backoffQ, then returns to activeQ', () => {
    const q = new SchedulingQueue();
    q.add(pod('p'), 0);
    const info = q.pop(0)!; // cycle 1, attempts 1
    q.moveAllToActiveOrBackoffQueue({ resource: 'Node', action: 'Add' }, 100); // moveRequestCycle = 1
    q.addUnschedulable(info, 1, 200, { plugins: ['NodeResourcesFit'] });
    expect(q.pending()).toEqual({ active: [], backoff: ['default/p'], unschedulable: [] });
    expect(q.flushBackoffQCompleted(1199)).toBe(0); // back-off 1s from t=200
    expect(q.flushBackoffQCompleted(1200)).toBe(1);
    expect(q.pending().active).toEqual(['default/p']);
  });

  it('errors go to backoffQ', () => {
    const q = new SchedulingQueue();
    q.add(pod('p'), 0);
    q.addUnschedulable(q.pop(0)!, 1, 0, { error: true });
    expect(q.pending().backoff).toEqual(['default/p']);
  });
});

describe('unschedulablePods', () => {
  function parked(plugins: string[]) {
    const q = new SchedulingQueue();
    q.add(pod('p'), 0);
    q.addUnschedulable(q.pop(0)!, 1, 0, { plugins });
    return q;
  }

  it('waits for an event that may help', () => {
    const q = parked(['NodeAffinity']);
    expect(q.pending().unschedulable).toEqual(['default/p']);
    expect(q.moveAllToActiveOrBackoffQueue({ resource: 'Pod', action: 'Delete' }, 5000)).toBe(0);
    expect(
      q.moveAllToActiveOrBackoffQueue({ resource: 'Node', action: 'UpdateNodeLabel' }, 5000),
    ).toBe(1);
    expect(q.pending().active).toEqual(['default/p']); // back-off (1s from t=0) already over
  });

  it('an event during back-off moves the pod to backoffQ', () => {
    const q = parked(['NodeResourcesFit']);
    q.moveAllToActiveOrBackoffQueue({ resource: 'Pod', action: 'Delete' }, 500);
    expect(q.pending().backoff).toEqual(['default/p']);
  });

  it('is flushed after 5 minutes without an event', () => {
    const q = parked(['NodeAffinity']);
    expect(q.flushUnschedulablePodsLeftover(300_000)).toBe(0);
    expect(q.flushUnschedulablePodsLeftover(300_001)).toBe(1);
    expect(q.pending().active).toEqual(['default/p']);
  });

  it('a plugin with unknown events (a learner plugin) is moved by any event', () => {
    const q = parked(['MyPlugin']);
    expect(q.moveAllToActiveOrBackoffQueue({ resource: 'Pod', action: 'Add' }, 5000)).toBe(1);
  });

  it('delete removes the pod wherever it is', () => {
    const q = parked(['NodeAffinity']);
    expect(q.delete('default/p')).toBe(true);
    expect(q.pending()).toEqual({ active: [], backoff: [], unschedulable: [] });
  });
});

describe('KeyedHeap', () => {
  it('pops in order after random pushes and deletes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 50 }),
            fc.integer({ min: -100, max: 100 }),
            fc.boolean(),
          ),
        ),
        (ops) => {
          const h = new KeyedHeap<number>((a, b) => a < b);
          const model = new Map<string, number>();
          for (const [k, v, del] of ops) {
            const key = `k${k}`;
            if (del) {
              h.delete(key);
              model.delete(key);
            } else {
              h.push(key, v);
              model.set(key, v);
            }
          }
          const out: number[] = [];
          for (let v = h.pop(); v !== undefined; v = h.pop()) out.push(v);
          expect(out).toEqual([...model.values()].sort((a, b) => a - b));
        },
      ),
      { seed: 20260104, numRuns: 200, verbose: true },
    );
  });
});
