/**
 * A Raft cluster on the simulation kernel: N RawNodes as kernel processes, talking over the kernel
 * network, ticking every tickMs, persisting each Ready to the process's disk (a MemoryStorage kept
 * in the kernel Disk) before sending its messages, applying committed entries to a pluggable state
 * machine, and taking snapshots to compact the log. Crash and restart go through the kernel: a
 * restarted member rebuilds its RawNode and state machine from its disk alone.
 *
 * Everything is event-driven: results come back through callbacks run by the kernel.
 */
import type { Kernel, ProcessContext } from '../kernel/index.ts';
import type { CommitRule } from './commit-rule.ts';
import type { VoteRule } from './vote-rule.ts';
import { RawNode } from './rawnode.ts';
import { MemoryStorage } from './storage.ts';
import {
  decodeConfChange,
  describeMessage,
  type ConfChange,
  type Entry,
  type Message,
  type NodeId,
  type RaftError,
  type Ready,
  type SnapshotData,
  type Status,
} from './types.ts';

/** The replicated application. apply() sees every committed entry in order (empty ones too). */
export interface StateMachine {
  apply(entry: Entry): void;
  /** The state's image (for snapshots): a string, or an object nobody mutates afterwards. */
  snapshot(): SnapshotData;
  /** Replaces the state with a snapshot's. */
  restore(data: SnapshotData): void;
}

export interface SimClusterHooks {
  /** After a member processed one Ready (persisted, sent, applied, advanced). */
  onReady?(id: NodeId, rd: Ready, node: RawNode): void;
  /** For each committed entry a member applies, in order. */
  onApply?(id: NodeId, entry: Entry): void;
  /** A member (re)started; its node was rebuilt from disk. */
  onStart?(id: NodeId, node: RawNode): void;
}

export interface SimClusterOptions {
  kernel: Kernel;
  /** Member names (also their network endpoints and process names). Default n1..n3. */
  ids?: NodeId[];
  /** Milliseconds per Raft tick. Default 100 (etcd's --heartbeat-interval). */
  tickMs?: number;
  /** Default 10 ticks (etcd's 1000 ms --election-timeout at 100 ms ticks). */
  electionTick?: number;
  heartbeatTick?: number;
  preVote?: boolean;
  checkQuorum?: boolean;
  maxEntriesPerMsg?: number;
  maxInflightMsgs?: number;
  /** The leader's commit decision (default: Raft's own; the raft-commit lab injects the learner's). */
  commitRule?: CommitRule;
  /** A member's answer to vote requests (default: Raft's own; the raft-vote lab injects the learner's). */
  voteRule?: VoteRule;
  /** Take a snapshot after this many applied entries since the last one (0: never). Default 0. */
  snapshotEvery?: number;
  /** Entries kept in the log behind a snapshot for slow followers (etcd: 5000). Default 20. */
  snapshotCatchUpEntries?: number;
  /** Builds a member's state machine (fresh, empty) at every (re)start. Default: an entry recorder. */
  stateMachine?: (id: NodeId) => StateMachine;
  hooks?: SimClusterHooks;
}

/** The ids this member has seen removed (durable: kept on the process's disk). */
function removedSet(ctx: ProcessContext): Set<NodeId> {
  let set = ctx.disk.get<Set<NodeId>>('removed');
  if (!set) ctx.disk.set('removed', (set = new Set()));
  return set;
}

/** The default state machine: the list of applied non-empty commands. */
export class LogStateMachine implements StateMachine {
  applied: string[] = [];
  apply(e: Entry): void {
    if (e.data !== '') this.applied.push(e.data);
  }
  snapshot(): string {
    return JSON.stringify(this.applied);
  }
  restore(data: SnapshotData): void {
    if (typeof data !== 'string') throw new Error('invariant violated: LogStateMachine snapshots are strings');
    this.applied = data === '' ? [] : (JSON.parse(data) as string[]);
  }
}

interface PendingRead {
  ctx: string;
  index: number; // -1 until the ReadState arrives
  onRead: (index: number) => void;
}

interface Member {
  node: RawNode;
  sm: StateMachine;
  storage: MemoryStorage;
  ctx: ProcessContext;
  reads: PendingRead[];
}

export class SimCluster {
  readonly kernel: Kernel;
  /** Every member ever started (including removed ones), in order. */
  readonly ids: NodeId[];
  readonly tickMs: number;
  /** The initial membership (a joining member starts from it and replays the log's changes). */
  private readonly bootstrapIds: NodeId[];
  private readonly opts: SimClusterOptions;
  private readonly members = new Map<NodeId, Member>();

  constructor(opts: SimClusterOptions) {
    this.opts = opts;
    this.kernel = opts.kernel;
    this.ids = [...(opts.ids ?? ['n1', 'n2', 'n3'])];
    this.bootstrapIds = [...this.ids];
    this.tickMs = opts.tickMs ?? 100;
    if (this.kernel.trace.detail)
      this.kernel.net.setFormatter((m) => describeMessage(m as Message));
    for (const id of this.ids) this.kernel.spawn(id, (ctx) => this.boot(id, ctx));
  }

  /** The live RawNode of a member (undefined while it is crashed). */
  node(id: NodeId): RawNode | undefined {
    return this.live(id)?.node;
  }

  stateMachine(id: NodeId): StateMachine | undefined {
    return this.live(id)?.sm;
  }

  /** The member's disk (kept across crashes). */
  storage(id: NodeId): MemoryStorage {
    const s = this.kernel.process(id)?.disk.get<MemoryStorage>('raft');
    if (!s) throw new Error(`no member named ${id}`);
    return s;
  }

  status(id: NodeId): Status | undefined {
    return this.node(id)?.status();
  }

  isUp(id: NodeId): boolean {
    return this.live(id) !== undefined;
  }

  /** The live member that believes it leads in the highest term, if any. */
  leader(): NodeId | undefined {
    let best: NodeId | undefined;
    let bestTerm = -1;
    for (const id of this.ids) {
      const r = this.node(id)?.raft;
      if (r && r.state === 'StateLeader' && r.term > bestTerm) {
        best = id;
        bestTerm = r.term;
      }
    }
    return best;
  }

  /** Proposes a command at member `id` (forwarded to the leader if it is a follower). */
  propose(id: NodeId, data: string): RaftError | 'ErrNodeDown' | null {
    const m = this.live(id);
    if (!m) return 'ErrNodeDown';
    const err = m.node.propose(data);
    this.drain(id, m);
    return err;
  }

  /**
   * Starts a linearizable read at member `id`: onRead(index) runs once the read is confirmed by a
   * quorum and the member has applied up to `index` (then its state machine may be read). A read
   * that is dropped (no leader, lost messages, crash) never calls back: retry with a new ctx.
   */
  readIndex(
    id: NodeId,
    ctx: string,
    onRead: (index: number) => void,
  ): RaftError | 'ErrNodeDown' | null {
    const m = this.live(id);
    if (!m) return 'ErrNodeDown';
    m.reads.push({ ctx, index: -1, onRead });
    const err = m.node.readIndex(ctx);
    this.drain(id, m);
    return err;
  }

  /**
   * Starts a new, empty member `id` and proposes adding it (at member `via`). The new member knows
   * the initial membership (like etcd's --initial-cluster) and learns later changes from the log.
   */
  addMember(via: NodeId, id: NodeId): RaftError | 'ErrNodeDown' | null {
    if (!this.ids.includes(id)) {
      this.ids.push(id);
      this.kernel.spawn(id, (ctx) => this.boot(id, ctx));
    }
    return this.proposeConfChange(via, { type: 'ConfChangeAddNode', nodeId: id });
  }

  /** Proposes removing member `id` (at member `via`). A removed member stays up, but idle. */
  removeMember(via: NodeId, id: NodeId): RaftError | 'ErrNodeDown' | null {
    return this.proposeConfChange(via, { type: 'ConfChangeRemoveNode', nodeId: id });
  }

  proposeConfChange(via: NodeId, cc: ConfChange): RaftError | 'ErrNodeDown' | null {
    const m = this.live(via);
    if (!m) return 'ErrNodeDown';
    const err = m.node.proposeConfChange(cc);
    this.drain(via, m);
    return err;
  }

  crash(id: NodeId): void {
    this.kernel.crash(id);
    this.members.delete(id);
  }

  restart(id: NodeId): void {
    this.members.delete(id);
    this.kernel.restart(id);
  }

  private live(id: NodeId): Member | undefined {
    const m = this.members.get(id);
    return m && m.ctx.isLive() ? m : undefined;
  }

  private boot(id: NodeId, ctx: ProcessContext): void {
    let storage = ctx.disk.get<MemoryStorage>('raft');
    if (!storage) {
      storage = new MemoryStorage(this.bootstrapIds);
      ctx.disk.set('raft', storage);
    }
    const o = this.opts;
    const sm = (o.stateMachine ?? (() => new LogStateMachine()))(id);
    const snap = storage.snapshot();
    if (snap.metadata.index > 0) sm.restore(snap.data);
    const trace = this.kernel.trace;
    const node = new RawNode({
      id,
      storage,
      // The log may keep entries behind the snapshot (catch-up entries): don't re-apply them.
      applied: snap.metadata.index,
      rng: ctx.rng,
      electionTick: o.electionTick ?? 10,
      heartbeatTick: o.heartbeatTick ?? 1,
      preVote: o.preVote ?? true,
      checkQuorum: o.checkQuorum ?? true,
      maxEntriesPerMsg: o.maxEntriesPerMsg ?? 64,
      maxInflightMsgs: o.maxInflightMsgs ?? 256,
      commitRule: o.commitRule,
      voteRule: o.voteRule,
      onEvent: trace.enabled ? (kind, detail) => ctx.trace(kind, detail) : undefined,
    });
    const member: Member = { node, sm, storage, ctx, reads: [] };
    this.members.set(id, member);
    // Members tick out of phase, as real machines do (the offset is drawn from the member's RNG).
    ctx.every(
      this.tickMs,
      () => {
        node.tick();
        this.drain(id, member);
      },
      1 + ctx.rng.nextInt(this.tickMs),
    );
    ctx.onMessage<Message>((msg) => {
      // Like etcd's transport, refuse traffic from members known to be removed, so a removed
      // member that never learned of its removal cannot disrupt elections (thesis 4.2.3).
      if (removedSet(ctx).has(msg.from)) return;
      node.step(msg);
      this.drain(id, member);
    });
    o.hooks?.onStart?.(id, node);
  }

  /** Handles every pending Ready: persist, then send, then apply, then advance. */
  private drain(id: NodeId, m: Member): void {
    const { node, storage, sm, ctx } = m;
    const hooks = this.opts.hooks;
    while (node.hasReady()) {
      const rd = node.ready();
      // 1. Persist (the "fsync" happens before any message leaves: Raft paper 5, Figure 2 rules).
      if (rd.snapshot) storage.applySnapshot(rd.snapshot);
      if (rd.entries.length > 0) storage.append(rd.entries);
      if (rd.hardState) storage.setHardState(rd.hardState);
      // 2. Send.
      for (const msg of rd.messages) {
        ctx.send(msg.to, msg);
        if (msg.type === 'MsgSnap') this.reportSnapshotLater(m, msg.to);
      }
      // 3. Apply.
      if (rd.snapshot) sm.restore(rd.snapshot.data);
      for (const e of rd.committedEntries) {
        if (e.type === 'EntryConfChange') this.applyConfChange(m, decodeConfChange(e.data));
        sm.apply(e);
        hooks?.onApply?.(id, e);
      }
      for (const rs of rd.readStates) {
        const read = m.reads.find((r) => r.ctx === rs.requestCtx && r.index < 0);
        if (read) read.index = rs.index;
      }
      node.advance();
      hooks?.onReady?.(id, rd, node);
      this.serveReads(m);
      this.maybeSnapshot(m);
    }
  }

  /**
   * Applies a committed membership change. Removed members are remembered on disk (etcd keeps
   * them in its membership store); a member that applies its own removal shuts down ten ticks
   * later, as etcd's stopWithDelay does, giving its heartbeats time to spread the commit.
   */
  private applyConfChange(m: Member, cc: ConfChange): void {
    m.node.applyConfChange(cc);
    if (cc.type !== 'ConfChangeRemoveNode') return;
    removedSet(m.ctx).add(cc.nodeId);
    if (cc.nodeId !== m.node.id) return;
    m.ctx.trace('raft.member-removed', 'shutting down in 10 ticks');
    m.ctx.setTimer(10 * this.tickMs, () => this.crash(m.node.id));
  }

  private serveReads(m: Member): void {
    if (m.reads.length === 0) return;
    const applied = m.node.raft.raftLog.applied;
    const ready = m.reads.filter((r) => r.index >= 0 && r.index <= applied);
    if (ready.length === 0) return;
    m.reads = m.reads.filter((r) => !(r.index >= 0 && r.index <= applied));
    for (const r of ready) r.onRead(r.index);
  }

  /** Like etcd's transport: report the snapshot as sent a tick later (progress leaves StateSnapshot). */
  private reportSnapshotLater(m: Member, to: NodeId): void {
    m.ctx.setTimer(this.tickMs, () => {
      m.node.reportSnapshot(to, 'SnapshotFinish');
      this.drain(m.node.id, m);
    });
  }

  private maybeSnapshot(m: Member): void {
    const every = this.opts.snapshotEvery ?? 0;
    if (every <= 0) return;
    const applied = m.node.raft.raftLog.applied;
    if (applied - m.storage.snapshot().metadata.index < every) return;
    m.storage.createSnapshot(applied, m.node.raft.confState(), m.sm.snapshot());
    const compactTo = applied - (this.opts.snapshotCatchUpEntries ?? 20);
    if (compactTo >= m.storage.firstIndex()) m.storage.compact(compactTo);
  }
}
