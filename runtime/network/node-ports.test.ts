import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '../kernel/index.ts';
import { base64Decode, base64Encode, ERR_ALLOCATED, NodePortBitmap, notInRange, rangeOffset } from './node-ports.ts';

describe('rangeOffset (portallocator calculateRangeOffset: min(max(16, size/32), 128))', () => {
  it.each([
    [16, 0], // too small for a static band
    [17, 16], // size/32 = 0, raised to the minimum
    [2768, 86], // the default 30000-32767: 2768/32 = 86.5, truncated
    [4096, 128],
    [65536, 128], // capped at the maximum
  ])('a range of %i ports keeps %i for static allocation', (size, offset) => expect(rangeOffset(size)).toBe(offset));
});

describe('NodePortBitmap', () => {
  it('honours a free requested port, refuses a taken one and one out of range, with upstream texts', () => {
    const a = new NodePortBitmap();
    expect(a.allocate(30080)).toEqual({ ok: true });
    expect(a.allocate(30080)).toEqual({ ok: false, error: 'provided port is already allocated' });
    expect(ERR_ALLOCATED).toBe('provided port is already allocated');
    expect(a.allocate(29999)).toEqual({ ok: false, error: 'provided port is not in the valid range. The range of valid ports is 30000-32767' });
    expect(a.allocate(32768)).toEqual({ ok: false, error: notInRange(a.range) });
    expect(a.allocate(32767)).toEqual({ ok: true });
    a.release(30080);
    expect(a.allocate(30080)).toEqual({ ok: true });
  });

  it('picks random ports from the upper band while it has room, then from the lower one', () => {
    const a = new NodePortBitmap({ base: 30000, size: 20 }); // offset 16: upper band is 30016-30019
    const rng = createRng(2);
    const first = Array.from({ length: 4 }, () => a.allocateNext(rng)!);
    expect(first.every((p) => p >= 30016 && p <= 30019)).toBe(true);
    const rest = Array.from({ length: 16 }, () => a.allocateNext(rng)!);
    expect(rest.every((p) => p >= 30000 && p < 30016)).toBe(true);
    expect(new Set([...first, ...rest]).size).toBe(20);
    expect(a.allocateNext(rng)).toBeUndefined(); // range is full
  });

  it('is deterministic for a seed', () => {
    const run = (seed: number): number[] => {
      const a = new NodePortBitmap();
      const rng = createRng(seed);
      return Array.from({ length: 5 }, () => a.allocateNext(rng)!);
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });

  it.each<[string, number[], string]>([
    ['empty: no bytes', [], ''],
    ['the first port is the lowest bit of the last byte', [30000], 'AQ=='],
    ['30008 starts a second byte (big-endian, as big.Int.Bytes())', [30000, 30008], 'AQE='],
    ['30007 is the top bit of the only byte', [30007], 'gA=='],
  ])('snapshot: %s', (_name, ports, data) => {
    const a = new NodePortBitmap();
    for (const p of ports) a.allocate(p);
    expect(a.snapshot()).toBe(data);
    expect(NodePortBitmap.fromSnapshot(a.range, data).ports()).toEqual(ports);
  });

  it('a snapshot restores the same ports, and base64 round-trips (property)', () => {
    const seed = Date.now() % 100_000;
    console.log(`node port snapshot property seed ${seed}`);
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 30000, max: 32767 }), { maxLength: 60 }), (ports) => {
      const a = new NodePortBitmap();
      for (const p of ports) a.allocate(p);
      const back = NodePortBitmap.fromSnapshot(a.range, a.snapshot());
      const bytes = Uint8Array.from(ports.map((p) => p % 256));
      return JSON.stringify(back.ports()) === JSON.stringify([...ports].sort((x, y) => x - y))
        && JSON.stringify([...base64Decode(base64Encode(bytes))]) === JSON.stringify([...bytes]);
    }), { seed, numRuns: 100 });
  });

  it('never hands out a port twice (property)', () => {
    const seed = Date.now() % 100_000;
    console.log(`node port property seed ${seed}`);
    fc.assert(fc.property(fc.integer(), fc.array(fc.boolean(), { minLength: 1, maxLength: 200 }), (s, ops) => {
      const a = new NodePortBitmap();
      const rng = createRng(s);
      const live = new Set<number>();
      for (const allocate of ops) {
        if (allocate || live.size === 0) {
          const p = a.allocateNext(rng);
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
