// One etcd member: a kernel process running a Raft node (runtime/raft RawNode) whose committed
// entries are applied to the MVCC store, serving clients on its network endpoint.
// mirrors server/etcdserver/server.go (run loop: persist, send, apply; processInternalRaftRequest
// with a wait registry keyed by request ID), v3_server.go (linearizableReadLoop via ReadIndex,
// LeaseRenew/LeaseTimeToLive forwarded to the leader) and raft.go's raftNode Ready handling.
import type { ProcessContext } from '../../kernel/index.ts';
import { MemoryStorage, None, RawNode, type Ready, type Snapshot } from '../../raft/index.ts';
import type { Result } from '../errors.ts';
import { ErrLeaseNotFound, ErrNoLeader, ErrRequestTooLarge, ErrTimeout, fail, ok } from '../errors.ts';
import { encodeSnapshotFile, decodeSnapshotFile } from '../mvcc/snapshot-file.ts';
import { WatchHub, type WatchRequest } from '../mvcc/watch.ts';
import type { RangeRequest } from '../mvcc/types.ts';
import type { EndpointStatus, Member, ResponseHeader } from '../client/types.ts';
import { LeaderLessor } from './lessor.ts';
import type { Proposal, RequestMessage, ResponseMessage, WatchMessage, WatchPingResponseMessage, WriteCommand } from './protocol.ts';
import { isEtcdMessage, WRITE_OPS } from './protocol.ts';
import { checkPeerMessage, ignoredLog, isRaftPeerMessage, isRaftPeerRejection, raftPeerMessage, type RaftPeerRejection } from './peer.ts';
import { requestBytes } from './request-size.ts';
import { EtcdStateMachine, memberSnapshotOf, rememberProposal } from './state-machine.ts';

export interface MemberSpec {
  /** etcd --name: what `member list` shows (kubeadm names each member after its machine). */
  name: string;
  /** The member's process and network endpoint in the simulation (its Raft ID here). */
  process: string;
  /** 16-digit hex member ID. */
  id: string;
  peerURL: string;
  clientURL: string;
}

export interface MemberConfig {
  clusterId: string;
  members: MemberSpec[];
  version: string;
  tickMs: number;
  electionTicks: number;
  /** Take a Raft snapshot every this many applied entries (etcd --snapshot-count). */
  snapshotEvery: number;
  /** Entries kept behind a snapshot for slow followers (etcd: 5000). */
  snapshotCatchUpEntries: number;
  maxRequestBytes: number;
  /** Server-side limit before answering "etcdserver: request timed out". */
  requestTimeoutMs: number;
  /** A snapshot file to boot a brand-new cluster from (etcdutl snapshot restore). */
  restoreFrom?: string;
}

/** Answers a request; `revision` overrides the header revision (a write's own revision). */
type Reply = (result: Result<Record<string, unknown>>, revision?: number) => void;

/** A linearizable range waiting for its ReadIndex and the apply (plain data: no closures per read). */
interface PendingRead {
  ctx: string;
  index: number; // -1 until the ReadState arrives
  issuedMs: number;
  replyTo: string;
  reqId: string;
  req: RangeRequest;
}

/** Live view of a member for the cluster object and tests. */
export interface MemberHandle {
  readonly spec: MemberSpec;
  readonly node: RawNode;
  store(): EtcdStateMachine['store'];
}

const LEASE_CHECK_MS = 500;
const READ_RETRY_TICKS = 5;
/** v3rpc maxNoLeaderCnt: election timeouts without a leader before watch streams are canceled. */
const MAX_NO_LEADER_COUNT = 3;

export function startMember(ctx: ProcessContext, spec: MemberSpec, cfg: MemberConfig, register: (h: MemberHandle | null) => void): void {
  const m = new EtcdMember(ctx, spec, cfg);
  register(m);
}

class EtcdMember implements MemberHandle {
  readonly node: RawNode;
  private readonly storage: MemoryStorage;
  private sm: EtcdStateMachine;
  private hub: WatchHub;
  private readonly lessor = new LeaderLessor();
  private readonly waiters = new Map<string, Reply>();
  private reads: PendingRead[] = [];
  private readonly watches = new Map<string, { hubId: number; replyTo: string; sent: number; alive?: WatchMessage; dropped?: boolean }>();
  /** The last pong's stream list per client: a quiet connection gets the same (frozen) list again. */
  private readonly lastPongs = new Map<string, { keys: readonly string[]; streams: readonly WatchMessage[] }>();
  private readonly relays = new Map<string, { replyTo: string; reqId: string }>();
  private seq = 0;
  private wasLeader = false;
  private noLeaderCount = 0;
  private readonly minLeaseTtlSeconds: number;

  constructor(private readonly ctx: ProcessContext, readonly spec: MemberSpec, private readonly cfg: MemberConfig) {
    // mirrors lessor.go: minTTL = ceil(3/2 * election timeout) in seconds.
    this.minLeaseTtlSeconds = Math.ceil((1.5 * cfg.electionTicks * cfg.tickMs) / 1000);
    this.storage = this.loadStorage();
    this.sm = new EtcdStateMachine(this.minLeaseTtlSeconds);
    const snap = this.storage.snapshot();
    if (snap.metadata.index > 0) this.sm.restore(snap.data);
    this.hub = new WatchHub(this.sm.store);
    this.node = new RawNode({
      id: spec.process,
      storage: this.storage,
      rng: ctx.rng,
      electionTick: cfg.electionTicks,
      heartbeatTick: 1,
      preVote: true,
      checkQuorum: true,
      onEvent: (kind, detail) => ctx.trace(kind, detail),
    });
    ctx.every(cfg.tickMs, () => this.onTick(), 1 + ctx.rng.nextInt(cfg.tickMs));
    ctx.every(LEASE_CHECK_MS, () => this.revokeExpiredLeases());
    ctx.every(cfg.electionTicks * cfg.tickMs, () => this.monitorLeader());
    ctx.onMessage<unknown>((msg, from) => this.onMessage(msg, from));
    ctx.trace('etcd.start', `member ${spec.id} at revision ${this.sm.store.revision}`);
  }

  store(): EtcdStateMachine['store'] {
    return this.sm.store;
  }

  // ---- disk -----------------------------------------------------------------------------------

  private loadStorage(): MemoryStorage {
    const existing = this.ctx.disk.get<MemoryStorage>('raft');
    if (existing) return existing;
    const voters = this.cfg.members.map((m) => m.process);
    const storage = new MemoryStorage(voters);
    if (this.cfg.restoreFrom !== undefined) {
      // etcdutl snapshot restore: a fresh log whose first entry is a snapshot of the old store.
      const decoded = decodeSnapshotFile(this.cfg.restoreFrom);
      if (!decoded.ok) throw new Error(`snapshot restore: ${decoded.error.message}`);
      const snap: Snapshot = { metadata: { index: 1, term: 1, confState: { voters } }, data: memberSnapshotOf(decoded.value) };
      storage.applySnapshot(snap);
      storage.setHardState({ term: 1, vote: None, commit: 1 });
    }
    this.ctx.disk.set('raft', storage);
    return storage;
  }

  // ---- the Raft loop ----------------------------------------------------------------------------

  private onTick(): void {
    this.node.tick();
    this.retryStaleReads();
    this.drain();
  }

  private onMessage(msg: unknown, from: string): void {
    if (isEtcdMessage(msg)) {
      if (msg.kind === 'etcd.request') this.handleRequest(msg);
      else if (msg.kind === 'etcd.response') this.relayResponse(msg);
      return;
    }
    if (isRaftPeerRejection(msg)) return this.onPeerRejection(msg, from);
    if (!isRaftPeerMessage(msg)) return;
    if (msg.clusterId === this.cfg.clusterId) {
      // our own cluster (every message but a misdirected one): step it without a verdict object
      this.node.step(msg.message);
      this.drain();
      return;
    }
    const verdict = checkPeerMessage({ clusterId: this.cfg.clusterId, memberId: this.spec.id }, msg, from);
    if (!verdict.accept) {
      this.ctx.trace('etcd.peer.reject', verdict.log);
      this.ctx.send(from, verdict.reply);
      return;
    }
    this.node.step(verdict.message);
    this.drain();
  }

  /** A peer of another cluster refused what we sent (412): log it, and treat the peer as unreachable. */
  private onPeerRejection(rejection: RaftPeerRejection, from: string): void {
    if (rejection.requestClusterId !== this.cfg.clusterId) return; // refused what an earlier life sent
    this.ctx.trace('etcd.peer.ignored', ignoredLog(rejection));
    this.node.reportUnreachable(from);
    this.drain();
  }

  /** server.go / raft.go: persist, then send, then apply, then advance, for every Ready. */
  private drain(): void {
    while (this.node.hasReady()) {
      const rd = this.node.ready();
      if (rd.snapshot) this.storage.applySnapshot(rd.snapshot);
      if (rd.entries.length > 0) this.storage.append(rd.entries);
      if (rd.hardState) this.storage.setHardState(rd.hardState);
      // index loops: a Ready's empty lists are shared frozen arrays, which for-of walks slowly
      for (let i = 0; i < rd.messages.length; i++) {
        const msg = rd.messages[i]!;
        this.ctx.send(msg.to, raftPeerMessage(this.cfg.clusterId, this.spec.id, msg));
        if (msg.type === 'MsgSnap') this.reportSnapshotLater(msg.to);
      }
      if (rd.snapshot) this.restoreSnapshot(rd.snapshot);
      for (let i = 0; i < rd.committedEntries.length; i++) this.applyEntry(rd.committedEntries[i]!.data, rd.committedEntries[i]!.index);
      for (let i = 0; i < rd.readStates.length; i++) this.readIndexKnown(rd.readStates[i]!.requestCtx, rd.readStates[i]!.index);
      this.node.advance();
      this.onSoftState(rd);
      this.serveReads();
      this.maybeSnapshot();
    }
  }

  private reportSnapshotLater(to: string): void {
    this.ctx.setTimer(this.cfg.tickMs, () => {
      this.node.reportSnapshot(to, 'SnapshotFinish');
      this.drain();
    });
  }

  private applyEntry(data: string, index: number): void {
    const applied = this.sm.apply(data, index);
    if (!applied) return;
    if (applied.fresh && applied.result.ok) this.afterApply(applied.proposal);
    const reply = this.waiters.get(applied.id);
    if (reply) {
      this.waiters.delete(applied.id);
      reply(applied.result, applied.revision);
    }
  }

  /** Keeps the leader's lease clock in step with grants and revokes. */
  private afterApply(p: Proposal): void {
    if (p.cmd.op === 'leaseGrant') {
      const lease = this.sm.store.lease(p.cmd.id);
      if (lease) this.lessor.granted(lease.id, lease.ttl, this.ctx.now());
    } else if (p.cmd.op === 'leaseRevoke') this.lessor.revoked(p.cmd.id);
  }

  private onSoftState(rd: Ready): void {
    if (!rd.softState) return;
    const leader = rd.softState.raftState === 'StateLeader';
    if (leader && !this.wasLeader) {
      const leases = this.sm.store.leaseIds().map((id) => this.sm.store.lease(id)!);
      this.lessor.promote(leases, this.ctx.now(), this.cfg.electionTicks * this.cfg.tickMs);
      this.ctx.trace('etcd.lessor.promote', `${leases.length} lease(s)`);
    } else if (!leader && this.wasLeader) this.lessor.demote();
    this.wasLeader = leader;
  }

  /**
   * v3rpc/interceptor.go monitorLeader: every election timeout, count how long the member has had
   * no leader; after maxNoLeaderCnt (3) in a row, cancel every watch stream ("etcdserver: no
   * leader"), so clients that asked WithRequireLeader (kube-apiserver does) go elsewhere or retry.
   */
  private monitorLeader(): void {
    this.noLeaderCount = this.node.raft.lead === None ? this.noLeaderCount + 1 : 0;
    if (this.noLeaderCount < MAX_NO_LEADER_COUNT || this.watches.size === 0) return;
    this.ctx.trace('etcd.watch.noleader', `${this.watches.size} stream(s) canceled`);
    const dropped = [...this.watches];
    this.watches.clear();
    for (const [watchKey, w] of dropped) {
      w.dropped = true;
      this.hub.cancel(w.hubId);
      this.sendWatch(w.replyTo, watchKey, 'gone', w.sent);
    }
  }

  /** A snapshot from the leader replaced the store: watchers must resume against the new one. */
  private restoreSnapshot(snap: Snapshot): void {
    this.sm.restore(snap.data);
    this.hub.close();
    for (const [watchKey, w] of this.watches) this.sendWatch(w.replyTo, watchKey, 'gone', w.sent);
    this.watches.clear();
    this.hub = new WatchHub(this.sm.store);
    this.ctx.trace('etcd.snapshot.restore', `index ${snap.metadata.index}, revision ${this.sm.store.revision}`);
  }

  private maybeSnapshot(): void {
    const applied = this.node.raft.raftLog.applied;
    if (this.cfg.snapshotEvery <= 0 || applied - this.storage.snapshot().metadata.index < this.cfg.snapshotEvery) return;
    this.storage.createSnapshot(applied, this.node.raft.confState(), this.sm.snapshot());
    const compactTo = applied - this.cfg.snapshotCatchUpEntries;
    if (compactTo >= this.storage.firstIndex()) this.storage.compact(compactTo);
  }

  // ---- reads ------------------------------------------------------------------------------------

  /** v3_server.go linearizableReadNotify: confirm leadership with a quorum, wait to apply, read. */
  private linearizableRead(replyTo: string, reqId: string, req: RangeRequest): void {
    if (this.node.raft.lead === None) return this.respond(replyTo, reqId, fail(ErrNoLeader));
    const read: PendingRead = {
      ctx: `${this.spec.process}/${this.ctx.incarnation}/r${this.seq++}`,
      index: -1,
      issuedMs: this.ctx.now(),
      replyTo,
      reqId,
      req,
    };
    this.reads.push(read);
    this.node.readIndex(read.ctx);
    this.drain();
  }

  /** A ReadState arrived: the first read still waiting with that context may be served at `index`. */
  private readIndexKnown(ctx: string, index: number): void {
    for (let i = 0; i < this.reads.length; i++) {
      const r = this.reads[i]!;
      if (r.ctx === ctx && r.index < 0) {
        r.index = index;
        return;
      }
    }
  }

  private serveRead(r: PendingRead): void {
    this.respond(r.replyTo, r.reqId, asRecord(this.sm.store.range(r.req)));
  }

  // Called after every Ready (every message): index loops, and no array unless a read is due.
  private serveReads(): void {
    const reads = this.reads;
    if (reads.length === 0) return;
    const applied = this.node.raft.raftLog.applied;
    let due = 0;
    for (let i = 0; i < reads.length; i++) if (isDue(reads[i]!, applied)) due++;
    if (due === 0) return;
    let ready = reads;
    if (due === reads.length) this.reads = [];
    else {
      ready = [];
      const waiting: PendingRead[] = [];
      for (let i = 0; i < reads.length; i++) (isDue(reads[i]!, applied) ? ready : waiting).push(reads[i]!);
      this.reads = waiting;
    }
    for (let i = 0; i < ready.length; i++) this.serveRead(ready[i]!);
  }

  /** A ReadIndex request can be dropped (leader change, lost message): ask again, give up eventually. */
  private retryStaleReads(): void {
    if (this.reads.length === 0) return; // every tick: most have nothing to retry
    const now = this.ctx.now();
    const timeoutMs = this.cfg.requestTimeoutMs;
    let expired = 0;
    for (let i = 0; i < this.reads.length; i++) if (now - this.reads[i]!.issuedMs >= timeoutMs) expired++;
    if (expired > 0) {
      const gone: PendingRead[] = [];
      const waiting: PendingRead[] = [];
      for (const r of this.reads) (now - r.issuedMs >= timeoutMs ? gone : waiting).push(r);
      this.reads = waiting;
      for (const r of gone) this.respond(r.replyTo, r.reqId, fail(ErrTimeout));
    }
    for (const r of this.reads) {
      const ageTicks = Math.floor((now - r.issuedMs) / this.cfg.tickMs);
      if (r.index < 0 && ageTicks > 0 && ageTicks % READ_RETRY_TICKS === 0 && this.node.raft.lead !== None) {
        r.ctx = `${this.spec.process}/${this.ctx.incarnation}/r${this.seq++}`;
        this.node.readIndex(r.ctx);
      }
    }
  }

  // ---- client requests ----------------------------------------------------------------------------

  private header(): ResponseHeader {
    return { clusterId: this.cfg.clusterId, memberId: this.spec.id, revision: this.sm.store.revision, raftTerm: this.node.raft.term };
  }

  private respond(to: string, reqId: string, result: Result<Record<string, unknown>>, revision?: number): void {
    const header = this.header();
    if (revision !== undefined) header.revision = revision;
    const msg: ResponseMessage = {
      kind: 'etcd.response',
      reqId,
      result: result.ok ? ok({ ...result.value, header }) : fail(result.error),
    };
    this.ctx.send(to, msg);
  }

  private handleRequest(msg: RequestMessage): void {
    const { request: r, replyTo, reqId } = msg;
    switch (r.op) {
      // reads and watch traffic (most requests) answer without a reply closure
      case 'range':
        if (r.req.serializable) return this.respond(replyTo, reqId, asRecord(this.sm.store.range(r.req)));
        return this.linearizableRead(replyTo, reqId, r.req);
      case 'watchCreate':
        return this.watchCreate(replyTo, r.watchKey, r.req);
      case 'watchCancel': {
        const w = this.watches.get(r.watchKey);
        this.watches.delete(r.watchKey);
        if (w) this.hub.cancel(w.hubId);
        return;
      }
      case 'watchProgress': {
        const w = this.watches.get(r.watchKey);
        if (w) this.hub.progress(w.hubId);
        return;
      }
      case 'watchPing':
        return this.answerPing(replyTo, r.watchKeys);
    }
    const reply = this.replier(replyTo, reqId);
    if (WRITE_OPS.has(r.op)) return this.propose(`${replyTo}|${reqId}`, r as WriteCommand, reply);
    switch (r.op) {
      case 'leaseKeepAlive':
      case 'leaseTimeToLive':
        return this.leaderOnly(msg, reply);
      case 'memberList':
        return reply(ok({ members: this.cfg.members.map(toMember) }));
      case 'status':
        return reply(ok({ ...this.status() }));
      case 'hashKV':
        return reply(asRecord(this.sm.store.hashKV(r.revision)));
      case 'snapshot':
        return reply(ok({ data: encodeSnapshotFile(this.sm.store.toSnapshot()) }));
    }
  }

  /** The answer to one request (its closure holds just the two names, not the request). */
  private replier(replyTo: string, reqId: string): Reply {
    return (result, revision) => this.respond(replyTo, reqId, result, revision);
  }

  /** v3_server.go processInternalRaftRequestOnce: register a waiter, propose, answer on apply. */
  private propose(id: string, cmd: WriteCommand, reply: Reply): void {
    if (requestBytes(cmd) > this.cfg.maxRequestBytes) return reply(fail(ErrRequestTooLarge));
    if (this.node.raft.lead === None) return reply(fail(ErrNoLeader));
    if (cmd.op === 'leaseGrant' && cmd.id === 0) cmd = { ...cmd, id: this.newLeaseId() };
    const proposal: Proposal = { id, cmd };
    if (this.waiters.has(id)) return; // a duplicated request message: the first one will answer
    const data = JSON.stringify(proposal);
    rememberProposal(data, proposal);
    const err = this.node.propose(data);
    if (err) return reply(fail(ErrNoLeader));
    this.waiters.set(id, reply);
    this.ctx.setTimer(this.cfg.requestTimeoutMs, () => {
      if (this.waiters.get(id) !== reply) return;
      this.waiters.delete(id);
      reply(fail(ErrTimeout));
    });
    this.drain();
  }

  /** A lease ID from this member's random stream (etcd: idutil.Generator seeded by member ID and time). */
  private newLeaseId(): number {
    return this.ctx.rng.nextInt(0x200000) * 0x80000000 + this.ctx.rng.nextInt(0x80000000) + 1;
  }

  /** LeaseRenew and LeaseTimeToLive run on the leader; followers forward and relay the answer. */
  private leaderOnly(msg: RequestMessage, reply: Reply): void {
    const r = msg.request;
    if (r.op !== 'leaseKeepAlive' && r.op !== 'leaseTimeToLive') return;
    if (this.lessor.isPrimary && this.node.raft.state === 'StateLeader') {
      const lease = this.sm.store.lease(r.id);
      const now = this.ctx.now();
      if (r.op === 'leaseKeepAlive') {
        if (!lease || !this.lessor.renew(r.id, lease.ttl, now)) return reply(fail(ErrLeaseNotFound));
        return reply(ok({ id: r.id, ttl: lease.ttl }));
      }
      // v3rpc/lease.go: an unknown lease answers TTL -1 rather than an error.
      if (!lease) return reply(ok({ id: r.id, ttl: -1, grantedTtl: 0, keys: [] }));
      return reply(ok({ id: r.id, ttl: this.lessor.remainingSeconds(r.id, now), grantedTtl: lease.ttl, keys: lease.keys }));
    }
    const lead = this.node.raft.lead;
    if (lead === None || lead === this.spec.process) return reply(fail(ErrNoLeader));
    const relayId = `${this.spec.process}/${this.ctx.incarnation}/f${this.seq++}`;
    this.relays.set(relayId, { replyTo: msg.replyTo, reqId: msg.reqId });
    this.ctx.setTimer(this.cfg.requestTimeoutMs, () => this.relays.delete(relayId));
    const forward: RequestMessage = { kind: 'etcd.request', reqId: relayId, replyTo: this.spec.process, request: r };
    this.ctx.send(lead, forward);
  }

  private relayResponse(msg: ResponseMessage): void {
    const relay = this.relays.get(msg.reqId);
    if (!relay) return;
    this.relays.delete(msg.reqId);
    const out: ResponseMessage = { kind: 'etcd.response', reqId: relay.reqId, result: msg.result };
    this.ctx.send(relay.replyTo, out);
  }

  /** The leader proposes a revoke for every expired lease (lessor.go runLoop / revokeExpiredLeases). */
  private revokeExpiredLeases(): void {
    if (!this.lessor.isPrimary || this.node.raft.state !== 'StateLeader') return;
    const expired = this.lessor.expired(this.ctx.now());
    for (let i = 0; i < expired.length; i++) {
      const id = expired[i]!;
      this.ctx.trace('etcd.lease.expired', id.toString(16).padStart(16, '0'));
      this.propose(`${this.spec.process}/${this.ctx.incarnation}/revoke${this.seq++}`, { op: 'leaseRevoke', id }, () => {});
    }
  }

  // ---- watches ------------------------------------------------------------------------------------

  private watchCreate(replyTo: string, watchKey: string, req: WatchRequest): void {
    if (this.watches.has(watchKey)) return; // duplicated create message
    if (this.node.raft.lead === None) return this.sendWatch(replyTo, watchKey, 'gone', -1);
    const entry: { hubId: number; replyTo: string; sent: number; dropped?: boolean } = { hubId: -1, replyTo, sent: 0 };
    this.watches.set(watchKey, entry);
    entry.hubId = this.hub.watch(req, (resp) => {
      if (entry.dropped) return; // canceled by monitorLeader: the client resumes, it is not told the watch ended
      const header = this.header(); // a fresh object: its revision is this response's
      header.revision = resp.revision;
      this.sendWatch(replyTo, watchKey, { ...resp, header }, entry.sent++);
      if (resp.canceled) this.watches.delete(watchKey);
    });
  }

  /**
   * One answer for every stream of a client connection (the HTTP/2 keepalive ping): 'alive' with the
   * last position sent (so the client notices a lost tail message), or 'gone' for a stream this
   * member no longer has. Leader loss cancels streams in monitorLeader, not here.
   */
  private answerPing(to: string, watchKeys: readonly string[]): void {
    // Messages are never changed once sent, so an unchanged stream's 'alive' record, and an
    // unchanged list of them, are sent again rather than rebuilt every second.
    const last = this.lastPongs.get(to);
    const previous = last !== undefined && last.keys === watchKeys ? last.streams : undefined;
    let streams: WatchMessage[] | undefined;
    for (let i = 0; i < watchKeys.length; i++) {
      const watchKey = watchKeys[i]!;
      const w = this.watches.get(watchKey);
      let m: WatchMessage;
      if (w !== undefined) {
        if (w.alive === undefined || w.alive.seq !== w.sent - 1) w.alive = Object.freeze({ kind: 'etcd.watch', watchKey, response: 'alive', seq: w.sent - 1 });
        m = w.alive;
      } else m = { kind: 'etcd.watch', watchKey, response: 'gone', seq: -1 };
      if (streams === undefined && previous?.[i] === m) continue;
      streams ??= previous ? previous.slice(0, i) : [];
      streams.push(m);
    }
    const sent: readonly WatchMessage[] = streams ?? previous ?? [];
    if (streams !== undefined) this.lastPongs.set(to, { keys: watchKeys, streams: Object.freeze(streams) });
    const msg: WatchPingResponseMessage = { kind: 'etcd.watch.pong', streams: sent };
    this.ctx.send(to, msg);
  }

  private sendWatch(to: string, watchKey: string, response: WatchMessage['response'], seq: number): void {
    const msg: WatchMessage = { kind: 'etcd.watch', watchKey, response, seq };
    this.ctx.send(to, msg);
  }

  // ---- status -------------------------------------------------------------------------------------

  private status(): EndpointStatus {
    const st = this.sm.store.status();
    const lead = this.node.raft.lead;
    const leaderSpec = this.cfg.members.find((m) => m.process === lead);
    return {
      version: this.cfg.version,
      dbSize: st.dbSizeBytes,
      dbSizeInUse: st.dbSizeInUseBytes,
      leader: leaderSpec ? leaderSpec.id : '0000000000000000',
      raftIndex: this.node.raft.raftLog.committed,
      raftTerm: this.node.raft.term,
      raftAppliedIndex: this.node.raft.raftLog.applied,
      errors: lead === None ? [ErrNoLeader.message] : [],
      isLearner: false,
    };
  }
}

function toMember(m: MemberSpec): Member {
  return { id: m.id, name: m.name, peerURLs: [m.peerURL], clientURLs: [m.clientURL], isLearner: false };
}

function isDue(r: PendingRead, applied: number): boolean {
  return r.index >= 0 && r.index <= applied;
}

function asRecord<T extends object>(r: Result<T>): Result<Record<string, unknown>> {
  return r.ok ? ok({ ...r.value } as Record<string, unknown>) : fail(r.error);
}
