import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventQueue, SimEvent } from './event-queue.ts';
import { createKernel } from './kernel.ts';
import { createRng } from './rng.ts';

describe('EventQueue', () => {
  it('pops by time, then by insertion sequence (stable)', () => {
    const q = new EventQueue();
    const rng = createRng(7);
    const evs: SimEvent[] = [];
    for (let i = 0; i < 500; i++) {
      const e = new SimEvent(rng.nextInt(20), i, () => {}, i, 0);
      evs.push(e);
      q.push(e);
    }
    const popped: SimEvent[] = [];
    for (let e = q.pop(); e; e = q.pop()) popped.push(e);
    const expected = [...evs].sort((a, b) => a.timeMs - b.timeMs || a.seq - b.seq);
    expect(popped.map((e) => e.arg)).toEqual(expected.map((e) => e.arg));
  });

  it('pops exactly in (time, sequence) order for any interleaving of pushes and pops', () => {
    // ops: push after `delay` ms from the last popped time (near or far), with
    // the next sequence number or, rarely, a stale one (out of push order), or pop
    const op = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), delay: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 600 }), fc.integer({ min: 400, max: 5_000 })), stale: fc.integer({ min: 0, max: 19 }) }),
      fc.record({ kind: fc.constant('pop' as const) }),
    );
    const seed = 5150;
    console.log(`EventQueue property seed ${seed} (replay: fc.assert(..., { seed }))`);
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const q = new EventQueue();
        const model: SimEvent[] = [];
        let seq = 1_000;
        let staleSeq = 999; // unique, and below every sequence pushed in order
        let now = 0;
        const popBoth = (): void => {
          const got = q.pop();
          model.sort((a, b) => a.timeMs - b.timeMs || a.seq - b.seq);
          const want = model.shift();
          expect(got).toBe(want);
          if (got) now = got.timeMs;
          expect(q.size).toBe(model.length);
        };
        for (const o of ops) {
          if (o.kind === 'pop') {
            popBoth();
            continue;
          }
          // a stale sequence (below ones already pushed) now and then: out of the wheel's order
          const s = o.stale === 0 ? staleSeq-- : seq++;
          const ev = new SimEvent(now + o.delay, s, () => {}, undefined, 0);
          q.push(ev);
          model.push(ev);
        }
        while (model.length > 0) popBoth();
        expect(q.pop()).toBeUndefined();
      }),
      { seed, numRuns: 400 },
    );
  });

  it('peek shows what pop takes', () => {
    const q = new EventQueue();
    const far = new SimEvent(10_000, 1, () => {}, 'far', 0);
    const near = new SimEvent(3, 2, () => {}, 'near', 0);
    const sameTimeLater = new SimEvent(3, 3, () => {}, 'same', 0);
    q.push(far);
    q.push(near);
    q.push(sameTimeLater);
    expect(q.peek()).toBe(near);
    expect(q.pop()).toBe(near);
    expect(q.peek()).toBe(sameTimeLater);
    expect(q.pop()).toBe(sameTimeLater);
    expect(q.pop()).toBe(far);
    expect(q.peek()).toBeUndefined();
    expect(q.size).toBe(0);
  });

  it('kernel runs same-time timers in scheduling order and skips cancelled ones', () => {
    const k = createKernel();
    const log: string[] = [];
    k.setTimer(10, () => log.push('a'));
    const b = k.setTimer(10, () => log.push('b'));
    k.setTimer(5, () => log.push('early'));
    k.setTimer(10, () => log.push('c'));
    b.cancel();
    k.runFor(10);
    expect(log).toEqual(['early', 'a', 'c']);
    expect(k.now()).toBe(10);
  });

  it('every() repeats until cancelled; runUntilIdle returns when idle', () => {
    const k = createKernel();
    const at: number[] = [];
    const h = k.every(100, () => {
      at.push(k.now());
      if (at.length === 3) h.cancel();
    });
    k.runUntilIdle();
    expect(at).toEqual([100, 200, 300]);
  });

  it('runUntilIdle throws past its event budget (a livelock)', () => {
    const k = createKernel();
    k.every(1, () => {});
    expect(() => k.runUntilIdle(1000)).toThrow(/event budget of 1000 exceeded/);
  });

  it('runUntil(predicate) stops when the predicate holds, and reports a budget miss as false', () => {
    const k = createKernel();
    let n = 0;
    k.every(10, () => n++);
    expect(k.runUntil(() => n === 5)).toBe(true);
    expect(k.now()).toBe(50);
    expect(k.runUntil(() => false, 100)).toBe(false);
  });
});
