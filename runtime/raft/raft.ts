/**
 * Raft consensus as a pure state machine. Mirrors etcd-io/raft raft.go: no I/O, no clock. Time
 * enters through tick(), messages through step(); outgoing messages collect in `msgs` and the
 * RawNode hands them out in Ready. Each role swaps in its own step function (stepLeader,
 * stepCandidate, stepFollower) and tick function (tickElection, tickHeartbeat).
 *
 * Section references are to the Raft paper (Ongaro and Ousterhout, "In Search of an Understandable
 * Consensus Algorithm", 2014) and Ongaro's thesis (PreVote 9.6, CheckQuorum 6.2, ReadIndex 6.4).
 */
import type { CommitRule } from './commit-rule.ts';
import type { VoteRule } from './vote-rule.ts';
import { RaftLog } from './raft-log.ts';
import { ReadOnly } from './read-only.ts';
import type { Storage } from './storage.ts';
import { ProgressTracker, type VoteResult } from './tracker.ts';
import {
  None,
  decodeConfChange,
  isEmptyHardState,
  isEmptySnap,
  newMessage,
  voteRespMsgType,
  type ConfChange,
  type ConfState,
  type Entry,
  type HardState,
  type Message,
  type MessageType,
  type NodeId,
  type RaftError,
  type ReadState,
  type Snapshot,
  type SoftState,
  type StateType,
} from './types.ts';

/** The randomness Raft needs: pass a kernel RNG fork (`kernel.rng.fork('raft:' + id)`). */
export interface RaftRng {
  nextInt(n: number): number;
}

export interface Config {
  id: NodeId;
  storage: Storage;
  /** Ticks without hearing from a leader before campaigning (randomized in [e, 2e)). Default 10. */
  electionTick?: number;
  /** Ticks between leader heartbeats. Default 1. */
  heartbeatTick?: number;
  /**
   * The last index the state machine has already applied (on restart). Default: the storage's
   * snapshot index, since a restarted application restores its state from that snapshot.
   */
  applied?: number;
  /** Most entries in one MsgApp. Default 64. */
  maxEntriesPerMsg?: number;
  /** Most MsgApps in flight to one follower in StateReplicate. Default 256. */
  maxInflightMsgs?: number;
  /** A leader steps down if a quorum was silent for an election timeout. Default true (as etcd). */
  checkQuorum?: boolean;
  /** Campaign with a PreVote round first (thesis 9.6). Default true (as etcd). */
  preVote?: boolean;
  rng: RaftRng;
  /**
   * Replaces the leader's commit decision (default: quorum index, only if of the current term).
   * The raft-commit lab drives the simulation with the learner's rule through this.
   */
  commitRule?: CommitRule;
  /**
   * Replaces a member's answer to MsgVote/MsgPreVote (default: Raft's own, raft.go Step). The
   * raft-vote lab drives the simulation with the learner's rule through this.
   */
  voteRule?: VoteRule;
  /** Receives notable state changes (becoming leader, stepping down...) for traces. */
  onEvent?: (kind: string, detail: string) => void;
}

type StepFn = (r: Raft, m: Message) => RaftError | null;
type CampaignType = 'campaignPreElection' | 'campaignElection';

export class Raft {
  readonly id: NodeId;
  term = 0;
  vote: NodeId = None;
  readonly raftLog: RaftLog;
  readonly prs: ProgressTracker;
  state: StateType = 'StateFollower';
  /** Leader of the current term as far as we know (None if unknown). */
  lead: NodeId = None;
  msgs: Message[] = [];
  readStates: ReadState[] = [];
  readOnly = new ReadOnly();
  /**
   * Leader: index of the latest conf change proposed. Only one may be in flight: a new one is
   * refused until the log is applied past this index (Raft thesis 4.1, single-server changes).
   */
  pendingConfIndex = 0;
  /** MsgReadIndex requests that arrived before the leader committed an entry of its term. */
  pendingReadIndexMessages: Message[] = [];

  readonly electionTimeout: number;
  readonly heartbeatTimeout: number;
  readonly checkQuorum: boolean;
  readonly preVote: boolean;
  readonly maxEntriesPerMsg: number;
  /** Ticks since the last election timeout reset (followers/candidates) or CheckQuorum (leader). */
  electionElapsed = 0;
  heartbeatElapsed = 0;
  /** In [electionTimeout, 2 * electionTimeout): Raft paper 5.2, randomized to avoid split votes. */
  randomizedElectionTimeout = 0;

  private readonly rng: RaftRng;
  private readonly commitRule: CommitRule | undefined;
  private readonly voteRule: VoteRule | undefined;
  readonly onEvent: (kind: string, detail: string) => void;
  private tickFn: () => void = () => this.tickElection();
  private stepFn: StepFn = stepFollower;

  constructor(c: Config) {
    if (c.id === None) throw new Error('invariant violated: cannot use none as id');
    this.id = c.id;
    this.electionTimeout = c.electionTick ?? 10;
    this.heartbeatTimeout = c.heartbeatTick ?? 1;
    if (this.heartbeatTimeout <= 0)
      throw new Error('invariant violated: heartbeat tick must be greater than 0');
    if (this.electionTimeout <= this.heartbeatTimeout) {
      throw new Error('invariant violated: election tick must be greater than heartbeat tick');
    }
    this.checkQuorum = c.checkQuorum ?? true;
    this.preVote = c.preVote ?? true;
    this.maxEntriesPerMsg = c.maxEntriesPerMsg ?? 64;
    this.rng = c.rng;
    this.commitRule = c.commitRule;
    this.voteRule = c.voteRule;
    this.onEvent = c.onEvent ?? (() => {});
    this.raftLog = new RaftLog(c.storage);
    this.prs = new ProgressTracker(c.maxInflightMsgs ?? 256);
    const { hardState, confState } = c.storage.initialState();
    this.prs.setVoters(confState.voters, this.raftLog.lastIndex());
    if (!isEmptyHardState(hardState)) this.loadState(hardState);
    if (c.applied !== undefined && c.applied > 0) this.raftLog.appliedTo(c.applied);
    this.becomeFollower(this.term, None);
  }

  softState(): SoftState {
    return { lead: this.lead, raftState: this.state };
  }

  hardState(): HardState {
    return { term: this.term, vote: this.vote, commit: this.raftLog.committed };
  }

  confState(): ConfState {
    return { voters: [...this.prs.voters] };
  }

  /** Whether this node may become leader: it is a voter in the current configuration. */
  promotable(): boolean {
    return this.prs.progress.has(this.id);
  }

  tick(): void {
    this.tickFn();
  }

  // ---------------------------------------------------------------------------------------------
  // Role changes

  private reset(term: number): void {
    if (this.term !== term) {
      this.term = term;
      this.vote = None;
    }
    this.lead = None;
    this.electionElapsed = 0;
    this.heartbeatElapsed = 0;
    this.resetRandomizedElectionTimeout();
    this.prs.resetVotes();
    const last = this.raftLog.lastIndex();
    for (const [id, pr] of this.prs.progress) {
      pr.match = 0;
      pr.next = last + 1;
      pr.state = 'StateProbe';
      pr.pendingSnapshot = 0;
      pr.msgAppFlowPaused = false;
      pr.inflights.reset();
      pr.recentActive = false;
      if (id === this.id) pr.match = last;
    }
    this.pendingConfIndex = 0;
    this.readOnly = new ReadOnly();
    this.pendingReadIndexMessages = [];
  }

  becomeFollower(term: number, lead: NodeId): void {
    this.stepFn = stepFollower;
    this.reset(term);
    this.tickFn = () => this.tickElection();
    this.lead = lead;
    this.state = 'StateFollower';
    this.onEvent('raft.become-follower', `term ${this.term}, leader ${lead || 'unknown'}`);
  }

  becomeCandidate(): void {
    if (this.state === 'StateLeader')
      throw new Error('invariant violated: invalid transition [leader -> candidate]');
    this.stepFn = stepCandidate;
    this.reset(this.term + 1);
    this.tickFn = () => this.tickElection();
    this.vote = this.id;
    this.state = 'StateCandidate';
    this.onEvent('raft.become-candidate', `term ${this.term}`);
  }

  /** PreVote (thesis 9.6): ask for votes for term+1 without changing our term or vote. */
  becomePreCandidate(): void {
    if (this.state === 'StateLeader')
      throw new Error('invariant violated: invalid transition [leader -> pre-candidate]');
    this.stepFn = stepCandidate;
    this.prs.resetVotes();
    this.tickFn = () => this.tickElection();
    this.lead = None;
    this.state = 'StatePreCandidate';
    this.onEvent('raft.become-pre-candidate', `term ${this.term}`);
  }

  becomeLeader(): void {
    if (this.state === 'StateFollower')
      throw new Error('invariant violated: invalid transition [follower -> leader]');
    this.stepFn = stepLeader;
    this.reset(this.term);
    this.tickFn = () => this.tickHeartbeat();
    this.lead = this.id;
    this.state = 'StateLeader';
    // The leader knows its own log is current: replicate to itself without probing.
    this.prs.progress.get(this.id)?.becomeReplicate();
    this.prs.progress.get(this.id)!.recentActive = true;
    // We don't know whether the log holds an unapplied conf change: assume it does.
    this.pendingConfIndex = this.raftLog.lastIndex();
    // Raft paper 5.4.2 / 8: append an empty entry of the new term; committing it commits
    // everything before it, and unlocks ReadIndex.
    this.appendEntry([{ term: 0, index: 0, type: 'EntryNormal', data: '' }]);
    this.onEvent('raft.become-leader', `term ${this.term}`);
  }

  private resetRandomizedElectionTimeout(): void {
    this.randomizedElectionTimeout = this.electionTimeout + this.rng.nextInt(this.electionTimeout);
  }

  pastElectionTimeout(): boolean {
    return this.electionElapsed >= this.randomizedElectionTimeout;
  }

  private tickElection(): void {
    this.electionElapsed++;
    if (this.promotable() && this.pastElectionTimeout()) {
      this.electionElapsed = 0;
      this.step(newMessage({ type: 'MsgHup', from: this.id }));
    }
  }

  private tickHeartbeat(): void {
    this.heartbeatElapsed++;
    this.electionElapsed++;
    if (this.electionElapsed >= this.electionTimeout) {
      this.electionElapsed = 0;
      if (this.checkQuorum) this.step(newMessage({ type: 'MsgCheckQuorum', from: this.id }));
    }
    if (this.state !== 'StateLeader') return;
    if (this.heartbeatElapsed >= this.heartbeatTimeout) {
      this.heartbeatElapsed = 0;
      this.step(newMessage({ type: 'MsgBeat', from: this.id }));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Sending

  send(m: Message): void {
    if (m.from === None) m.from = this.id;
    const t = m.type;
    if (t === 'MsgVote' || t === 'MsgVoteResp' || t === 'MsgPreVote' || t === 'MsgPreVoteResp') {
      // Vote messages carry the term they are about (for PreVote, a future term), set by the caller.
      if (m.term === 0) throw new Error(`invariant violated: term should be set when sending ${t}`);
    } else {
      if (m.term !== 0)
        throw new Error(
          `invariant violated: term should not be set when sending ${t} (was ${m.term})`,
        );
      // Proposals and read requests forwarded to the leader are local-term-free, as upstream.
      if (t !== 'MsgProp' && t !== 'MsgReadIndex') m.term = this.term;
    }
    this.msgs.push(m);
  }

  /** Sends a MsgApp (or MsgSnap if the needed entries are compacted) to `to` if not paused. */
  maybeSendAppend(to: NodeId, sendIfEmpty: boolean): boolean {
    const pr = this.prs.progress.get(to);
    if (!pr || pr.isPaused()) return false;
    const prevTerm = this.raftLog.term(pr.next - 1);
    const ents = this.raftLog.entries(pr.next, this.maxEntriesPerMsg);
    if (typeof ents !== 'string' && ents.length === 0 && !sendIfEmpty) return false;
    if (typeof prevTerm !== 'number' || typeof ents === 'string') {
      // The follower needs entries we compacted: send the snapshot instead (Raft paper 7).
      if (!pr.recentActive) return false;
      const snap = this.raftLog.snapshot();
      if (isEmptySnap(snap)) throw new Error('invariant violated: need non-empty snapshot');
      this.send(newMessage({ type: 'MsgSnap', to, snapshot: snap }));
      pr.becomeSnapshot(snap.metadata.index);
      this.onEvent('raft.send-snapshot', `to ${to} at index ${snap.metadata.index}`);
      return true;
    }
    this.send(
      newMessage({
        type: 'MsgApp',
        to,
        index: pr.next - 1,
        logTerm: prevTerm,
        entries: ents,
        commit: this.raftLog.committed,
      }),
    );
    pr.sentEntries(ents.length, ents.length > 0 ? ents[ents.length - 1]!.index : 0);
    return true;
  }

  sendAppend(to: NodeId): void {
    this.maybeSendAppend(to, true);
  }

  bcastAppend(): void {
    for (const id of this.prs.voters) if (id !== this.id) this.sendAppend(id);
  }

  private sendHeartbeat(to: NodeId, ctx: string): void {
    // Never tell a follower to commit past what it is known to have (it may not have it yet).
    const pr = this.prs.progress.get(to);
    const commit = Math.min(pr?.match ?? 0, this.raftLog.committed);
    this.send(newMessage({ type: 'MsgHeartbeat', to, commit, context: ctx }));
  }

  bcastHeartbeat(ctx = this.readOnly.lastPendingRequestCtx()): void {
    for (const id of this.prs.voters) if (id !== this.id) this.sendHeartbeat(id, ctx);
  }

  // ---------------------------------------------------------------------------------------------
  // Log

  /** Leader: append entries of the current term to our own log. */
  appendEntry(es: Entry[]): void {
    let li = this.raftLog.lastIndex();
    const stamped = es.map((e) => ({ term: this.term, index: ++li, type: e.type, data: e.data }));
    li = this.raftLog.append(stamped);
    this.prs.progress.get(this.id)?.maybeUpdate(li);
    // A single-member cluster commits right away.
    this.maybeCommit();
  }

  /** Advances commit to the quorum's match index if allowed (Raft paper 5.4.2). */
  maybeCommit(): boolean {
    if (this.commitRule) return this.maybeCommitByRule(this.commitRule);
    return this.raftLog.maybeCommit(this.prs.committed(), this.term);
  }

  /** maybeCommit with an injected rule: its answer is checked, then applied like commitTo. */
  private maybeCommitByRule(rule: CommitRule): boolean {
    const log = this.raftLog;
    const match: Record<NodeId, number> = {};
    for (const id of this.prs.voters) match[id] = this.prs.progress.get(id)?.match ?? 0;
    const before = log.committed;
    const next = rule({
      leader: this.id,
      match,
      committed: before,
      term: this.term,
      termAt: (i) => (typeof i === 'number' ? log.termOrZero(i) : 0),
    });
    if (!Number.isSafeInteger(next) || next < before || next > log.lastIndex()) {
      throw new Error(
        `the commit rule returned ${String(next)} with commit at ${before} and the leader's last index ${log.lastIndex()}: commit never moves back, and cannot pass the last index`,
      );
    }
    if (next === before) return false;
    log.commitTo(next);
    return true;
  }

  committedEntryInCurrentTerm(): boolean {
    return this.raftLog.termOrZero(this.raftLog.committed) === this.term;
  }

  // ---------------------------------------------------------------------------------------------
  // Elections (Raft paper 5.2)

  hup(t: CampaignType): void {
    if (this.state === 'StateLeader') return;
    if (!this.promotable()) return;
    if (this.hasUnappliedConfChange()) {
      // The configuration we would campaign under is about to change (mirrors raft.go hup).
      this.onEvent('raft.campaign-deferred', 'pending configuration changes to apply');
      return;
    }
    this.campaign(t);
  }

  private hasUnappliedConfChange(): boolean {
    const log = this.raftLog;
    if (log.applied >= log.committed) return false;
    const ents = log.slice(
      Math.max(log.applied + 1, log.firstIndex()),
      log.committed + 1,
      Number.MAX_SAFE_INTEGER,
    );
    return typeof ents !== 'string' && ents.some((e) => e.type === 'EntryConfChange');
  }

  /**
   * Applies a committed conf change to the membership (the application calls this, through
   * RawNode.applyConfChange, when it applies the EntryConfChange entry). Mirrors raft.go
   * applyConfChange/switchToConfig for single-member changes.
   */
  applyConfChange(cc: ConfChange): ConfState {
    const voters = this.prs.voters.filter((id) => id !== cc.nodeId);
    if (cc.type === 'ConfChangeAddNode') voters.push(cc.nodeId);
    if (voters.length === 0)
      throw new Error('invariant violated: a conf change removed all voters');
    this.prs.setVoters(voters, this.raftLog.lastIndex());
    const added = this.prs.progress.get(cc.nodeId);
    // A new member is considered active so the leader may send it a snapshot right away.
    if (cc.type === 'ConfChangeAddNode' && added) added.recentActive = true;
    this.onEvent(
      'raft.conf-change',
      `${cc.type} ${cc.nodeId}: voters ${this.prs.voters.join(',')}`,
    );
    if (this.state !== 'StateLeader') return this.confState();
    // A leader that removed itself stays leader, outside the configuration (as etcd-raft does):
    // it keeps sending heartbeats so the others learn that the change committed, refuses
    // proposals, and leaves when the application shuts it down (etcd stops a removed member
    // ten ticks after applying its removal). Stepping down at once could strand a remaining
    // member that never learned the commit, still needing the removed leader's vote.
    // The quorum changed: commit may move (e.g. after a removal), and new members need entries.
    if (this.maybeCommit()) this.bcastAppend();
    else for (const id of this.prs.voters) if (id !== this.id) this.maybeSendAppend(id, false);
    return this.confState();
  }

  campaign(t: CampaignType): void {
    let voteMsg: MessageType;
    let term: number;
    if (t === 'campaignPreElection') {
      this.becomePreCandidate();
      voteMsg = 'MsgPreVote';
      term = this.term + 1; // PreVote asks about the term we would campaign in
    } else {
      this.becomeCandidate();
      voteMsg = 'MsgVote';
      term = this.term;
    }
    if (this.poll(this.id, voteRespMsgType(voteMsg), true) === 'VoteWon') {
      // A single-member cluster wins immediately.
      if (t === 'campaignPreElection') this.campaign('campaignElection');
      else this.becomeLeader();
      return;
    }
    const index = this.raftLog.lastIndex();
    const logTerm = this.raftLog.lastTerm();
    for (const id of this.prs.voters) {
      if (id === this.id) continue;
      this.send(newMessage({ type: voteMsg, to: id, term, index, logTerm }));
    }
  }

  poll(id: NodeId, t: MessageType, granted: boolean): VoteResult {
    this.onEvent(
      'raft.vote-received',
      `${granted ? 'granted' : 'rejected'} ${t} from ${id} at term ${this.term}`,
    );
    this.prs.recordVote(id, granted);
    return this.prs.tallyVotes().result;
  }

  // ---------------------------------------------------------------------------------------------
  // Step: the entry point for every message (mirrors raft.go Step)

  step(m: Message): RaftError | null {
    if (this.voteRule && m.term !== 0 && (m.type === 'MsgVote' || m.type === 'MsgPreVote')) {
      this.stepVoteByRule(this.voteRule, m);
      return null;
    }
    if (m.term === 0) {
      // local message
    } else if (m.term > this.term) {
      if (m.type === 'MsgVote' || m.type === 'MsgPreVote') {
        // CheckQuorum lease (thesis 4.2.3): a follower that heard from a live leader within the
        // election timeout ignores vote requests, so a partitioned node cannot depose it.
        const inLease =
          this.checkQuorum && this.lead !== None && this.electionElapsed < this.electionTimeout;
        if (inLease) {
          this.onEvent(
            'raft.ignore-vote',
            `${m.type} from ${m.from} at term ${m.term}: lease with ${this.lead} has ${this.electionTimeout - this.electionElapsed} ticks left`,
          );
          return null;
        }
      }
      if (m.type === 'MsgPreVote') {
        // Never change our term in response to a PreVote.
      } else if (m.type === 'MsgPreVoteResp' && !m.reject) {
        // We sent a PreVote for a future term; a grant carries that term. Not a reason to step down.
      } else {
        const leaderMsg = m.type === 'MsgApp' || m.type === 'MsgHeartbeat' || m.type === 'MsgSnap';
        this.becomeFollower(m.term, leaderMsg ? m.from : None);
      }
    } else if (m.term < this.term) {
      if (
        (this.checkQuorum || this.preVote) &&
        (m.type === 'MsgHeartbeat' || m.type === 'MsgApp')
      ) {
        // A stale leader (e.g. healed from a partition) learns the newer term from this reply and
        // steps down. Without it, with PreVote on, our higher term would never reach it.
        this.send(newMessage({ type: 'MsgAppResp', to: m.from }));
      } else if (m.type === 'MsgPreVote') {
        this.send(
          newMessage({ type: 'MsgPreVoteResp', to: m.from, term: this.term, reject: true }),
        );
      }
      return null; // ignore other stale-term messages
    }

    switch (m.type) {
      case 'MsgHup':
        this.hup(this.preVote ? 'campaignPreElection' : 'campaignElection');
        return null;
      case 'MsgVote':
      case 'MsgPreVote':
        this.handleVoteRequest(m);
        return null;
      default:
        return this.stepFn(this, m);
    }
  }

  /**
   * A vote request answered by an injected rule. The CheckQuorum lease applies first, as in step();
   * the rule's answer is checked (it may only move to the request's term on a MsgVote, and vote for
   * nobody new but the candidate), then applied: step down, record the vote, reply. As upstream, a
   * MsgVote from an older term gets no reply.
   */
  private stepVoteByRule(rule: VoteRule, m: Message): void {
    const type = m.type as 'MsgVote' | 'MsgPreVote';
    if (m.term > this.term && this.checkQuorum && this.lead !== None && this.electionElapsed < this.electionTimeout) {
      this.onEvent(
        'raft.ignore-vote',
        `${m.type} from ${m.from} at term ${m.term}: lease with ${this.lead} has ${this.electionTimeout - this.electionElapsed} ticks left`,
      );
      return;
    }
    const before = { term: this.term, vote: this.vote, lead: this.lead };
    const d = rule(
      { ...before, lastIndex: this.raftLog.lastIndex(), lastTerm: this.raftLog.lastTerm() },
      { type, from: m.from, term: m.term, lastIndex: m.index, lastTerm: m.logTerm },
    );
    const problem = !d || typeof d !== 'object'
      ? 'not an object'
      : typeof d.grant !== 'boolean'
        ? 'grant is not a boolean'
        : d.term !== before.term && !(type === 'MsgVote' && m.term > before.term && d.term === m.term)
          ? `term ${String(d.term)} (only ${before.term}${type === 'MsgVote' && m.term > before.term ? ` or the request's ${m.term}` : ''} is possible)`
          : d.vote !== (d.term === before.term ? before.vote : None) && d.vote !== m.from
            ? `vote ${JSON.stringify(d.vote)} (only the previous vote, '' after a new term, or the candidate ${m.from})`
            : d.grant && m.term < d.term
              ? `a grant for term ${m.term}, older than the voter's term ${d.term}`
              : undefined;
    if (problem) {
      throw new Error(
        `the vote rule answered ${m.type} from ${m.from} (term ${m.term}) at ${this.id} (term ${before.term}) with ${problem}`,
      );
    }
    if (d.term > this.term) this.becomeFollower(d.term, None);
    this.vote = d.vote;
    const respType = voteRespMsgType(type);
    if (d.grant) {
      this.send(newMessage({ type: respType, to: m.from, term: m.term }));
      if (type === 'MsgVote') this.electionElapsed = 0;
    } else if (m.term >= this.term || type === 'MsgPreVote') {
      this.send(newMessage({ type: respType, to: m.from, term: this.term, reject: true }));
    }
  }

  /** Vote rules (Raft paper 5.2 and 5.4.1): one vote per term, only for an up-to-date log. */
  private handleVoteRequest(m: Message): void {
    const canVote =
      this.vote === m.from || // repeated request (e.g. duplicated message)
      (this.vote === None && this.lead === None) || // we haven't voted and know no leader this term
      (m.type === 'MsgPreVote' && m.term > this.term); // PreVote for a future term
    const respType = voteRespMsgType(m.type);
    if (canVote && this.raftLog.isUpToDate(m.index, m.logTerm)) {
      // Reply with the message's term (for PreVote, the future term), not ours.
      this.send(newMessage({ type: respType, to: m.from, term: m.term }));
      if (m.type === 'MsgVote') {
        this.electionElapsed = 0;
        this.vote = m.from;
      }
    } else {
      this.send(newMessage({ type: respType, to: m.from, term: this.term, reject: true }));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Follower-side handlers

  handleAppendEntries(m: Message): void {
    if (m.index < this.raftLog.committed) {
      this.send(newMessage({ type: 'MsgAppResp', to: m.from, index: this.raftLog.committed }));
      return;
    }
    const last = this.raftLog.maybeAppend(m.index, m.logTerm, m.commit, m.entries);
    if (last !== undefined) {
      this.send(newMessage({ type: 'MsgAppResp', to: m.from, index: last }));
      return;
    }
    // Log matching failed (Raft paper 5.3). Hint the leader where our logs may agree: the last
    // index <= m.index whose term is <= m.logTerm (etcd's fast back-up, findConflictByTerm).
    const hint = this.raftLog.findConflictByTerm(
      Math.min(m.index, this.raftLog.lastIndex()),
      m.logTerm,
    );
    this.send(
      newMessage({
        type: 'MsgAppResp',
        to: m.from,
        index: m.index,
        reject: true,
        rejectHint: hint.index,
        logTerm: hint.term,
      }),
    );
  }

  handleHeartbeat(m: Message): void {
    this.raftLog.commitTo(m.commit);
    this.send(newMessage({ type: 'MsgHeartbeatResp', to: m.from, context: m.context }));
  }

  handleSnapshot(m: Message): void {
    const s = m.snapshot!;
    if (this.restore(s)) {
      this.onEvent('raft.restore-snapshot', `index ${s.metadata.index} term ${s.metadata.term}`);
      this.send(newMessage({ type: 'MsgAppResp', to: m.from, index: this.raftLog.lastIndex() }));
    } else {
      this.send(newMessage({ type: 'MsgAppResp', to: m.from, index: this.raftLog.committed }));
    }
  }

  /** Installs a snapshot from the leader if it is newer than what we have committed. */
  restore(s: Snapshot): boolean {
    if (s.metadata.index <= this.raftLog.committed) return false;
    if (this.raftLog.matchTerm(s.metadata.index, s.metadata.term)) {
      // We already have the snapshot's last entry: just move commit (fast-forward).
      this.raftLog.commitTo(s.metadata.index);
      return false;
    }
    this.raftLog.restore(s);
    this.prs.setVoters(s.metadata.confState.voters, this.raftLog.lastIndex());
    return true;
  }

  loadState(h: HardState): void {
    if (h.commit < this.raftLog.committed || h.commit > this.raftLog.lastIndex()) {
      throw new Error(
        `invariant violated: hard state commit ${h.commit} is out of range [${this.raftLog.committed}, ${this.raftLog.lastIndex()}]`,
      );
    }
    this.raftLog.committed = h.commit;
    this.term = h.term;
    this.vote = h.vote;
  }

  // ---------------------------------------------------------------------------------------------
  // ReadIndex (thesis 6.4)

  /** Leader: answers a read request now or after a heartbeat round confirms leadership. */
  handleReadIndex(m: Message): void {
    if (this.prs.isSingleton()) {
      this.respondToReadIndex(m, this.raftLog.committed);
      return;
    }
    // The leader's commit index is only known to be current once it committed an entry of its
    // own term; until then, hold the request (thesis 6.4 step 1).
    if (!this.committedEntryInCurrentTerm()) {
      this.pendingReadIndexMessages.push(m);
      return;
    }
    this.readOnly.addRequest(this.raftLog.committed, m);
    this.readOnly.recvAck(this.id, m.entries[0]!.data);
    this.bcastHeartbeat(m.entries[0]!.data);
  }

  releasePendingReadIndexMessages(): void {
    if (!this.committedEntryInCurrentTerm()) return;
    const msgs = this.pendingReadIndexMessages;
    this.pendingReadIndexMessages = [];
    for (const m of msgs) this.handleReadIndex(m);
  }

  respondToReadIndex(req: Message, readIndex: number): void {
    if (req.from === None || req.from === this.id) {
      this.readStates.push({ index: readIndex, requestCtx: req.entries[0]!.data });
      return;
    }
    this.send(
      newMessage({
        type: 'MsgReadIndexResp',
        to: req.from,
        index: readIndex,
        entries: req.entries,
      }),
    );
  }
}

// -----------------------------------------------------------------------------------------------
// Role step functions

function stepLeader(r: Raft, m: Message): RaftError | null {
  switch (m.type) {
    case 'MsgBeat':
      r.bcastHeartbeat();
      return null;
    case 'MsgCheckQuorum':
      // CheckQuorum (thesis 6.2): a leader that has not heard from a majority within an election
      // timeout steps down, so clients are not stuck with a leader that cannot commit.
      if (!r.prs.quorumActive(r.id)) {
        r.becomeFollower(r.term, None);
        return null;
      }
      for (const [id, pr] of r.prs.progress) if (id !== r.id) pr.recentActive = false;
      return null;
    case 'MsgProp':
      if (m.entries.length === 0)
        throw new Error(`invariant violated: ${r.id} stepped an empty MsgProp`);
      if (!r.prs.progress.has(r.id)) return 'ErrProposalDropped'; // removed from the configuration
      for (let i = 0; i < m.entries.length; i++) {
        const e = m.entries[i]!;
        if (e.type !== 'EntryConfChange') continue;
        const cc = decodeConfChange(e.data); // throws on a malformed change before it reaches the log
        // Every earlier change is applied when pendingConfIndex <= applied, so our voters are
        // the configuration this change will apply to.
        const refusal =
          r.pendingConfIndex > r.raftLog.applied
            ? `a change at index ${r.pendingConfIndex} is not applied yet`
            : cc.type === 'ConfChangeRemoveNode' &&
                r.prs.voters.length === 1 &&
                r.prs.voters[0] === cc.nodeId
              ? 'removing the last voter'
              : null;
        if (refusal !== null) {
          // Refused: mirrors stepLeader, which swaps it for an empty normal entry so the
          // proposal's position in the log still resolves.
          m.entries[i] = { term: 0, index: 0, type: 'EntryNormal', data: '' };
          r.onEvent('raft.conf-change-refused', refusal);
        } else {
          r.pendingConfIndex = r.raftLog.lastIndex() + i + 1;
        }
      }
      r.appendEntry(m.entries);
      r.bcastAppend();
      return null;
    case 'MsgReadIndex':
      r.handleReadIndex(m);
      return null;
  }

  const pr = r.prs.progress.get(m.from);
  if (!pr) return null;
  switch (m.type) {
    case 'MsgAppResp': {
      pr.recentActive = true;
      if (m.reject) {
        // Fast back-up (Raft paper 5.3, etcd's findConflictByTerm): jump over the follower's
        // conflicting term using its hint instead of decrementing next one entry at a time.
        let nextProbeIdx = m.rejectHint;
        if (m.logTerm > 0)
          nextProbeIdx = r.raftLog.findConflictByTerm(m.rejectHint, m.logTerm).index;
        if (pr.maybeDecrTo(m.index, nextProbeIdx)) {
          if (pr.state === 'StateReplicate') pr.becomeProbe();
          r.sendAppend(m.from);
        }
        return null;
      }
      const oldPaused = pr.isPaused();
      if (!pr.maybeUpdate(m.index)) return null;
      if (pr.state === 'StateProbe') pr.becomeReplicate();
      else if (pr.state === 'StateSnapshot' && pr.match >= pr.pendingSnapshot) {
        pr.becomeProbe();
        pr.becomeReplicate();
      } else if (pr.state === 'StateReplicate') pr.inflights.freeLE(m.index);
      if (r.maybeCommit()) {
        r.releasePendingReadIndexMessages();
        r.bcastAppend();
      } else if (oldPaused) {
        r.sendAppend(m.from);
      }
      // Stream whatever else the window allows.
      while (r.maybeSendAppend(m.from, false)) {
        /* keep sending */
      }
      return null;
    }
    case 'MsgHeartbeatResp': {
      pr.recentActive = true;
      pr.msgAppFlowPaused = false;
      // A lost MsgApp would otherwise leave the window full forever.
      if (pr.state === 'StateReplicate' && pr.inflights.full()) pr.inflights.freeFirstOne();
      if (pr.match < r.raftLog.lastIndex()) r.sendAppend(m.from);
      if (m.context === '') return null;
      const acks = r.readOnly.recvAck(m.from, m.context);
      if (!acks || r.prs.voteResult((id) => (acks.has(id) ? true : undefined)) !== 'VoteWon')
        return null;
      for (const rs of r.readOnly.advance(m.context)) r.respondToReadIndex(rs.req, rs.index);
      return null;
    }
    case 'MsgSnapStatus':
      if (pr.state !== 'StateSnapshot') return null;
      if (m.reject) pr.pendingSnapshot = 0;
      pr.becomeProbe();
      // Wait for a heartbeat response before probing (the follower may still be applying).
      pr.msgAppFlowPaused = true;
      return null;
    case 'MsgUnreachable':
      if (pr.state === 'StateReplicate') pr.becomeProbe();
      return null;
  }
  return null;
}

function stepCandidate(r: Raft, m: Message): RaftError | null {
  // A pre-candidate counts PreVote responses; a candidate counts Vote responses. Responses of the
  // other kind are stale (from an earlier round) and ignored.
  const myVoteRespType: MessageType =
    r.state === 'StatePreCandidate' ? 'MsgPreVoteResp' : 'MsgVoteResp';
  switch (m.type) {
    case 'MsgProp':
      return 'ErrProposalDropped';
    case 'MsgApp':
      r.becomeFollower(m.term, m.from); // a leader exists in our term: it won
      r.handleAppendEntries(m);
      return null;
    case 'MsgHeartbeat':
      r.becomeFollower(m.term, m.from);
      r.handleHeartbeat(m);
      return null;
    case 'MsgSnap':
      r.becomeFollower(m.term, m.from);
      r.handleSnapshot(m);
      return null;
    case 'MsgReadIndex':
      return 'ErrProposalDropped';
  }
  if (m.type === myVoteRespType) {
    const res = r.poll(m.from, m.type, !m.reject);
    if (res === 'VoteWon') {
      if (r.state === 'StatePreCandidate') r.campaign('campaignElection');
      else {
        r.becomeLeader();
        r.bcastAppend();
      }
    } else if (res === 'VoteLost') {
      // Split or lost vote (Raft paper 5.2): back to follower; a later timeout retries.
      r.becomeFollower(r.term, None);
    }
  }
  return null;
}

function stepFollower(r: Raft, m: Message): RaftError | null {
  switch (m.type) {
    case 'MsgProp':
      if (r.lead === None) return 'ErrProposalDropped';
      m.to = r.lead;
      r.send(m); // forward to the leader
      return null;
    case 'MsgApp':
      r.electionElapsed = 0;
      r.lead = m.from;
      r.handleAppendEntries(m);
      return null;
    case 'MsgHeartbeat':
      r.electionElapsed = 0;
      r.lead = m.from;
      r.handleHeartbeat(m);
      return null;
    case 'MsgSnap':
      r.electionElapsed = 0;
      r.lead = m.from;
      r.handleSnapshot(m);
      return null;
    case 'MsgReadIndex':
      if (r.lead === None) return 'ErrProposalDropped';
      m.to = r.lead;
      r.send(m);
      return null;
    case 'MsgReadIndexResp':
      if (m.entries.length !== 1) return null;
      r.readStates.push({ index: m.index, requestCtx: m.entries[0]!.data });
      return null;
  }
  return null;
}
