// The injectable commit rule (commit-rule.ts, Config.commitRule) and the 'figure8' schedule family.
// Tables: etcd-io/raft raft_test.go TestCommit (as behaviour) and quorum/majority.go
// CommittedIndex. Then the point of the family: with the term check of raftLog.maybeCommit removed
// (the rule injected as that mutant), the seeded schedules themselves report a safety violation,
// while the correct rule passes the same seeds.
import { describe, expect, it } from 'vitest';
import {
  REPLAY_HINT,
  defaultCommitRule,
  majorityIndex,
  runRaftSchedule,
  type CommitRule,
  type CommitState,
} from './index.ts';
import { newTestRaft } from './test-network.ts';

/** A one-member cluster whose leader commits its empty entry through `rule`. */
function forceLeaderForTest(rule: CommitRule): void {
  const r = newTestRaft('n1', ['n1'], { commitRule: rule });
  r.becomeCandidate();
  r.becomeLeader();
}

function state(match: number[], terms: number[], term: number, committed = 0): CommitState {
  return {
    leader: 'n1',
    match: Object.fromEntries(match.map((m, i) => [`n${i + 1}`, m])),
    committed,
    term,
    termAt: (i) => terms[i - 1] ?? 0,
  };
}

describe('defaultCommitRule (quorum index, then the current-term check)', () => {
  // TestCommit: [matches, log terms, leader term, expected commit]
  const table: [number[], number[], number, number][] = [
    [[1], [1], 1, 1],
    [[1], [1], 2, 0],
    [[2], [1, 2], 2, 2],
    [[1], [2], 2, 1],
    [[2, 1, 1], [1, 2], 1, 1],
    [[2, 1, 1], [1, 1], 2, 0],
    [[2, 1, 2], [1, 2], 2, 2],
    [[2, 1, 2], [1, 1], 2, 0],
    [[2, 1, 1, 1], [1, 2], 1, 1],
    [[2, 1, 1, 1], [1, 1], 2, 0],
    [[2, 1, 1, 2], [1, 2], 1, 1],
    [[2, 1, 1, 2], [1, 1], 2, 0],
    [[2, 1, 2, 2], [1, 2], 2, 2],
    [[2, 1, 2, 2], [1, 1], 2, 0],
  ];
  for (const [match, terms, term, want] of table) {
    it(`matches [${match}], log terms [${terms}], term ${term} -> ${want}`, () => {
      expect(defaultCommitRule(state(match, terms, term))).toBe(want);
    });
  }

  it('majorityIndex: the highest index a majority stores; an empty config commits everything', () => {
    expect(majorityIndex({})).toBe(Number.MAX_SAFE_INTEGER);
    expect(majorityIndex({ a: 7 })).toBe(7);
    expect(majorityIndex({ a: 10, b: 5 })).toBe(5);
    expect(majorityIndex({ a: 10, b: 9, c: 2 })).toBe(9);
    expect(majorityIndex({ a: 100, b: 9, c: 2, d: 10 })).toBe(9);
    expect(defaultCommitRule({ ...state([], [1], 1, 1), match: {} })).toBe(1);
  });

  it('never moves commit back', () => {
    expect(defaultCommitRule(state([3, 1, 1], [1, 1, 1], 1, 2))).toBe(2);
  });
});

/** The mutant the family exists for: raftLog.maybeCommit without its term check. */
const noTermCheck: CommitRule = (s) => {
  const q = majorityIndex(s.match);
  return q > s.committed && q !== Number.MAX_SAFE_INTEGER ? q : s.committed;
};

describe('Raft with an injected commit rule', () => {
  it('the default rule injected behaves exactly as the built-in one (same trace, both families)', () => {
    for (const seed of [3, 11, 26]) {
      for (const family of ['mixed', 'figure8'] as const) {
        const trace = { detail: true, capacity: 0 };
        const a = runRaftSchedule(seed, { family, trace });
        const b = runRaftSchedule(seed, { family, trace, commitRule: defaultCommitRule });
        expect(b.traceHash, `seed ${seed}, ${family}`).toBe(a.traceHash);
        expect(a.ok, a.message).toBe(true);
      }
    }
  });

  it('a rule that moves commit back or past the last index is refused with a clear error', () => {
    const back: CommitRule = (s) => s.committed - 1;
    expect(() => forceLeaderForTest(back)).toThrow(/commit never moves back/);
    const past: CommitRule = (s) => Math.max(...Object.values(s.match)) + 5;
    expect(() => forceLeaderForTest(past)).toThrow(/cannot pass the last index/);
  });
});

describe("the 'figure8' schedule family", () => {
  const SEEDS = 40;

  it(`the correct rule passes seeds 1..${SEEDS} of the family`, () => {
    const failures: string[] = [];
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = runRaftSchedule(seed, { family: 'figure8' });
      expect(r.family).toBe('figure8');
      if (!r.ok) failures.push(r.message);
    }
    expect(failures).toEqual([]);
  });

  it('finds the missing term check on its own: most seeds of the family report a safety violation', () => {
    const caught: number[] = [];
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = runRaftSchedule(seed, { family: 'figure8', commitRule: noTermCheck });
      if (!r.ok) {
        expect(r.message).toMatch(/Leader Completeness|State Machine Safety|Log Matching/);
        caught.push(seed);
      }
    }
    expect(caught[0], 'the first seed that catches it').toBe(1);
    expect(caught.length).toBeGreaterThanOrEqual(SEEDS * 0.8);
  });

  it('and so does the soak: runRaftSchedule(seed) with default options catches it within 10 seeds', () => {
    let first = 0;
    for (let seed = 1; seed <= 10 && first === 0; seed++) {
      const r = runRaftSchedule(seed, { commitRule: noTermCheck });
      if (!r.ok) {
        expect(r.family).toBe('figure8');
        expect(r.message).toContain(REPLAY_HINT(seed));
        first = seed;
      }
    }
    expect(first, 'first default seed that catches the mutant').toBeGreaterThan(0);
    // The same seeds with the correct rule pass.
    for (let seed = 1; seed <= first; seed++) expect(runRaftSchedule(seed).ok).toBe(true);
  });

  it('one default seed in five runs the family, without changing the other seeds', () => {
    let figure8 = 0;
    for (let seed = 1; seed <= 100; seed++) {
      if (runRaftSchedule(seed, { faultPhaseMs: 0, leaderWithinMs: 0 }).family === 'figure8') figure8++;
    }
    expect(figure8).toBeGreaterThan(10);
    expect(figure8).toBeLessThan(30);
  });
});
