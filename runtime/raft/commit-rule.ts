/**
 * The leader's commit decision as a replaceable rule (the raft-commit lab plugs its function in
 * here through Config.commitRule). The built-in rule mirrors etcd-io/raft quorum/majority.go
 * (MajorityConfig.CommittedIndex: the highest index a majority of voters has stored) followed by
 * log.go (raftLog.maybeCommit: move commit there only if that entry is of the leader's current
 * term, Raft paper 5.4.2 and Figure 8). Joint configurations are out of scope here, as in tracker.ts.
 */
import type { NodeId } from './types.ts';

/** What a leader knows when it decides how far to commit. */
export interface CommitState {
  /** The leader's own id (its entry in `match` is its last index). */
  leader: NodeId;
  /** Every voter's match index (the highest index known to be stored there), by id; leader included. */
  match: Readonly<Record<NodeId, number>>;
  /** The current commit index. */
  committed: number;
  /** The leader's current term. */
  term: number;
  /** Term of the entry at `index` in the leader's log (0 past its end or before its first entry). */
  termAt(index: number): number;
}

/** Returns the new commit index (equal to `committed` when commit does not move). */
export type CommitRule = (state: CommitState) => number;

/** The highest index stored on a majority of the voters in `match` (quorum/majority.go CommittedIndex). */
export function majorityIndex(match: Readonly<Record<NodeId, number>>): number {
  const idx = Object.values(match).sort((a, b) => b - a);
  if (idx.length === 0) return Number.MAX_SAFE_INTEGER; // an empty config commits everything, as upstream
  return idx[Math.floor(idx.length / 2)]!; // descending: the quorum-th largest is at quorum - 1
}

/** The runtime's own rule: Raft's built-in behaviour (what Raft does with no commitRule). */
export const defaultCommitRule: CommitRule = (s) => {
  const q = majorityIndex(s.match);
  return q > s.committed && s.termAt(q) === s.term ? q : s.committed;
};
