/**
 * Membership, per-voter progress, votes, and the quorum arithmetic. Mirrors etcd-io/raft
 * tracker/tracker.go and quorum/majority.go (a single majority configuration: no joint consensus).
 */
import { Progress } from './progress.ts';
import type { NodeId } from './types.ts';

export type VoteResult = 'VotePending' | 'VoteLost' | 'VoteWon';

export class ProgressTracker {
  /** Voter ids, sorted, so iteration (and therefore message order) is deterministic. */
  voters: NodeId[] = [];
  progress = new Map<NodeId, Progress>();
  votes = new Map<NodeId, boolean>();
  private readonly scratch: number[] = [];

  constructor(readonly maxInflight: number) {}

  /** Majority size: floor(n / 2) + 1. */
  quorum(): number {
    return Math.floor(this.voters.length / 2) + 1;
  }

  setVoters(voters: readonly NodeId[], lastIndex: number): void {
    this.voters = [...new Set(voters)].sort();
    const old = this.progress;
    this.progress = new Map();
    for (const id of this.voters)
      this.progress.set(id, old.get(id) ?? new Progress(0, lastIndex + 1, this.maxInflight));
  }

  isSingleton(): boolean {
    return this.voters.length === 1;
  }

  /**
   * The largest index stored on a majority: sort match indexes descending and take the quorum-th
   * (mirrors quorum/majority.go CommittedIndex).
   */
  committed(): number {
    const n = this.voters.length;
    if (n === 0) return Number.MAX_SAFE_INTEGER; // an empty config commits everything, as upstream
    // Insertion sort (descending) into a reused scratch array: clusters are small, this is hot.
    const m = this.scratch;
    m.length = n;
    for (let i = 0; i < n; i++) {
      const v = this.progress.get(this.voters[i]!)?.match ?? 0;
      let j = i;
      while (j > 0 && m[j - 1]! < v) {
        m[j] = m[j - 1]!;
        j--;
      }
      m[j] = v;
    }
    return m[this.quorum() - 1]!;
  }

  resetVotes(): void {
    this.votes.clear();
  }

  recordVote(id: NodeId, granted: boolean): void {
    if (!this.votes.has(id)) this.votes.set(id, granted);
  }

  tallyVotes(): { granted: number; rejected: number; result: VoteResult } {
    let granted = 0;
    let rejected = 0;
    for (const id of this.voters) {
      const v = this.votes.get(id);
      if (v === true) granted++;
      else if (v === false) rejected++;
    }
    return { granted, rejected, result: this.voteResult((id) => this.votes.get(id)) };
  }

  /** Won with a majority of yes, lost once a majority can no longer be reached, else pending. */
  voteResult(vote: (id: NodeId) => boolean | undefined): VoteResult {
    const q = this.quorum();
    let yes = 0;
    let missing = 0;
    for (const id of this.voters) {
      const v = vote(id);
      if (v === true) yes++;
      else if (v === undefined) missing++;
    }
    if (yes >= q) return 'VoteWon';
    if (yes + missing >= q) return 'VotePending';
    return 'VoteLost';
  }

  /** CheckQuorum: did a majority (counting ourselves) talk to us since the last check? */
  quorumActive(self: NodeId): boolean {
    return (
      this.voteResult((id) =>
        id === self || this.progress.get(id)?.recentActive ? true : undefined,
      ) === 'VoteWon'
    );
  }
}
