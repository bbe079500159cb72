// Drives a callback-based etcd call to completion on the kernel (for tests and benches only).
import type { Kernel } from '../../kernel/index.ts';
import type { Result } from '../errors.ts';

export function callSync<T>(kernel: Kernel, start: (cb: (r: Result<T>) => void) => void, budgetEvents = 5_000_000): Result<T> {
  let out: Result<T> | undefined;
  start((r) => {
    out = r;
  });
  kernel.runUntil(() => out !== undefined, budgetEvents);
  if (out === undefined) throw new Error('test helper invariant: the call never completed (the client must always call back)');
  return out;
}

/** Runs until a leader exists (or the time budget passes); returns its name. */
export function waitForLeader(kernel: Kernel, leader: () => string | undefined, maxMs = 10_000): string | undefined {
  const until = kernel.now() + maxMs;
  while (kernel.now() < until) {
    const l = leader();
    if (l) return l;
    kernel.runFor(50);
  }
  return leader();
}
