// Seeded Raft fault schedules (crashes, restarts, partitions, one-way blocks, loss, duplication,
// reordering), checked for Raft's safety properties and then for liveness after faults stop.
// Each seed is one runRaftSchedule(seed) (runtime/raft/schedule.ts); `npm test` runs 500 of them.
import { runRaftSchedule } from '../runtime/raft/index.ts';

export const name = 'raft';

export async function runSeed(
  seed: number,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const r = runRaftSchedule(seed);
  return r.ok ? { ok: true } : { ok: false, message: r.message };
}
