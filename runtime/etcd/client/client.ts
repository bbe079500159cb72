// An etcd client on the simulated network. mirrors client/v3: requests go to one endpoint at a
// time; a request that fails before it could have taken effect ("no leader", endpoint down) is
// retried on the next endpoint; reads are also retried when an endpoint goes quiet; a write is
// retransmitted to the same endpoint (the simulated network drops messages, TCP would not); every call
// ends within its deadline, failing with "context deadline exceeded" if no answer came, in which
// case a write may or may not have happened (the caller must treat it as unknown).
// Watches survive member failures: the client re-opens them elsewhere from the last delivered
// revision + 1 (clientv3 watcher resume). Liveness is checked per connection, not per watch, as
// gRPC keepalive pings an HTTP/2 connection that multiplexes every watch stream: one ping per
// member every TAIL_CHECK_MS names all this client's streams there, and one answer covers them
// with each stream's last position (skipped while the network has dropped nothing and the link is
// whole: then there is nothing to find). The simulated network drops messages where TCP would resend
// them, so that answer is how a lost tail message is found (about when TCP would retransmit it);
// a connection heard from not at all for KEEPALIVE_TIME_MS + KEEPALIVE_TIMEOUT_MS (a partition, a
// dead machine) is dead, and its streams resume elsewhere. A member process that died on a live
// machine resets its connections at once (TCP RST), which the client sees within RESET_CHECK_MS.
import type { Kernel, SimEvent } from '../../kernel/index.ts';
import type { EtcdError, Result } from '../errors.ts';
import { ErrDeadlineExceeded, ErrNoLeader, ErrStopped, fail } from '../errors.ts';
import type { WatchRequest } from '../mvcc/watch.ts';
import type { ClientRequest, RequestMessage, WatchMessage } from '../server/protocol.ts';
import { isEtcdMessage, WRITE_OPS } from '../server/protocol.ts';
import type { CallOptions, Callback, ClientClock, EtcdClient, WatchHandle, WatchListener } from './types.ts';

export interface ClientOptions {
  /** Network endpoint name of this client (must be unique). */
  name: string;
  /** Client URL -> member network endpoint, in preference order. */
  endpoints: { url: string; member: string }[];
  /** Other URLs that reach a member (an --endpoints value may name them), e.g. 127.0.0.1:2379 on its machine. */
  aliases?: { url: string; member: string }[];
  /** Default per-call deadline (etcdctl --command-timeout default 5 s). */
  timeoutMs?: number;
  /** Reads give up on a silent endpoint after this long and try the next one. */
  attemptTimeoutMs?: number;
  /** False once the owning process crashed: no more sends, timers or callbacks. */
  isLive?: () => boolean;
}

const RETRY_BACKOFF_MS = 50;
/** Retransmission interval for an unanswered write (Linux TCP's minimum RTO is 200 ms). */
const RETRANSMIT_MS = 200;
/**
 * kube-apiserver's etcd client keepalive (storage/storagebackend/factory/etcd3.go keepaliveTime 30 s,
 * keepaliveTimeout 10 s).
 */
const KEEPALIVE_TIME_MS = 30_000;
const KEEPALIVE_TIMEOUT_MS = 10_000;
/** How often each connection's stream positions are asked for (TCP would have resent a lost segment by then). */
const TAIL_CHECK_MS = 1_000;
/** How soon a connection reset from a dead member process reaches the client. */
const RESET_CHECK_MS = 500;
/** How long a missing watch message may be late (reordering) before we call it lost. */
const GAP_WAIT_MS = 200;
/** Errors that prove the request was not proposed: safe to retry anywhere. */
const NOT_ATTEMPTED = new Set([ErrNoLeader.message, ErrStopped.message]);

export class SimEtcdClient implements EtcdClient {
  readonly endpoints: readonly string[];
  readonly clock: ClientClock;
  private readonly members: Map<string, string>;
  private readonly pending = new Map<string, Call>();
  private readonly watchStreams = new Map<string, (m: WatchMessage) => void>();
  private readonly liveWatches = new Set<ClientWatch>();
  private pinging = false;
  private resetChecking = false;
  /**
   * Scratch for pingConnections: members in the order their first stream came (the first
   * pingMembers slots), and each member's stream keys this round (the first `count` slots). Slots
   * are overwritten, never cleared: `length = 0` would drop the arrays' storage, and refilling
   * them reallocated it on every ping.
   */
  private readonly pingOrder: string[] = [];
  private pingMembers = 0;
  private pingRound = 0;
  private readonly pingKeys = new Map<string, { round: number; count: number; keys: string[] }>();
  /** The stream list last sent to each member; a sent list is never changed afterwards. */
  private readonly pingSent = new Map<string, readonly string[]>();
  /** The network's drop count at the last ping round (see pingConnections). */
  private dropsAtLastRound = -1;
  /** Per member, this round's verdict: ping it (true), or its connection is known sound (false). */
  private readonly pingNeeded = new Map<string, { round: number; needed: boolean }>();
  private seq = 0;
  private preferred = 0;
  private readonly live: () => boolean;

  constructor(private readonly kernel: Kernel, private readonly opts: ClientOptions) {
    this.endpoints = opts.endpoints.map((e) => e.url);
    // "etcd-0:2379" finds "https://etcd-0:2379" too (etcdctl accepts endpoints without a scheme).
    this.members = new Map([...(opts.aliases ?? []), ...opts.endpoints].flatMap((e) => [[e.url, e.member], [withoutScheme(e.url), e.member]] as [string, string][]));
    const live = opts.isLive ?? (() => true);
    this.live = live;
    this.clock = {
      now: () => kernel.now(),
      setTimer: (delayMs, fn) => kernel.setTimer(delayMs, () => {
        if (live()) fn();
      }),
    };
    kernel.setHandler(opts.name, (msg) => this.onMessage(msg));
  }

  /** Stops listening (the owner went away). */
  close(): void {
    this.kernel.setHandler(this.opts.name, null);
  }

  // ---- the generic call -----------------------------------------------------------------------

  private call<T>(request: ClientRequest, cb: Callback<T>, opts: CallOptions | undefined, operation: string, operand?: string | number): void {
    const candidates: readonly string[] = opts?.endpoint ? [opts.endpoint] : (opts?.endpoints ?? this.endpoints);
    const call = new Call(this, `${this.opts.name}#${this.seq++}`, request, cb as Reply, candidates, operation, operand);
    call.deadline = this.kernel.schedule(opts?.timeoutMs ?? this.opts.timeoutMs ?? 5000, onDeadline, call);
    call.send();
  }

  /** For Call: a timer that, like clock.setTimer, does nothing once the owner is gone. */
  callTimer(delayMs: number, fn: (arg: unknown) => void, call: Call): SimEvent {
    return this.kernel.schedule(delayMs, fn, call);
  }

  /** For Call: the member behind a client URL, if it is up. */
  liveMemberAt(url: string): string | undefined {
    const member = this.members.get(url) ?? this.members.get(withoutScheme(url));
    return member !== undefined && this.kernel.net.isUp(member) ? member : undefined;
  }

  /** For Call: sends a request message and waits for its answer (the latest attempt's call answers). */
  sendCall(member: string, call: Call): void {
    this.pending.set(call.reqId, call);
    this.kernel.send(this.opts.name, member, call.message());
  }

  resendCall(member: string, call: Call): void {
    if (this.kernel.net.isUp(member)) this.kernel.send(this.opts.name, member, call.message());
  }

  /** For Call: the call ended; `url` answered it, if any did. */
  settled(call: Call, url: string | undefined): void {
    if (url !== undefined) this.preferred = this.endpoints.indexOf(url);
    this.pending.delete(call.reqId);
  }

  /** False once the owning process crashed. */
  isLive(): boolean {
    return this.live();
  }

  get attemptTimeoutMs(): number {
    return this.opts.attemptTimeoutMs ?? 1000;
  }

  startIndex(candidates: readonly string[]): number {
    const url = this.endpoints[this.preferred];
    const i = url === undefined ? -1 : candidates.indexOf(url);
    return i < 0 ? 0 : i;
  }

  private onMessage(msg: unknown): void {
    if (!isEtcdMessage(msg)) return;
    if (msg.kind === 'etcd.response') this.pending.get(msg.reqId)?.onReply(msg.result);
    else if (msg.kind === 'etcd.watch') this.watchStreams.get(msg.watchKey)?.(msg);
    else if (msg.kind === 'etcd.watch.pong') {
      // an index loop: a pong's list may be a frozen array, which for-of walks slowly
      for (let i = 0; i < msg.streams.length; i++) this.watchStreams.get(msg.streams[i]!.watchKey)?.(msg.streams[i]!);
    }
  }

  // ---- KV, lease, cluster, maintenance ----------------------------------------------------------

  range: EtcdClient['range'] = (req, cb, opts) => this.call({ op: 'range', req }, cb, opts, 'range', req.key);
  put: EtcdClient['put'] = (req, cb, opts) => this.call({ op: 'put', req }, cb, opts, 'put', req.key);
  deleteRange: EtcdClient['deleteRange'] = (req, cb, opts) => this.call({ op: 'deleteRange', req }, cb, opts, 'delete', req.key);
  txn: EtcdClient['txn'] = (req, cb, opts) => this.call({ op: 'txn', req }, cb, opts, 'txn');
  compact: EtcdClient['compact'] = (revision, cb, opts) => this.call({ op: 'compact', revision }, cb, opts, 'compact', revision);
  leaseGrant: EtcdClient['leaseGrant'] = (ttl, cb, opts) => this.call({ op: 'leaseGrant', ttl, id: opts?.id ?? 0 }, cb, opts, 'lease grant');
  leaseRevoke: EtcdClient['leaseRevoke'] = (id, cb, opts) => this.call({ op: 'leaseRevoke', id }, cb, opts, 'lease revoke');
  leaseKeepAliveOnce: EtcdClient['leaseKeepAliveOnce'] = (id, cb, opts) => this.call({ op: 'leaseKeepAlive', id }, cb, opts, 'lease keep-alive');
  leaseTimeToLive: EtcdClient['leaseTimeToLive'] = (id, cb, opts) => this.call({ op: 'leaseTimeToLive', id }, cb, opts, 'lease timetolive');
  memberList: EtcdClient['memberList'] = (cb, opts) => this.call({ op: 'memberList' }, cb, opts, 'member list');
  status: EtcdClient['status'] = (endpoint, cb, opts) => this.call({ op: 'status' }, cb, { ...opts, endpoint }, 'status', endpoint);
  hashKV: EtcdClient['hashKV'] = (endpoint, revision, cb, opts) => this.call({ op: 'hashKV', revision }, cb, { ...opts, endpoint }, 'hashkv', endpoint);
  snapshot: EtcdClient['snapshot'] = (cb, opts) => this.call({ op: 'snapshot' }, cb, opts, 'snapshot');

  // ---- watch --------------------------------------------------------------------------------------

  watch(req: WatchRequest, listener: WatchListener): WatchHandle {
    return new ClientWatch(this, req, listener);
  }

  /** For ClientWatch: (un)subscribe a stream key, and send to a member. */
  streams(): Map<string, (m: WatchMessage) => void> {
    return this.watchStreams;
  }
  sendRaw(member: string, request: ClientRequest): void {
    const msg: RequestMessage = { kind: 'etcd.request', reqId: `${this.opts.name}#${this.seq++}`, replyTo: this.opts.name, request };
    this.kernel.send(this.opts.name, member, msg);
  }
  /** For ClientWatch: join or leave the connection keepalive. */
  track(w: ClientWatch): void {
    this.liveWatches.add(w);
    if (!this.resetChecking) {
      this.resetChecking = true;
      this.clock.setTimer(RESET_CHECK_MS, () => this.checkResets());
    }
    if (this.pinging) return;
    this.pinging = true;
    this.clock.setTimer(TAIL_CHECK_MS, () => this.pingConnections());
  }
  untrack(w: ClientWatch): void {
    this.liveWatches.delete(w);
  }

  /**
   * Every RESET_CHECK_MS, without a message: streams whose member process is gone (the reset of
   * their connection arrived) or that have no member yet open again.
   */
  private checkResets(): void {
    if (this.liveWatches.size === 0) {
      this.resetChecking = false;
      return;
    }
    // resetIfDead() never adds or removes a live watch, so the set is walked as it is
    this.liveWatches.forEach((w) => w.resetIfDead());
    this.clock.setTimer(RESET_CHECK_MS, () => this.checkResets());
  }

  /**
   * Every TAIL_CHECK_MS: resume streams silent past the keepalive timeout, and ping each member once
   * for the rest. The ping stands for what TCP and gRPC keepalive do under a real connection: find
   * a lost tail (TCP resends it) and a dead peer (no ack). Neither can have happened on a
   * connection whose two directions are unbroken while the network has dropped nothing since the
   * last round, so such a connection counts as heard from without a ping: a quiet, healthy
   * cluster sends none (their answers were a few percent of an idle HA cluster's work).
   */
  private pingConnections(): void {
    if (this.liveWatches.size === 0) {
      this.pinging = false;
      return;
    }
    // keepalive() never adds or removes a live watch, so the set is walked as it is
    const round = ++this.pingRound;
    this.pingMembers = 0;
    const now = this.clock.now();
    const drops = this.kernel.net.stats.dropped;
    const nothingLost = drops === this.dropsAtLastRound;
    this.dropsAtLastRound = drops;
    this.liveWatches.forEach((w) => {
      if (!w.keepalive(now)) return;
      const member = w.streamMember;
      if (nothingLost && !this.mustPing(member, round)) return w.heardNow(now);
      let scratch = this.pingKeys.get(member);
      if (scratch === undefined) this.pingKeys.set(member, (scratch = { round: 0, count: 0, keys: [] }));
      if (scratch.round !== round) {
        scratch.round = round;
        scratch.count = 0;
        this.pingOrder[this.pingMembers++] = member;
      }
      scratch.keys[scratch.count++] = w.streamWatchKey;
    });
    for (let m = 0; m < this.pingMembers; m++) {
      // the same streams as last time (the usual case): send the same (never changed) list again
      const member = this.pingOrder[m]!;
      const { keys, count } = this.pingKeys.get(member)!;
      let watchKeys = this.pingSent.get(member);
      if (watchKeys === undefined || !samePrefix(watchKeys, keys, count)) this.pingSent.set(member, (watchKeys = keys.slice(0, count)));
      this.sendRaw(member, { op: 'watchPing', watchKeys });
    }
    this.clock.setTimer(TAIL_CHECK_MS, () => this.pingConnections());
  }

  /** Whether `member`'s connection needs this round's ping: a partition or block cuts it either way. */
  private mustPing(member: string, round: number): boolean {
    let verdict = this.pingNeeded.get(member);
    if (verdict === undefined) this.pingNeeded.set(member, (verdict = { round: 0, needed: false }));
    if (verdict.round !== round) {
      verdict.round = round;
      const net = this.kernel.net;
      verdict.needed = !net.canReach(this.opts.name, member) || !net.canReach(member, this.opts.name);
    }
    return verdict.needed;
  }

  nextId(): number {
    return this.seq++;
  }
  /** The member's connection epoch (kernel network): a new value means the old connection was reset. */
  memberEpoch(member: string): number {
    return this.kernel.net.epoch(member);
  }
  liveMembers(): string[] {
    return this.opts.endpoints.map((e) => e.member).filter((m) => this.kernel.net.isUp(m));
  }
  get name(): string {
    return this.opts.name;
  }
}

type Reply = (result: Result<Record<string, unknown>>) => void;

/**
 * One call in flight: its attempts, write retransmissions and deadline, as one object whose
 * timers are kernel events carrying it (no closures per call: a cancelled timer stays queued until
 * its time, and a closure would keep the whole call alive that long).
 */
class Call {
  deadline: SimEvent | undefined;
  private attemptTimer: SimEvent | undefined;
  private attempt = 0;
  private finished = false;
  /** The endpoint (client URL and member) of the latest attempt that reached a live member. */
  private url: string | undefined;
  private member = '';
  private msg: RequestMessage | undefined;
  private readonly isWrite: boolean;

  constructor(
    readonly client: SimEtcdClient,
    readonly reqId: string,
    private readonly request: ClientRequest,
    private readonly cb: Reply,
    private readonly candidates: readonly string[],
    private readonly operation: string,
    private readonly operand: string | number | undefined,
  ) {
    this.isWrite = WRITE_OPS.has(request.op);
  }

  /** The request message (the same for every attempt: messages are never changed once sent). */
  message(): RequestMessage {
    return (this.msg ??= { kind: 'etcd.request', reqId: this.reqId, replyTo: this.client.name, request: this.request });
  }

  send(): void {
    if (this.finished) return;
    const candidates = this.candidates;
    const url = candidates[(this.client.startIndex(candidates) + this.attempt) % candidates.length]!;
    const member = this.client.liveMemberAt(url);
    // A dead process refuses the connection at once (the request was never sent).
    if (member === undefined) return this.tryNext(RETRY_BACKOFF_MS);
    this.url = url;
    this.member = member;
    this.client.sendCall(member, this);
    this.attemptTimer?.cancel();
    this.attemptTimer = this.client.callTimer(this.isWrite ? RETRANSMIT_MS : this.client.attemptTimeoutMs, onAttemptTimeout, this);
  }

  onReply(r: Result<Record<string, unknown>>): void {
    if (!r.ok && NOT_ATTEMPTED.has(r.error.message) && this.candidates.length > 0) return this.tryNext(RETRY_BACKOFF_MS);
    this.finish(r, this.url);
  }

  attemptTimedOut(): void {
    if (!this.isWrite) return this.tryNext(0); // a silent endpoint: reads move on
    // Writes stay with the member that may have proposed them and retransmit, as TCP would
    // under gRPC; the request ID makes a repeat apply at most once (see state-machine.ts).
    if (!this.finished) this.resend();
  }

  resend(): void {
    if (this.finished) return;
    this.client.resendCall(this.member, this);
    this.attemptTimer = this.client.callTimer(RETRANSMIT_MS, onResend, this);
  }

  expire(): void {
    const operation = this.operand === undefined ? this.operation : `${this.operation} ${this.operand}`;
    this.finish(fail({ ...ErrDeadlineExceeded, operation } satisfies EtcdError), undefined);
  }

  private tryNext(delayMs: number): void {
    this.attempt++;
    this.attemptTimer?.cancel();
    this.attemptTimer = this.client.callTimer(delayMs, onRetry, this);
  }

  private finish(r: Result<Record<string, unknown>>, url: string | undefined): void {
    if (this.finished) return;
    this.finished = true;
    this.attemptTimer?.cancel();
    this.deadline?.cancel();
    this.client.settled(this, url);
    this.cb(r);
  }
}

// A call's timers, like clock.setTimer's, do nothing once the client's owner is gone.
const onDeadline = (arg: unknown): void => {
  if ((arg as Call).client.isLive()) (arg as Call).expire();
};
const onRetry = (arg: unknown): void => {
  if ((arg as Call).client.isLive()) (arg as Call).send();
};
const onAttemptTimeout = (arg: unknown): void => {
  if ((arg as Call).client.isLive()) (arg as Call).attemptTimedOut();
};
const onResend = (arg: unknown): void => {
  if ((arg as Call).client.isLive()) (arg as Call).resend();
};

/** Whether `a` equals the first `n` strings of `b`. */
function samePrefix(a: readonly string[], b: readonly string[], n: number): boolean {
  if (a.length !== n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

function withoutScheme(url: string): string {
  return url.replace(/^[a-z]+:\/\//, '');
}

/** One logical watch that hops between members: resumes from lastRevision + 1 on each new stream. */
class ClientWatch implements WatchHandle {
  private readonly id: number;
  private streamKey = '';
  private member = '';
  /** The member's connection epoch when this stream opened. */
  private epoch = 0;
  private lastRevision: number;
  private lastHeardMs = 0;
  private hop = 0;
  private closed = false;
  private createdSent = false;
  /** Next stream position to deliver, and messages that arrived early (reordered). */
  private nextSeq = 0;
  private early = new Map<number, WatchMessage>();
  private gapTimer: { cancel(): void } | undefined;

  constructor(private readonly client: SimEtcdClient, private readonly req: WatchRequest, private readonly listener: WatchListener) {
    this.id = client.nextId();
    this.lastRevision = req.startRevision && req.startRevision > 0 ? req.startRevision - 1 : 0;
    this.open();
    client.track(this);
  }

  cancel(): void {
    if (this.closed) return;
    this.closed = true;
    this.client.untrack(this);
    this.client.streams().delete(this.streamKey);
    if (this.member) this.client.sendRaw(this.member, { op: 'watchCancel', watchKey: this.streamKey });
  }

  requestProgress(): void {
    if (!this.closed && this.member) this.client.sendRaw(this.member, { op: 'watchProgress', watchKey: this.streamKey });
  }

  /**
   * The keepalive check: a stream not heard from for the keepalive time and timeout resumes
   * elsewhere; otherwise it wants a ping (true), on streamWatchKey at streamMember.
   */
  keepalive(nowMs: number): boolean {
    if (this.closed) return false;
    if (nowMs - this.lastHeardMs >= KEEPALIVE_TIME_MS + KEEPALIVE_TIMEOUT_MS) {
      this.reopen();
      return false;
    }
    return this.member !== '';
  }

  /** The member's process died (its connection was reset), or no member was up when this stream last opened. */
  resetIfDead(): void {
    if (this.closed) return;
    if (this.member === '' || this.client.memberEpoch(this.member) !== this.epoch) this.reopen();
  }

  get streamMember(): string {
    return this.member;
  }

  /** The connection is known sound (pingConnections): as good as a keepalive answer. */
  heardNow(nowMs: number): void {
    this.lastHeardMs = nowMs;
  }

  get streamWatchKey(): string {
    return this.streamKey;
  }

  private open(): void {
    const live = this.client.liveMembers();
    this.lastHeardMs = this.client.clock.now();
    this.client.streams().delete(this.streamKey);
    if (live.length === 0) {
      this.member = '';
      return;
    }
    this.member = live[this.hop % live.length]!;
    this.epoch = this.client.memberEpoch(this.member);
    this.streamKey = `${this.client.name}/w${this.id}.${this.hop}`;
    this.nextSeq = 0;
    this.early = new Map();
    this.gapTimer?.cancel();
    this.gapTimer = undefined;
    this.client.streams().set(this.streamKey, (m) => this.onMessage(m));
    const startRevision = this.lastRevision > 0 ? this.lastRevision + 1 : (this.req.startRevision ?? 0);
    this.client.sendRaw(this.member, { op: 'watchCreate', watchKey: this.streamKey, req: { ...this.req, startRevision } });
  }

  private reopen(): void {
    this.hop++;
    this.open();
  }

  /**
   * Restores stream order like TCP under gRPC: deliver in sequence, hold early messages, drop
   * duplicates, and if a message stays missing (lost), resume on a fresh stream.
   */
  private onMessage(m: WatchMessage): void {
    if (this.closed || m.watchKey !== this.streamKey) return;
    this.lastHeardMs = this.client.clock.now();
    if (m.response === 'gone') return this.reopen();
    if (m.response === 'alive') {
      if (m.seq >= this.nextSeq) this.suspectGap();
      return;
    }
    if (m.seq < this.nextSeq) return; // a duplicate
    if (m.seq === this.nextSeq && this.early.size === 0) {
      // in order with nothing held back (the usual case): deliver it without touching the map (a
      // set and delete per message made V8 shrink, so reallocate, the emptied map's table each time)
      this.nextSeq++;
      return this.deliver(m);
    }
    this.early.set(m.seq, m);
    while (this.early.has(this.nextSeq) && !this.closed) {
      const next = this.early.get(this.nextSeq)!;
      this.early.delete(this.nextSeq++);
      this.deliver(next);
    }
    if (this.early.size > 0) this.suspectGap();
  }

  private suspectGap(): void {
    if (this.gapTimer) return;
    const stream = this.streamKey;
    const waiting = this.nextSeq;
    this.gapTimer = this.client.clock.setTimer(GAP_WAIT_MS, () => {
      this.gapTimer = undefined;
      if (!this.closed && this.streamKey === stream && this.nextSeq === waiting) this.reopen();
    });
  }

  private deliver(m: WatchMessage): void {
    const resp = m.response;
    if (resp === 'alive' || resp === 'gone') return;
    if (resp.created) {
      // The first stream fixes "now" for a watch that started from the next write.
      if (this.lastRevision === 0) this.lastRevision = resp.header.revision;
      if (this.createdSent) return;
      this.createdSent = true;
    }
    if (resp.canceled) {
      this.closed = true;
      this.client.untrack(this);
      this.client.streams().delete(this.streamKey);
    }
    const last = resp.events[resp.events.length - 1];
    if (last) this.lastRevision = Math.max(this.lastRevision, last.kv.modRevision);
    // A progress notification promises nothing older is still coming: resume after it.
    if (resp.progressNotify) this.lastRevision = Math.max(this.lastRevision, resp.header.revision);
    this.listener({ ...resp, watchId: this.id });
  }
}
