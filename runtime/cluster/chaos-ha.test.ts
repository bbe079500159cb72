// 50 seeded HA chaos schedules (3 control-plane machines with stacked etcd, 3 API servers behind
// the load balancer, 2 workers, a Deployment of 4): etcd leader and member kills, API server
// replica kills, minority, majority and no-quorum partitions. With chaos.test.ts's 150 single-node
// seeds, 200 in all. A failure names its seed and fault log; replay it with
// runChaosSeed(seed, { topology: 'ha' }).
import { expect, it } from 'vitest';
import { runChaosSeed } from './chaos.ts';

const SEEDS = 50;
/**
 * Seeds `npm run soak` (its longer schedule: 60 s of faults, 180 s to converge) found failing, kept
 * here so they stay fixed: 90 (a kubectl list reached a replica restarted 20 ms earlier, still
 * filling its caches) and 319 (a kubelet's pod status write failed during an etcd outage and was
 * never tried again, so its pods stayed ContainerCreating).
 */
const REGRESSION_SEEDS = [90, 319];

it(`ha: the seeds the soak found failing converge (${REGRESSION_SEEDS.join(', ')})`, { timeout: 120_000 }, async () => {
  const failures: string[] = [];
  for (const seed of REGRESSION_SEEDS) {
    const r = await runChaosSeed(seed, { topology: 'ha', faultPhaseMs: 60_000, convergeMs: 180_000 });
    if (!r.ok) failures.push(`${r.message}\n  replay: runChaosSeed(${seed}, { topology: 'ha' }); faults: ${r.faults.slice(-10).join('; ')}`);
  }
  expect(failures).toEqual([]);
});

it(`ha: converges after etcd, API server and partition faults, and the etcd members agree (${SEEDS} seeds)`, { timeout: 1_500_000 }, async () => {
  const failures: string[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) {
    const r = await runChaosSeed(seed, { topology: 'ha' });
    if (!r.ok) failures.push(`${r.message}\n  replay: runChaosSeed(${seed}, { topology: 'ha' }); faults: ${r.faults.slice(-10).join('; ')}`);
  }
  expect(failures).toEqual([]);
});
