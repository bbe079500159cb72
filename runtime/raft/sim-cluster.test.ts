import { describe, expect, it } from 'vitest';
import { createKernel } from '../kernel/index.ts';
import { LogStateMachine, SimCluster } from './sim-cluster.ts';

function cluster(
  size: number,
  seed = 1,
  extra: Partial<ConstructorParameters<typeof SimCluster>[0]> = {},
) {
  const kernel = createKernel({ seed });
  const ids = Array.from({ length: size }, (_, i) => `n${i + 1}`);
  return new SimCluster({ kernel, ids, ...extra });
}

function applied(c: SimCluster, id: string): string[] {
  return (c.stateMachine(id) as LogStateMachine).applied;
}

describe('SimCluster', () => {
  for (const size of [1, 3, 5]) {
    it(`a ${size}-member cluster elects one leader and replicates proposals to every member`, () => {
      const c = cluster(size);
      expect(c.kernel.runUntil(() => c.leader() !== undefined, 100_000)).toBe(true);
      const leader = c.leader()!;
      for (let i = 0; i < 10; i++) expect(c.propose(leader, `cmd-${i}`)).toBeNull();
      c.kernel.runFor(1000);
      for (const id of c.ids)
        expect(applied(c, id)).toEqual(Array.from({ length: 10 }, (_, i) => `cmd-${i}`));
    });
  }

  it('a follower forwards proposals to the leader', () => {
    const c = cluster(3);
    c.kernel.runUntil(() => c.leader() !== undefined, 100_000);
    c.kernel.runFor(500);
    const follower = c.ids.find((id) => id !== c.leader())!;
    expect(c.propose(follower, 'via follower')).toBeNull();
    c.kernel.runFor(500);
    expect(applied(c, c.leader()!)).toEqual(['via follower']);
  });

  it('a crashed member restarts from its disk and catches up (snapshots and compaction on)', () => {
    const c = cluster(3, 2, { snapshotEvery: 5, snapshotCatchUpEntries: 2 });
    c.kernel.runUntil(() => c.leader() !== undefined, 100_000);
    const leader = c.leader()!;
    const victim = c.ids.find((id) => id !== leader)!;
    c.propose(leader, 'a');
    c.kernel.runFor(500);
    c.crash(victim);
    for (let i = 0; i < 30; i++) c.propose(leader, `b${i}`);
    c.kernel.runFor(500);
    expect(c.storage(leader).firstIndex()).toBeGreaterThan(5);
    c.restart(victim);
    c.kernel.runFor(2000);
    expect(applied(c, victim)).toEqual(applied(c, leader));
    expect(applied(c, victim).length).toBe(31);
  });

  it('ReadIndex calls back after the read index is applied', () => {
    const c = cluster(3);
    c.kernel.runUntil(() => c.leader() !== undefined, 100_000);
    const leader = c.leader()!;
    c.propose(leader, 'x');
    const follower = c.ids.find((id) => id !== leader)!;
    let readAt = -1;
    c.kernel.runFor(300);
    expect(c.readIndex(follower, 'r1', (idx) => (readAt = idx))).toBeNull();
    c.kernel.runFor(500);
    expect(readAt).toBeGreaterThanOrEqual(2);
    expect(applied(c, follower)).toEqual(['x']);
  });
});
