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

// The documented hash written with BigInt, so it shares no code with Trace:
// lane = (lane xor word) * prime mod 2^32; a string's hash folds its UTF-16 units from a basis.
const fold = (h: bigint, w: number, p: bigint): bigint => ((h ^ BigInt(w >>> 0)) * p) & 0xffffffffn;
const PA = 0x01000193n;
const PB = 0x5bd1e995n;
const str = (s: string, p: bigint, basis: bigint): number => {
  let h = basis;
  for (const u of s.split('').map((c) => c.charCodeAt(0))) h = fold(h, u, p);
  return Number(h);
};

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

  it('the empty trace hashes to the two bases; records change it', () => {
    const t = new Trace();
    expect(t.hash()).toBe('811c9dc59e3779b9');
    t.record(0, 'k', 'a', 'd');
    expect(t.hash()).not.toBe('811c9dc59e3779b9');
  });

  it('matches a plain implementation of the documented hash', () => {
    const records: [number, string, string, string][] = [
      [2 ** 33 + 70_000, 'kind', 'actor', 'detail \u00e9'], // a time above 2^32
      [5, 'kind', 'other', ''],
      [6, 'net.send', 'actor', 'to x: MsgApp'],
    ];
    let a = 0x811c9dc5n;
    let b = 0x9e3779b9n;
    const t = new Trace();
    for (const [time, kind, actor, detail] of records) {
      const words = [Math.floor(time / 2 ** 32), time % 2 ** 32];
      for (const w of words) [a, b] = [fold(a, w, PA), fold(b, w, PB)];
      for (const s of [kind, actor]) [a, b] = [fold(a, str(s, PA, 0x811c9dc5n), PA), fold(b, str(s, PB, 0x9e3779b9n), PB)];
      for (const u of [...detail.split('').map((c) => c.charCodeAt(0)), 0x0a]) [a, b] = [fold(a, u, PA), fold(b, u, PB)];
      t.record(time, kind, actor, detail);
    }
    expect(t.hash()).toBe(a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0'));
  });

  it('recordJoined folds the two detail parts\' string hashes and keeps head + tail', () => {
    let a = 0x811c9dc5n;
    let b = 0x9e3779b9n;
    for (const w of [0, 7]) [a, b] = [fold(a, w, PA), fold(b, w, PB)];
    for (const s of ['net.send', 'n1', 'to n2: ', 'MsgApp']) [a, b] = [fold(a, str(s, PA, 0x811c9dc5n), PA), fold(b, str(s, PB, 0x9e3779b9n), PB)];
    [a, b] = [fold(a, 0x0a, PA), fold(b, 0x0a, PB)];
    const t = new Trace();
    t.recordJoined(7, 'net.send', 'n1', 'to n2: ', 'MsgApp');
    expect(t.hash()).toBe(a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0'));
    expect(t.events()).toEqual([{ timeMs: 7, kind: 'net.send', actor: 'n1', detail: 'to n2: MsgApp' }]);
    const split = new Trace();
    split.recordJoined(7, 'net.send', 'n1', 'to n2: M', 'sgApp');
    expect(split.hash()).not.toBe(t.hash());
  });

  it('recordTokens hashes, keeps and reports exactly what recordJoined does (time past 2^32 ms too)', () => {
    const joined = new Trace({ capacity: 2 });
    const tokens = new Trace({ capacity: 2 });
    const seen: string[] = [];
    tokens.subscribe((e) => seen.push(`${e.timeMs} ${e.kind} ${e.actor} ${e.detail}`));
    const records: [number, string, string, string, string][] = [
      [7, 'net.send', 'n1', 'to n2: ', 'MsgApp'],
      [2 ** 33 + 5, 'net.deliver', 'n2', 'from n1: ', 'MsgApp'],
      [2 ** 33 + 6, 'net.send', 'é€😀', 'to n1: ', ''],
    ];
    for (const [time, kind, actor, head, tail] of records) {
      joined.recordJoined(time, kind, actor, head, tail);
      tokens.recordTokens(time, tokens.token(kind), tokens.token(actor), tokens.token(head), tail);
      expect(tokens.hash()).toBe(joined.hash());
    }
    expect(tokens.events()).toEqual(joined.events());
    expect(seen).toEqual(records.map(([t, k, a, h, d]) => `${t} ${k} ${a} ${h}${d}`));
    const noDetail = new Trace({ detail: false });
    noDetail.recordTokens(1, noDetail.token('k'), noDetail.token('a'), noDetail.token('h'), 't');
    const plain = new Trace({ detail: false });
    plain.record(1, 'k', 'a');
    expect(noDetail.hash()).toBe(plain.hash());
  });

  it('tells apart records that differ only in where kind and actor split', () => {
    const h = (kind: string, actor: string): string => {
      const t = new Trace();
      t.record(1, kind, actor, 'd');
      return t.hash();
    };
    expect(h('ab', 'c')).not.toBe(h('a', 'bc'));
    expect(h('k', 'a')).not.toBe(h('a', 'k'));
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
