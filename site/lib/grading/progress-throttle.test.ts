import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttleProgress } from './progress-throttle.ts';

describe('throttleProgress', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('delivers only the latest report of an interval, once', () => {
    const seen: string[] = [];
    const progress = throttleProgress((name: string) => seen.push(name), 50);
    progress.report('a');
    progress.report('b');
    progress.report('c');
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(seen).toEqual(['c']);
    vi.advanceTimersByTime(500);
    expect(seen).toEqual(['c']);
  });

  it('starts a new interval after a delivery', () => {
    const seen: number[] = [];
    const progress = throttleProgress((n: number) => seen.push(n), 50);
    progress.report(1);
    vi.advanceTimersByTime(50);
    progress.report(2);
    vi.advanceTimersByTime(49);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([1, 2]);
  });

  it('flush delivers a pending report at once; cancel drops it', () => {
    const seen: string[] = [];
    const progress = throttleProgress((name: string) => seen.push(name), 50);
    progress.report('x');
    progress.flush();
    expect(seen).toEqual(['x']);
    progress.flush();
    expect(seen).toEqual(['x']);
    progress.report('y');
    progress.cancel();
    vi.advanceTimersByTime(100);
    expect(seen).toEqual(['x']);
  });
});
