// Visible examples for the raft-vote lab: read them, run them, add your own.
// `npm run grade -- raft-vote --examples`
import { describe, expect, it } from 'vitest';
import type { VoteRequest, VoteState } from '../../runtime/raft/index.ts';
import { voteDecision } from '@lab/submission';

// The voter, n1, has a log of 5 entries whose last is of term 3.
const voter = (term: number, vote = '', lead = ''): VoteState => ({ term, vote, lead, lastIndex: 5, lastTerm: 3 });
const ask = (type: VoteRequest['type'], from: string, term: number, lastIndex: number, lastTerm: number): VoteRequest => ({ type, from, term, lastIndex, lastTerm });

describe('voteDecision examples', () => {
  it('a candidate of a new term with an equal log gets the vote; the voter moves to that term', () => {
    expect(voteDecision(voter(4), ask('MsgVote', 'n2', 5, 5, 3))).toEqual({ term: 5, vote: 'n2', grant: true });
  });

  it('one vote per term: a second candidate in the same term is refused', () => {
    expect(voteDecision(voter(5, 'n2'), ask('MsgVote', 'n3', 5, 9, 3))).toEqual({ term: 5, vote: 'n2', grant: false });
  });

  it('the last term decides first: a longer log of an older term loses', () => {
    expect(voteDecision(voter(4), ask('MsgVote', 'n2', 5, 50, 2))).toEqual({ term: 5, vote: '', grant: false });
  });

  it('a PreVote for a future term is granted without changing the term or recording a vote', () => {
    expect(voteDecision(voter(4, 'n3'), ask('MsgPreVote', 'n2', 5, 5, 3))).toEqual({ term: 4, vote: 'n3', grant: true });
  });
});
