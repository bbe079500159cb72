// npm run soak -- --only etcd --seeds 1000 [--from N]
// One seeded etcd fault schedule per seed (runtime/testing/etcd-faults), with a longer fault
// phase than the unit tests use. A failure message carries the fault log tail for the replay.
import { runEtcdSchedule } from '../runtime/testing/etcd-faults/index.ts';

export const name = 'etcd fault schedules';

export async function runSeed(seed: number): Promise<{ ok: true } | { ok: false; message: string }> {
  const r = runEtcdSchedule(seed, { faultPhaseMs: 15_000 });
  if (r.ok) return { ok: true };
  const faults = r.faults.slice(-8).join('; ');
  return { ok: false, message: `${r.message}\n  members=${r.members} ops=${r.operations} revision=${r.finalRevision} faults: ${faults}` };
}
