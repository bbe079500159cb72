import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock.ts';
import { createKernel } from './kernel.ts';

describe('VirtualClock', () => {
  it('starts at 0 and moves forward', () => {
    const c = new VirtualClock();
    expect(c.now()).toBe(0);
    c.advanceTo(5);
    c.advanceTo(5);
    expect(c.now()).toBe(5);
  });

  it('refuses to go backwards, naming the invariant', () => {
    const c = new VirtualClock();
    c.advanceTo(10);
    expect(() => c.advanceTo(9)).toThrow(/virtual clock is monotonic/);
  });

  it('refuses fractional time', () => {
    expect(() => new VirtualClock().advanceTo(1.5)).toThrow(/integer milliseconds/);
  });

  it('kernel.runUntil to the past throws', () => {
    const k = createKernel();
    k.runFor(100);
    expect(() => k.runUntil(50)).toThrow(/monotonic/);
  });
});
