// Visible examples for the raft-commit lab: read them, run them, add your own.
// `npm run grade -- raft-commit --examples`
import { describe, expect, it } from 'vitest';
import type { CommitState } from '../../runtime/raft/index.ts';
import { leaderCommitIndex } from '@lab/submission';

/** A leader n1 whose log has entry i of term terms[i - 1]; match[k] is n(k+1)'s match index. */
function state(match: number[], terms: number[], term: number, committed = 0): CommitState {
  return {
    leader: 'n1',
    match: Object.fromEntries(match.map((m, i) => [`n${i + 1}`, m])),
    committed,
    term,
    termAt: (i) => terms[i - 1] ?? 0,
  };
}

describe('leaderCommitIndex examples', () => {
  it('three voters: an entry of the current term on two of them is committed', () => {
    // n1 (the leader) and n2 store index 2; n3 only index 1.
    expect(leaderCommitIndex(state([2, 2, 1], [1, 1], 1))).toBe(2);
  });

  it('a single voter commits its own last entry', () => {
    expect(leaderCommitIndex(state([3], [1, 1, 1], 1))).toBe(3);
  });

  it('four voters need three copies', () => {
    // 7 is on two of four (not a majority); 5 is on three.
    expect(leaderCommitIndex(state([7, 7, 5, 1], [1, 1, 1, 1, 1, 1, 1], 1))).toBe(5);
  });

  it('an entry of an older term is not committed by counting (Figure 8)', () => {
    // Leader of term 3 with log [t1, t2, t3]: index 2 is on all three members, but of term 2.
    expect(leaderCommitIndex(state([3, 2, 2], [1, 2, 3], 3))).toBe(0);
    // Once index 3 (term 3) is on a majority, 3 commits, and 1 and 2 with it.
    expect(leaderCommitIndex(state([3, 3, 2], [1, 2, 3], 3))).toBe(3);
  });

  it('commit never moves back', () => {
    // A new leader does not know its followers' logs yet: their match indexes are 0.
    expect(leaderCommitIndex(state([8, 0, 0], [1, 1, 1, 1, 1, 1, 1, 3], 3, 7))).toBe(7);
  });
});
