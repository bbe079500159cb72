import { afterEach, describe, expect, it, vi } from 'vitest';
import { debounce } from './debounce.ts';

afterEach(() => vi.useRealTimers());

describe('debounce', () => {
  it('runs once with the last arguments after the delay', () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const save = debounce((text: string) => calls.push(text), 500);
    save('a');
    vi.advanceTimersByTime(300);
    save('ab');
    vi.advanceTimersByTime(499);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['ab']);
  });

  it('flush runs the pending call now, and only once', () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const save = debounce((text: string) => calls.push(text), 500);
    save('x');
    save.flush();
    save.flush();
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual(['x']);
  });
});
