// 200 seeded chaos schedules (npm run soak -- --only cluster for more). A failure names its seed
// and fault log; replay it with runChaosSeed(seed).
import { expect, it } from 'vitest';
import { runChaosSeed } from './chaos.ts';

const SEEDS = 200;

it(`converges after random node, component and etcd faults (${SEEDS} seeds)`, { timeout: 300_000 }, async () => {
  const failures: string[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) {
    const r = await runChaosSeed(seed);
    if (!r.ok) failures.push(`${r.message}\n  replay: runChaosSeed(${seed}); faults: ${r.faults.slice(-10).join('; ')}`);
  }
  expect(failures).toEqual([]);
});
