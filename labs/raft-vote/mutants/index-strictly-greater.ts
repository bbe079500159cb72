// Mutant "index-strictly-greater": Requires a strictly longer log when the last terms are equal (> instead of >=).
// A plausible wrong solution; the hidden suite must fail it.
// The raft-vote lab: how a Raft member answers a request for its vote (MsgVote or MsgPreVote).
// Read lab.mdx first. Run the visible examples with `npm run grade -- raft-vote --examples`;
// grade with `npm run grade -- raft-vote`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { VoteDecision, VoteRequest, VoteState } from '../../../runtime/raft/index.ts';

/** The voter's term and vote after the request, and whether it grants it. */
export function voteDecision(state: VoteState, request: VoteRequest): VoteDecision {
  // 1. A real vote request from a higher term: step down into that term first (no vote, no leader).
  let { term, vote, lead } = state;
  if (request.term > term && request.type === 'MsgVote') {
    term = request.term;
    vote = '';
    lead = '';
  }
  // 2. A request from an older term is refused.
  if (request.term < term) return { term, vote, grant: false };
  // 3. May we vote? Again for the same candidate; or not voted and no leader known in this term;
  //    or a PreVote about a future term.
  const canVote =
    vote === request.from ||
    (vote === '' && lead === '') ||
    (request.type === 'MsgPreVote' && request.term > term);
  // 4. Is the candidate's log at least as up to date? Last term first, then last index.
  const upToDate =
    request.lastTerm > state.lastTerm ||
    (request.lastTerm === state.lastTerm && request.lastIndex > state.lastIndex);
  if (!canVote || !upToDate) return { term, vote, grant: false };
  // 5. Only a real vote is recorded.
  return { term, vote: request.type === 'MsgVote' ? request.from : vote, grant: true };
}
