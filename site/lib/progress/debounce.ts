// Trailing-edge debounce for auto-saving editor content; flush() saves now (page hide, grading).
export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  flush(): void;
}

export function debounce<A extends unknown[]>(run: (...args: A) => void, delayMs: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending === undefined) return;
    const args = pending;
    pending = undefined;
    run(...args);
  };
  const debounced = (...args: A) => {
    pending = args;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  };
  return Object.assign(debounced, { flush });
}
