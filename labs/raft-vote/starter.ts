// The raft-vote lab: how a Raft member answers a request for its vote (MsgVote or MsgPreVote).
// Read lab.mdx first. Run the visible examples with `npm run grade -- raft-vote --examples`;
// grade with `npm run grade -- raft-vote`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { VoteDecision, VoteRequest, VoteState } from '../../runtime/raft/index.ts';

/** The voter's term and vote after the request, and whether it grants it. */
export function voteDecision(state: VoteState, request: VoteRequest): VoteDecision {
  // TODO 1: a MsgVote from a higher term: step down into that term first (no vote, no leader).
  // TODO 2: a request from an older term is refused.
  // TODO 3: may we vote? (one vote per term, the same candidate again, a PreVote for a future term)
  // TODO 4: is the candidate's log at least as up to date? (last term first, then last index)
  // TODO 5: only a real vote is recorded.
  void request;
  return { term: state.term, vote: state.vote, grant: false };
}
