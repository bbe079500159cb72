import { describe, expect, it } from 'vitest';
import { createKernel } from './kernel.ts';
import type { ProcessContext } from './process.ts';

describe('processes', () => {
  it('crash stops timers and the endpoint, keeps the disk; restart re-runs main over the disk', () => {
    const k = createKernel();
    const ticksByIncarnation: Record<number, number> = {};
    let volatileCounter = 0;
    const received: string[] = [];
    k.spawn('p', (ctx: ProcessContext) => {
      volatileCounter = 0; // memory starts fresh on every boot
      const boots = (ctx.disk.get<number>('boots') ?? 0) + 1;
      ctx.disk.set('boots', boots);
      ctx.every(10, () => {
        volatileCounter++;
        ticksByIncarnation[ctx.incarnation] = (ticksByIncarnation[ctx.incarnation] ?? 0) + 1;
      });
      ctx.onMessage<string>((m) => received.push(`${boots}:${m}`));
    });
    k.net.register('client', () => {});
    k.runFor(35);
    expect(volatileCounter).toBe(3);
    k.crash('p');
    k.net.send('client', 'p', 'while down');
    k.runFor(100);
    expect(Object.values(ticksByIncarnation)).toEqual([3]);
    expect(k.process('p')!.up).toBe(false);
    k.restart('p');
    expect(k.process('p')!.disk.get('boots')).toBe(2);
    k.net.send('client', 'p', 'after restart');
    k.runFor(25);
    expect(volatileCounter).toBe(2);
    expect(received).toEqual(['2:after restart']);
    const kinds = k.trace.events().map((e) => e.kind);
    expect(kinds).toContain('process.crash');
    expect(
      k.trace.events().some((e) => e.kind === 'net.drop' && e.detail.includes('endpoint down')),
    ).toBe(true);
  });

  it('a stale context cannot send or set timers after a crash', () => {
    const k = createKernel();
    let saved: ProcessContext | undefined;
    const got: unknown[] = [];
    k.net.register('sink', (m) => got.push(m));
    k.spawn('p', (ctx) => {
      saved ??= ctx;
    });
    k.crash('p');
    k.restart('p');
    saved!.send('sink', 'ghost');
    let fired = false;
    saved!.setTimer(1, () => (fired = true));
    k.runFor(10);
    expect(got).toEqual([]);
    expect(fired).toBe(false);
    expect(saved!.isLive()).toBe(false);
  });

  it('spawning a duplicate name throws', () => {
    const k = createKernel();
    k.spawn('p', () => {});
    expect(() => k.spawn('p', () => {})).toThrow(/already exists/);
  });
});
