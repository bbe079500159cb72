// Coalesces a grade's progress reports: a suite with many short tests sends two events per test,
// and re-rendering the results list for each kept the page's main thread busy for seconds (and
// with it the replies the worker waits for). At most one report per interval, always the latest.

export interface ProgressThrottle<T extends unknown[]> {
  /** Records the latest state; it is reported within `intervalMs`. */
  report(...args: T): void;
  /** Reports a pending state now (used when the run ends). */
  flush(): void;
  /** Drops a pending state. */
  cancel(): void;
}

export function throttleProgress<T extends unknown[]>(deliver: (...args: T) => void, intervalMs: number): ProgressThrottle<T> {
  let pending: T | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const args = pending;
    pending = undefined;
    if (args) deliver(...args);
  };
  return {
    report: (...args: T) => {
      pending = args;
      timer ??= setTimeout(flush, intervalMs);
    },
    flush,
    cancel: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}
