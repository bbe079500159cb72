// Kernel throughput: raw events per wall-clock second (a chain of timers), and simulated network
// messages per wall-clock second among 5 endpoints, with the trace off, hashing only, and full.
import { createKernel, type TraceOptions } from '../runtime/kernel/index.ts';

export const name = 'kernel';

function timerChain(events: number): number {
  const k = createKernel({ trace: { enabled: false } });
  let left = events;
  const next = (): void => {
    if (--left > 0) k.setTimer(1, next);
  };
  for (let i = 0; i < 100; i++) k.setTimer(i, next); // 100 concurrent chains keep the heap busy
  const t0 = performance.now();
  const ran = k.runUntilIdle();
  return ran / ((performance.now() - t0) / 1000);
}

function gossip(messages: number, trace: TraceOptions): number {
  const k = createKernel({
    seed: 7,
    trace,
    link: { lossRate: 0.01, duplicateRate: 0.01, reorderRate: 0.01 },
  });
  const names = ['a', 'b', 'c', 'd', 'e'];
  const rng = k.rng.fork('bench');
  let sent = 0;
  for (const n of names) {
    k.net.register<number>(n, (hop) => {
      if (sent < messages) {
        sent++;
        k.net.send(n, names[rng.nextInt(5)]!, hop + 1);
      }
    });
  }
  for (let i = 0; i < 200; i++) k.net.send('a', names[i % 5]!, 0);
  const t0 = performance.now();
  k.runUntilIdle();
  return k.net.stats.sent / ((performance.now() - t0) / 1000);
}

const best = (f: () => number): number => Math.round(Math.max(f(), f(), f()));

export async function run(): Promise<Record<string, number | string>> {
  timerChain(200_000); // warm up
  gossip(200_000, { enabled: false });
  return {
    'timer events per wall second (best of 3)': best(() => timerChain(2_000_000)),
    'network messages per wall second (trace off)': best(() =>
      gossip(1_000_000, { enabled: false }),
    ),
    'network messages per wall second (trace hash, no detail, no ring)': best(() =>
      gossip(1_000_000, { detail: false, capacity: 0 }),
    ),
    'network messages per wall second (full trace, 100k ring)': best(() =>
      gossip(1_000_000, { detail: true }),
    ),
  };
}
