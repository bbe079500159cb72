/**
 * A follower's answer to a vote request as a replaceable rule (the raft-vote lab plugs its function
 * in here through Config.voteRule). The built-in rule mirrors etcd-io/raft raft.go Step (a higher
 * term makes a member step down before it answers a MsgVote, never a MsgPreVote; the vote case:
 * one vote per term, a repeated request from the member we voted for is granted again, a PreVote
 * for a future term may be granted) and log.go raftLog.isUpToDate (Raft paper 5.4.1: compare the
 * last entries' terms first, then the last indexes). The CheckQuorum lease (a member that heard
 * from its leader within an election timeout ignores the request) is applied before the rule.
 */
import { None, type NodeId } from './types.ts';

/** The voter's state when the request arrives. */
export interface VoteState {
  term: number;
  /** Whom it voted for in `term` ('' = nobody). */
  vote: NodeId;
  /** The leader of `term` it knows of ('' = none). */
  lead: NodeId;
  lastIndex: number;
  lastTerm: number;
}

export interface VoteRequest {
  type: 'MsgVote' | 'MsgPreVote';
  from: NodeId;
  /** The term the candidate campaigns in (for a PreVote, the term it would campaign in). */
  term: number;
  /** The candidate's last log index and the term of that entry. */
  lastIndex: number;
  lastTerm: number;
}

/** The voter's term and vote afterwards, and whether it grants the request. */
export interface VoteDecision {
  term: number;
  vote: NodeId;
  grant: boolean;
}

export type VoteRule = (state: VoteState, request: VoteRequest) => VoteDecision;

/** The runtime's own rule: Raft's built-in behaviour (what Raft does with no voteRule). */
export const defaultVoteRule: VoteRule = (s, m) => {
  let { term, vote, lead } = s;
  if (m.term > term && m.type === 'MsgVote') {
    term = m.term;
    vote = None;
    lead = None;
  }
  if (m.term < term) return { term, vote, grant: false };
  const canVote =
    vote === m.from || (vote === None && lead === None) || (m.type === 'MsgPreVote' && m.term > term);
  const upToDate = m.lastTerm > s.lastTerm || (m.lastTerm === s.lastTerm && m.lastIndex >= s.lastIndex);
  if (!canVote || !upToDate) return { term, vote, grant: false };
  return { term, vote: m.type === 'MsgVote' ? m.from : vote, grant: true };
};
