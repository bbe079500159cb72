// Callback-style iteration for controllers' multi-step syncs: each step runs after the previous
// one answered, as the sequential Go code upstream does with blocking client calls.

/** Runs step on each item in order; done after the last one called next. */
export function forEachSerial<T>(items: readonly T[], step: (item: T, next: () => void) => void, done: () => void): void {
  const go = (i: number): void => {
    const item = items[i];
    if (i >= items.length || item === undefined) return done();
    step(item, () => go(i + 1));
  };
  go(0);
}

/** The message of a failed REST response (the Status message, else the transport error). */
export function responseError(res: { code: number; body?: unknown; transportError?: string }): string {
  const body = res.body as { message?: unknown } | undefined;
  if (typeof body?.message === 'string') return body.message;
  return res.transportError ?? `the server responded with code ${res.code}`;
}
