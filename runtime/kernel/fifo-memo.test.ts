import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FifoMemo } from './fifo-memo.ts';

describe('FifoMemo', () => {
  it('keeps the newest max keys, in insertion order; re-setting a key keeps its place', () => {
    const m = new FifoMemo<string, number>(3);
    m.set('a', 1);
    m.set('b', 2);
    m.set('a', 10);
    m.set('c', 3);
    expect(m.entries()).toEqual([['a', 10], ['b', 2], ['c', 3]]);
    m.set('d', 4);
    expect(m.entries()).toEqual([['b', 2], ['c', 3], ['d', 4]]);
    expect(m.has('a')).toBe(false);
    expect(m.get('d')).toBe(4);
    expect(m.size).toBe(3);
  });

  it('behaves like a Map evicting its first key past the bound, for any sequence of sets', () => {
    const seed = 4096;
    console.log(`FifoMemo property seed ${seed} (replay: fc.assert(..., { seed }))`);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer()), { maxLength: 200 }), (max, sets) => {
        const memo = new FifoMemo<number, number>(max);
        const model = new Map<number, number>();
        for (const [k, v] of sets) {
          memo.set(k, v);
          model.set(k, v);
          if (model.size > max) model.delete(model.keys().next().value!);
          expect(memo.entries()).toEqual([...model]);
        }
      }),
      { seed, numRuns: 300 },
    );
  });
});
