// 150 seeded single-node chaos schedules (chaos-ha.test.ts runs 50 more on the HA topology;
// `npm run soak -- --only cluster --seeds N` runs longer ones). A failure names its seed and fault
// log; replay it with runChaosSeed(seed).
import { expect, it } from 'vitest';
import { runChaosSeed } from './chaos.ts';

const SEEDS = 150;

it(`single-node: converges after random node, component, etcd and partition faults (${SEEDS} seeds)`, { timeout: 900_000 }, async () => {
  const failures: string[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) {
    const r = await runChaosSeed(seed, { topology: 'single-node' });
    if (!r.ok) failures.push(`${r.message}\n  replay: runChaosSeed(${seed}, { topology: 'single-node' }); faults: ${r.faults.slice(-10).join('; ')}`);
  }
  expect(failures).toEqual([]);
});
