/**
 * RawNode: the application's handle on one Raft node (mirrors etcd-io/raft rawnode.go, with the
 * classic synchronous-storage Ready/Advance contract). The application drives it:
 *
 *   node.tick()                       every tick interval (e.g. 100 ms)
 *   node.step(msg)                    for every message from a peer
 *   node.propose(data)                to replicate a command
 *   node.readIndex(ctx)               to start a linearizable read
 *   while (node.hasReady()) {
 *     const rd = node.ready();
 *     persist rd.hardState, rd.entries, rd.snapshot;  send rd.messages;
 *     apply rd.snapshot, rd.committedEntries;  serve rd.readStates;
 *     node.advance();
 *   }
 */
import { Raft, type Config } from './raft.ts';
import {
  None,
  encodeConfChange,
  isLocalMsg,
  isResponseMsg,
  newMessage,
  type ConfChange,
  type ConfState,
  type HardState,
  type Message,
  type NodeId,
  type ProgressStatus,
  type RaftError,
  type Ready,
  type SoftState,
  type Status,
} from './types.ts';

export type SnapshotStatus = 'SnapshotFinish' | 'SnapshotFailure';

/** What a Ready without messages or read states hands out: shared, so frozen. */
const NO_MESSAGES: Message[] = Object.freeze([]) as unknown as Message[];
const NO_READ_STATES: Ready['readStates'] = Object.freeze([]) as unknown as Ready['readStates'];

export class RawNode {
  /** The state machine inside; exposed read-only for checkers and the Raft view in the UI. */
  readonly raft: Raft;
  private prevSoftState: SoftState;
  private prevHardState: HardState;
  /** The Ready handed out and not yet advanced (advance() needs what it contained). */
  private pendingReady: Ready | null = null;

  constructor(config: Config) {
    this.raft = new Raft(config);
    this.prevSoftState = this.raft.softState();
    this.prevHardState = this.raft.hardState();
  }

  /** Advances the logical clock by one tick (election and heartbeat timeouts count ticks). */
  tick(): void {
    this.raft.tick();
  }

  /** Starts an election now (skipping the timeout), e.g. to bootstrap a single node faster. */
  campaign(): RaftError | null {
    return this.raft.step(newMessage({ type: 'MsgHup', from: this.raft.id }));
  }

  /** Proposes a command. Errors are values: 'ErrProposalDropped' when no leader is known. */
  propose(data: string): RaftError | null {
    return this.raft.step(
      newMessage({
        type: 'MsgProp',
        from: this.raft.id,
        entries: [{ term: 0, index: 0, type: 'EntryNormal', data }],
      }),
    );
  }

  /**
   * Proposes a single-member membership change. Once the EntryConfChange entry is committed, the
   * application must call applyConfChange(decodeConfChange(entry.data)) when it applies it.
   */
  proposeConfChange(cc: ConfChange): RaftError | null {
    return this.raft.step(
      newMessage({
        type: 'MsgProp',
        from: this.raft.id,
        entries: [{ term: 0, index: 0, type: 'EntryConfChange', data: encodeConfChange(cc) }],
      }),
    );
  }

  /** Applies a committed conf change; returns the new membership (store it in snapshots). */
  applyConfChange(cc: ConfChange): ConfState {
    return this.raft.applyConfChange(cc);
  }

  /** Steps a message received from a peer. Local message types are refused. */
  step(m: Message): RaftError | null {
    if (isLocalMsg(m.type)) return 'ErrStepLocalMsg';
    if (isResponseMsg(m.type) && !this.raft.prs.progress.has(m.from)) return 'ErrStepPeerNotFound';
    return this.raft.step(m);
  }

  /**
   * Requests a linearizable read. When confirmed, a ReadState { index, requestCtx: ctx } appears in
   * a later Ready: the read may be served once the state machine has applied up to that index.
   */
  readIndex(ctx: string): RaftError | null {
    return this.raft.step(
      newMessage({
        type: 'MsgReadIndex',
        from: this.raft.id,
        entries: [{ term: 0, index: 0, type: 'EntryNormal', data: ctx }],
      }),
    );
  }

  /** The transport could not reach `id` (the leader then stops streaming to it optimistically). */
  reportUnreachable(id: NodeId): void {
    this.raft.step(newMessage({ type: 'MsgUnreachable', from: id }));
  }

  /** Reports how sending a snapshot to `id` went, so its progress leaves StateSnapshot. */
  reportSnapshot(id: NodeId, status: SnapshotStatus): void {
    this.raft.step(
      newMessage({ type: 'MsgSnapStatus', from: id, reject: status === 'SnapshotFailure' }),
    );
  }

  hasReady(): boolean {
    const r = this.raft;
    // Compare fields directly (no allocation): this runs after every tick and message.
    if (r.lead !== this.prevSoftState.lead || r.state !== this.prevSoftState.raftState) return true;
    const h = this.prevHardState;
    if (r.term !== h.term || r.vote !== h.vote || r.raftLog.committed !== h.commit) return true;
    if (r.raftLog.unstable.snapshot !== null) return true;
    if (
      r.msgs.length > 0 ||
      r.raftLog.unstable.entries.length > 0 ||
      r.raftLog.hasNextCommittedEnts()
    )
      return true;
    return r.readStates.length > 0;
  }

  /** Everything the application must do now. Call advance() after doing it. */
  ready(): Ready {
    if (this.pendingReady)
      throw new Error('invariant violated: ready() called again before advance()');
    const r = this.raft;
    // Compare fields before building state objects: most Readys (a heartbeat, an ack) change neither.
    const prevSoft = this.prevSoftState;
    const softChanged = r.lead !== prevSoft.lead || r.state !== prevSoft.raftState;
    const prevHard = this.prevHardState;
    const hardChanged = r.term !== prevHard.term || r.vote !== prevHard.vote || r.raftLog.committed !== prevHard.commit;
    const ss = softChanged ? r.softState() : null;
    const entries = r.raftLog.unstableEntries();
    const rd: Ready = {
      softState: ss,
      hardState: hardChanged ? r.hardState() : null,
      readStates: r.readStates.length > 0 ? r.readStates : NO_READ_STATES,
      entries,
      snapshot: r.raftLog.unstable.snapshot,
      committedEntries: r.raftLog.nextCommittedEnts(),
      messages: r.msgs.length > 0 ? r.msgs : NO_MESSAGES,
      mustSync: entries.length > 0 || (hardChanged && (r.term !== prevHard.term || r.vote !== prevHard.vote)),
    };
    // Accept the Ready: messages and read states are now the application's.
    if (r.msgs.length > 0) r.msgs = [];
    if (r.readStates.length > 0) r.readStates = [];
    if (ss) this.prevSoftState = ss;
    this.pendingReady = rd;
    return rd;
  }

  /** Tells Raft the last Ready was persisted, sent and applied. */
  advance(): void {
    const rd = this.pendingReady;
    if (!rd) throw new Error('invariant violated: advance() without a ready()');
    this.pendingReady = null;
    const log = this.raft.raftLog;
    if (rd.hardState) this.prevHardState = rd.hardState;
    const lastCommitted = rd.committedEntries[rd.committedEntries.length - 1];
    if (lastCommitted) log.appliedTo(lastCommitted.index);
    else if (rd.snapshot) log.appliedTo(rd.snapshot.metadata.index);
    const lastEntry = rd.entries[rd.entries.length - 1];
    if (lastEntry) log.stableTo(lastEntry.index, lastEntry.term);
    if (rd.snapshot) log.stableSnapTo(rd.snapshot.metadata.index);
  }

  status(): Status {
    const r = this.raft;
    const progress: Record<NodeId, ProgressStatus> = {};
    if (r.state === 'StateLeader')
      for (const [id, pr] of r.prs.progress) progress[id] = pr.status();
    return {
      id: r.id,
      term: r.term,
      vote: r.vote,
      commit: r.raftLog.committed,
      lead: r.lead,
      raftState: r.state,
      applied: r.raftLog.applied,
      lastIndex: r.raftLog.lastIndex(),
      firstIndex: r.raftLog.firstIndex(),
      progress,
    };
  }

  /** The node's id. */
  get id(): NodeId {
    return this.raft.id;
  }

  /** The leader this node knows of, or None. */
  get lead(): NodeId {
    return this.raft.lead === None ? None : this.raft.lead;
  }
}
