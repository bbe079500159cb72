import { describe, expect, it } from 'vitest';
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
