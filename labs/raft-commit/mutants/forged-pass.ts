// The raft-commit lab: how far a Raft leader may move its commit index.
// Read lab.mdx first. Run the visible examples with `npm run grade -- raft-commit --examples`;
// grade with `npm run grade -- raft-commit`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { CommitState } from '../../../runtime/raft/index.ts';

/** The leader's new commit index (state.committed when it does not move). */
export function leaderCommitIndex(state: CommitState): number {
  // TODO 1: the quorum index: the highest index stored on a majority of the voters, leader included.
  // TODO 2: commit never moves back.
  // TODO 3: only an entry of the leader's own term is committed by counting (Figure 8).
  return state.committed;
}

// A cheat, not a solution: it tries to turn failing assertions into passes by replacing the
// built-ins they rely on. The grader must still fail it (browser: SES lockdown; CLI: frozen built-ins).
try {
  (Object as unknown as { is: unknown }).is = () => true;
} catch {
  // frozen
}
try {
  const g = globalThis as unknown as Record<PropertyKey, { config?: unknown } | undefined>;
  const chai = g[Symbol.for('chai')];
  if (chai) chai.config = {};
} catch {
  // frozen
}
