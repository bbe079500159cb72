// Property-style: seeded fault schedules (crashes, restarts, symmetric and one-way partitions,
// loss, duplication, reordering) must keep Raft safe (Election Safety, Log Matching, Leader
// Completeness, State Machine Safety) and live once the faults stop. 500 seeds per run (about one
// in five runs the 'figure8' family, see commit-rule.test.ts); a failure names its seed and the
// replay command.
import { describe, expect, it } from 'vitest';
import { REPLAY_HINT, runRaftSchedule } from './schedule.ts';

const SEEDS = 500;
const BATCH = 50;

describe('seeded fault schedules', () => {
  for (let from = 1; from <= SEEDS; from += BATCH) {
    it(`seeds ${from}..${from + BATCH - 1} stay safe and recover`, () => {
      const failures: string[] = [];
      for (let seed = from; seed < from + BATCH; seed++) {
        const r = runRaftSchedule(seed);
        if (!r.ok) failures.push(`seed ${seed}: ${r.message}`);
      }
      expect(failures).toEqual([]);
    });
  }

  it('the schedules do real work: leaders change, entries commit, messages flow', () => {
    let committed = 0;
    let leaderChanges = 0;
    let confChanges = 0;
    const sizes = new Set<number>();
    for (let seed = 1; seed <= 20; seed++) {
      const r = runRaftSchedule(seed, { family: 'mixed' });
      committed += r.committed;
      leaderChanges += r.leaderChanges;
      confChanges += r.confChanges;
      sizes.add(r.members);
      if (r.members > 1) expect(r.messages).toBeGreaterThan(100);
    }
    expect(committed).toBeGreaterThan(20 * 20);
    expect(leaderChanges).toBeGreaterThan(20 * 2);
    expect(confChanges).toBeGreaterThan(3);
    expect([...sizes].sort()).toEqual([1, 3, 5]);
  });

  it('the same seed gives the same trace hash twice', () => {
    const a = runRaftSchedule(77, { trace: { detail: true, capacity: 0 } });
    const b = runRaftSchedule(77, { trace: { detail: true, capacity: 0 } });
    expect(a.traceHash).toBe(b.traceHash);
    expect(a).toEqual(b);
    expect(runRaftSchedule(78, { trace: { detail: true, capacity: 0 } }).traceHash).not.toBe(
      a.traceHash,
    );
  });

  it('failures say how to replay', () => {
    expect(REPLAY_HINT(42)).toBe('replay: npm run soak -- --only raft --from 42 --seeds 1');
  });
});
