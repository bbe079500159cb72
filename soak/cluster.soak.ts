// npm run soak -- --only cluster --seeds 1000 [--from N]   (also runs cluster-ha.soak.ts)
// Single-node whole-cluster chaos schedules (runtime/cluster/chaos.ts) with a longer fault phase
// than the unit test uses. A failure message carries the seed and the fault log tail for the replay.
import { runChaosSeed } from '../runtime/cluster/index.ts';

export const name = 'cluster chaos (single-node)';

export async function runSeed(seed: number): Promise<{ ok: true } | { ok: false; message: string }> {
  const r = await runChaosSeed(seed, { topology: 'single-node', faultPhaseMs: 60_000, convergeMs: 180_000 });
  if (r.ok) return { ok: true };
  return { ok: false, message: `${r.message}\n  faults: ${r.faults.slice(-10).join('; ')}` };
}
