// Mutant "no-term-check": Commits the quorum index whatever the term of the entry there (Figure 8's mistake).
// A plausible wrong solution; the hidden suite must fail it.
// The raft-commit lab: how far a Raft leader may move its commit index.
// Read lab.mdx first. Run the visible examples with `npm run grade -- raft-commit --examples`;
// grade with `npm run grade -- raft-commit`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { CommitState } from '../../../runtime/raft/index.ts';

/** The leader's new commit index (state.committed when it does not move). */
export function leaderCommitIndex(state: CommitState): number {
  // 1. The quorum index: the highest index stored on a majority of the voters, leader included.
  const match = Object.values(state.match).sort((a, b) => b - a);
  if (match.length === 0) return state.committed; // no voters: nothing to count, nothing moves
  const quorum = Math.floor(match.length / 2) + 1;
  const index = match[quorum - 1]!;
  // 2. Commit never moves back.
  if (index <= state.committed) return state.committed;
  // 3. Only an entry of the leader's own term is committed by counting (Figure 8).
  return index;
}
