import { describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from './kernel.ts';

function recorder(k: Kernel, names: string[]) {
  const got: Record<string, { msg: unknown; from: string; at: number }[]> = {};
  for (const n of names) {
    got[n] = [];
    k.net.register(n, (msg, from) => got[n]!.push({ msg, from, at: k.now() }));
  }
  return got;
}

describe('SimNetwork', () => {
  it('delivers after latency +/- jitter (integer ms)', () => {
    const k = createKernel({ seed: 3, link: { latencyMs: 10, jitterMs: 2 } });
    const got = recorder(k, ['a', 'b']);
    for (let i = 0; i < 200; i++) k.net.send('a', 'b', i);
    k.runFor(100);
    expect(got.b!.length).toBe(200);
    const ats = new Set(got.b!.map((d) => d.at));
    for (const at of ats) expect(at >= 8 && at <= 12).toBe(true);
    expect(ats.size).toBe(5);
  });

  it("an endpoint's epoch changes each time it goes down or up (a connection does not survive a restart)", () => {
    const k = createKernel();
    recorder(k, ['a']);
    const up = k.net.epoch('a');
    expect(up).toBeGreaterThan(0);
    expect(k.net.epoch('a')).toBe(up);
    k.net.setHandler('a', null);
    const down = k.net.epoch('a');
    k.net.setHandler('a', () => {});
    expect(new Set([up, down, k.net.epoch('a')]).size).toBe(3);
    expect(k.net.epoch('never-registered')).toBe(0);
  });

  it('loses roughly lossRate of messages and counts drops', () => {
    const k = createKernel({ seed: 4, link: { lossRate: 0.25 } });
    const got = recorder(k, ['a', 'b']);
    for (let i = 0; i < 4000; i++) k.net.send('a', 'b', i);
    k.runFor(100);
    expect(got.b!.length).toBeGreaterThan(2800);
    expect(got.b!.length).toBeLessThan(3200);
    expect(k.net.stats.dropped + got.b!.length).toBe(4000);
  });

  it('duplicates with duplicateRate 1 (every message twice)', () => {
    const k = createKernel({ link: { duplicateRate: 1 } });
    const got = recorder(k, ['a', 'b']);
    k.net.send('a', 'b', 'x');
    k.runFor(100);
    expect(got.b!.map((d) => d.msg)).toEqual(['x', 'x']);
  });

  it('reorders: with reordering some later sends arrive first', () => {
    const k = createKernel({
      seed: 8,
      link: { jitterMs: 0, reorderRate: 0.5, reorderDelayMsMax: 50 },
    });
    const got = recorder(k, ['a', 'b']);
    for (let i = 0; i < 50; i++) k.net.send('a', 'b', i);
    k.runFor(200);
    const order = got.b!.map((d) => d.msg as number);
    expect(order.length).toBe(50);
    expect(order).not.toEqual([...order].sort((x, y) => x - y));
  });

  it('without jitter or reordering a link is FIFO', () => {
    const k = createKernel({ link: { jitterMs: 0 } });
    const got = recorder(k, ['a', 'b']);
    for (let i = 0; i < 50; i++) k.net.send('a', 'b', i);
    k.runFor(10);
    expect(got.b!.map((d) => d.msg)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('symmetric partition cuts both ways; unlisted endpoints are unaffected; heal restores', () => {
    const k = createKernel();
    const got = recorder(k, ['a', 'b', 'c', 'client']);
    k.net.partition([['a', 'b'], ['c']]);
    k.net.send('a', 'c', 'ac');
    k.net.send('c', 'a', 'ca');
    k.net.send('a', 'b', 'ab');
    k.net.send('client', 'c', 'client-c');
    k.net.send('client', 'a', 'client-a');
    k.runFor(10);
    expect(got.c!.map((d) => d.msg)).toEqual(['client-c']);
    expect(got.a!.map((d) => d.msg)).toEqual(['client-a']);
    expect(got.b!.map((d) => d.msg)).toEqual(['ab']);
    k.net.heal();
    k.net.send('a', 'c', 'after heal');
    k.runFor(10);
    expect(got.c!.map((d) => d.msg)).toEqual(['client-c', 'after heal']);
  });

  it('a partition also drops messages already in flight', () => {
    const k = createKernel({ link: { latencyMs: 10, jitterMs: 0 } });
    const got = recorder(k, ['a', 'b']);
    k.net.send('a', 'b', 'in flight');
    k.runFor(5);
    k.net.partition([['a'], ['b']]);
    k.runFor(10);
    expect(got.b!).toEqual([]);
  });

  it('one-way block drops from -> to only', () => {
    const k = createKernel();
    const got = recorder(k, ['a', 'b']);
    k.net.block('a', 'b');
    k.net.send('a', 'b', 'ab');
    k.net.send('b', 'a', 'ba');
    k.runFor(10);
    expect(got.b!).toEqual([]);
    expect(got.a!.map((d) => d.msg)).toEqual(['ba']);
    k.net.unblock('a', 'b');
    k.net.send('a', 'b', 'ab2');
    k.runFor(10);
    expect(got.b!.map((d) => d.msg)).toEqual(['ab2']);
  });

  it('messages to unregistered endpoints are dropped and traced', () => {
    const k = createKernel();
    recorder(k, ['a']);
    k.net.send('a', 'nobody', { type: 'Ping' });
    k.runFor(10);
    const drops = k.trace.events().filter((e) => e.kind === 'net.drop');
    expect(drops).toEqual([
      {
        timeMs: expect.any(Number),
        kind: 'net.drop',
        actor: 'a',
        detail: 'to nobody (no such endpoint): Ping',
      },
    ]);
  });

  it('per-link settings override the defaults for that direction only', () => {
    const k = createKernel({ link: { jitterMs: 0 } });
    const got = recorder(k, ['a', 'b']);
    k.net.setLink('a', 'b', { latencyMs: 30 });
    k.net.send('a', 'b', 1);
    k.net.send('b', 'a', 2);
    k.runFor(100);
    expect(got.b![0]!.at).toBe(30);
    expect(got.a![0]!.at).toBe(2);
  });

  it('rejects invalid link settings', () => {
    const k = createKernel();
    expect(() => k.net.configure({ lossRate: 2 })).toThrow(/probability/);
    expect(() => k.net.configure({ latencyMs: 1.5 })).toThrow(/non-negative integer/);
  });
});
