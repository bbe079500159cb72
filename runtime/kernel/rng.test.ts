import { describe, expect, it } from 'vitest';
import { createRng } from './rng.ts';

const take = (n: number, f: () => number) => Array.from({ length: n }, f);

describe('Rng', () => {
  it('same seed, same stream', () => {
    const a = createRng(42);
    const b = createRng(42);
    expect(take(100, () => a.nextU32())).toEqual(take(100, () => b.nextU32()));
  });

  it('different seeds, different streams', () => {
    const a = createRng(1);
    const b = createRng(2);
    expect(take(10, () => a.nextU32())).not.toEqual(take(10, () => b.nextU32()));
  });

  it('fork(label) does not consume the parent and depends only on seed and label', () => {
    const a = createRng(9);
    const b = createRng(9);
    a.fork('network');
    a.fork('extra component');
    expect(take(20, () => a.nextU32())).toEqual(take(20, () => b.nextU32()));
    expect(take(20, () => createRng(9).fork('x').nextU32())).toEqual(
      take(20, () => b.fork('x').nextU32()),
    );
    const x = createRng(9).fork('x');
    const y = createRng(9).fork('y');
    expect(take(10, () => x.nextU32())).not.toEqual(take(10, () => y.nextU32()));
  });

  it('nextInt stays in range and hits every value; nextFloat in [0, 1)', () => {
    const r = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = r.nextInt(7);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(7);
      seen.add(v);
      const f = r.nextFloat();
      expect(f >= 0 && f < 1).toBe(true);
    }
    expect(seen.size).toBe(7);
  });

  it('nextInt rejects a non-positive bound', () => {
    expect(() => createRng(1).nextInt(0)).toThrow(/positive integer/);
  });

  it('chance(p) is roughly p', () => {
    const r = createRng(5);
    let hits = 0;
    for (let i = 0; i < 10000; i++) if (r.chance(0.3)) hits++;
    expect(hits).toBeGreaterThan(2700);
    expect(hits).toBeLessThan(3300);
    expect(r.chance(0)).toBe(false);
    expect(r.chance(1)).toBe(true);
  });
});
