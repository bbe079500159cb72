// npm run soak -- --only cluster-ha --seeds 200 [--from N]
// HA whole-cluster chaos schedules (runtime/cluster/chaos.ts, topology 'ha': etcd leader and member
// kills, API server replica kills, minority, majority and no-quorum partitions) with a longer fault
// phase than the unit test uses. A failure message carries the seed and the fault log tail.
import { runChaosSeed } from '../runtime/cluster/index.ts';

export const name = 'cluster chaos (ha)';

export async function runSeed(seed: number): Promise<{ ok: true } | { ok: false; message: string }> {
  const r = await runChaosSeed(seed, { topology: 'ha', faultPhaseMs: 60_000, convergeMs: 180_000 });
  if (r.ok) return { ok: true };
  return { ok: false, message: `${r.message}\n  faults: ${r.faults.slice(-10).join('; ')}` };
}
