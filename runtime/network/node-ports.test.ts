import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '../kernel/index.ts';
import { ERR_ALLOCATED, NodePortAllocator, notInRange, rangeOffset } from './node-ports.ts';

describe('rangeOffset (portallocator calculateRangeOffset: min(max(16, size/32), 128))', () => {
  it.each([
    [16, 0], // too small for a static band
    [17, 16], // size/32 = 0, raised to the minimum
    [2768, 86], // the default 30000-32767: 2768/32 = 86.5, truncated
    [4096, 128],
    [65536, 128], // capped at the maximum
  ])('a range of %i ports keeps %i for static allocation', (size, offset) => expect(rangeOffset(size)).toBe(offset));
});

describe('NodePortAllocator', () => {
  it('honours a free requested port, refuses a taken one and one out of range, with upstream texts', () => {
    const a = new NodePortAllocator(createRng(1));
    expect(a.allocate(30080, 'ns/a')).toEqual({ ok: true });
    expect(a.allocate(30080, 'ns/b')).toEqual({ ok: false, error: 'provided port is already allocated' });
    expect(ERR_ALLOCATED).toBe('provided port is already allocated');
    expect(a.allocate(29999, 'ns/b')).toEqual({ ok: false, error: 'provided port is not in the valid range. The range of valid ports is 30000-32767' });
    expect(a.allocate(32768, 'ns/b')).toEqual({ ok: false, error: notInRange(a.range) });
    expect(a.allocate(32767, 'ns/b')).toEqual({ ok: true });
    // the same owner asking again (a retried write) is not a conflict
    expect(a.allocate(30080, 'ns/a')).toEqual({ ok: true });
    a.release(30080);
    expect(a.allocate(30080, 'ns/b')).toEqual({ ok: true });
  });

  it('picks random ports from the upper band (30086-32767) while it has room, then from the lower one', () => {
    const a = new NodePortAllocator(createRng(2), { base: 30000, size: 20 }); // offset 16: upper band is 30016-30019
    const first = Array.from({ length: 4 }, () => a.allocateNext('o')!);
    expect(first.every((p) => p >= 30016 && p <= 30019)).toBe(true);
    const rest = Array.from({ length: 16 }, () => a.allocateNext('o')!);
    expect(rest.every((p) => p >= 30000 && p < 30016)).toBe(true);
    expect(new Set([...first, ...rest]).size).toBe(20);
    expect(a.allocateNext('o')).toBeUndefined(); // range is full
  });

  it('is deterministic for a seed', () => {
    const run = (seed: number): number[] => {
      const a = new NodePortAllocator(createRng(seed));
      return Array.from({ length: 5 }, () => a.allocateNext('o')!);
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });

  it('keeps pending and committed ports per owner; rename moves them', () => {
    const a = new NodePortAllocator(createRng(3));
    a.allocate(30001, 'ns/a');
    a.allocate(30002, 'ns/a');
    a.commit('ns/a', [30001]);
    expect(a.ownedBy('ns/a')).toEqual([30001, 30002]);
    expect(a.ownedBy('ns/a', 'pending')).toEqual([30002]);
    a.rename('ns/a', 'ns/b');
    expect(a.ownerOf(30001)).toBe('ns/b');
    // a port nobody holds is claimed on commit (the allocator forgot it); another owner's is left alone
    a.allocate(30003, 'ns/c');
    a.commit('ns/b', [30003, 30004]);
    expect(a.ownerOf(30003)).toBe('ns/c');
    expect(a.ownerOf(30004)).toBe('ns/b');
  });

  it('never hands out a port twice (property)', () => {
    const seed = Date.now() % 100_000;
    console.log(`node port property seed ${seed}`);
    fc.assert(fc.property(fc.integer(), fc.array(fc.boolean(), { minLength: 1, maxLength: 200 }), (s, ops) => {
      const a = new NodePortAllocator(createRng(s));
      const live = new Set<number>();
      for (const allocate of ops) {
        if (allocate || live.size === 0) {
          const p = a.allocateNext('o');
          if (p === undefined || live.has(p) || p < 30000 || p > 32767) return false;
          live.add(p);
        } else {
          const p = [...live][0]!;
          a.release(p);
          live.delete(p);
        }
      }
      return a.used === live.size;
    }), { seed, numRuns: 50 });
  });
});
