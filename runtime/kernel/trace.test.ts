import { describe, expect, it } from 'vitest';
import { createKernel } from './kernel.ts';
import { Trace } from './trace.ts';

/** A busy network: 5 endpoints gossiping with loss, duplication, reordering and a partition. */
function busyRun(seed: number, detail = true): { hash: string; count: number } {
  const k = createKernel({
    seed,
    trace: { detail, capacity: 1000 },
    link: { lossRate: 0.1, duplicateRate: 0.05, reorderRate: 0.1 },
  });
  const names = ['n1', 'n2', 'n3', 'n4', 'n5'];
  const rng = k.rng.fork('gossip');
  for (const n of names) {
    k.net.register<number>(n, (hop) => {
      if (hop < 20) k.net.send(n, names[rng.nextInt(names.length)]!, hop + 1);
    });
  }
  for (let i = 0; i < 50; i++) k.net.send('n1', names[i % 5]!, 0);
  k.setTimer(20, () =>
    k.net.partition([
      ['n1', 'n2'],
      ['n3', 'n4', 'n5'],
    ]),
  );
  k.setTimer(60, () => k.net.heal());
  k.runFor(1000);
  return { hash: k.trace.hash(), count: k.trace.count };
}

describe('trace', () => {
  it('same seed and inputs give the same trace hash, twice in a row', () => {
    const a = busyRun(11);
    const b = busyRun(11);
    expect(a.count).toBeGreaterThan(500);
    expect(a).toEqual(b);
  });

  it('a different seed gives a different hash', () => {
    expect(busyRun(11).hash).not.toBe(busyRun(12).hash);
  });

  it('detail off changes the hash but not determinism', () => {
    expect(busyRun(5, false)).toEqual(busyRun(5, false));
    expect(busyRun(5, false).hash).not.toBe(busyRun(5, true).hash);
  });

  it('FNV-1a 64 of the empty trace is the offset basis; records change it', () => {
    const t = new Trace();
    expect(t.hash()).toBe('cbf29ce484222325');
    t.record(0, 'k', 'a', 'd');
    expect(t.hash()).not.toBe('cbf29ce484222325');
  });

  it('matches a BigInt FNV-1a 64 over the documented canonical serialization', () => {
    const timeMs = 2 ** 33 + 70_000; // exercises every 16-bit unit of the time
    const units = [
      0,
      2,
      1,
      70_000 - 65_536,
      ...[...'kind\tactor\tdetail \u00e9\n'].map((c) => c.charCodeAt(0)),
    ];
    let h = 0xcbf29ce484222325n;
    for (const u of units) h = ((h ^ BigInt(u)) * 0x100000001b3n) & 0xffffffffffffffffn;
    const t = new Trace();
    t.record(timeMs, 'kind', 'actor', 'detail \u00e9');
    expect(t.hash()).toBe(h.toString(16).padStart(16, '0'));
  });

  it('the ring buffer keeps the most recent records in order', () => {
    const t = new Trace({ capacity: 3 });
    for (let i = 0; i < 5; i++) t.record(i, 'k', 'a', String(i));
    expect(t.events().map((e) => e.detail)).toEqual(['2', '3', '4']);
    expect(t.count).toBe(5);
  });

  it('disabled trace records nothing', () => {
    const t = new Trace({ enabled: false });
    t.record(0, 'k', 'a');
    expect(t.count).toBe(0);
    expect(t.events()).toEqual([]);
  });
});
