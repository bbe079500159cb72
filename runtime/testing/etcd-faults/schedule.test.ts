import { describe, expect, it } from 'vitest';
import { ETCD_REPLAY_HINT, runEtcdSchedule } from './schedule.ts';

// 300 seeded schedules with a short fault phase (the soak runs longer ones). A failure prints the
// seed, what broke, the last faults, and the command that replays it.
const SEEDS = 300;
const FIRST_SEED = 1;

describe('etcd under seeded faults (crashes, partitions, loss, duplication, reordering)', () => {
  it(`stays linearizable, loses no acknowledged write, keeps watches whole, and recovers (${SEEDS} seeds)`, () => {
    const failures: string[] = [];
    for (let seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
      const r = runEtcdSchedule(seed, { faultPhaseMs: 4000, clients: 3 });
      if (!r.ok) failures.push(`seed ${seed}: ${r.message}\n  faults: ${r.faults.slice(-6).join('; ')}\n  ${ETCD_REPLAY_HINT(seed)}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('replays a seed exactly: same trace hash, same history size', () => {
    for (const seed of [7, 8]) {
      const a = runEtcdSchedule(seed, { faultPhaseMs: 3000 });
      const b = runEtcdSchedule(seed, { faultPhaseMs: 3000 });
      expect(a.traceHash).toBe(b.traceHash);
      expect(a.operations).toBe(b.operations);
      expect(a.traceHash).not.toBe('');
    }
    expect(runEtcdSchedule(7, { faultPhaseMs: 3000 }).traceHash).not.toBe(runEtcdSchedule(8, { faultPhaseMs: 3000 }).traceHash);
  });

  it('does real work under faults (the schedules are not vacuous)', () => {
    const results = [1, 2, 3, 4, 5, 6].map((seed) => runEtcdSchedule(seed, { faultPhaseMs: 4000 }));
    for (const r of results) {
      expect(r.ok).toBe(true);
      expect(r.operations).toBeGreaterThan(30);
      expect(r.acknowledgedWrites).toBeGreaterThan(10);
      expect(r.faults.length).toBeGreaterThan(2);
    }
    expect(results.some((r) => r.compactRevision > 1)).toBe(true);
    expect(results.some((r) => r.indeterminate > 0)).toBe(true);
  });
});
