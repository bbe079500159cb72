// Lease-based leader election, mirroring client-go tools/leaderelection/leaderelection.go and
// resourcelock/leaselock.go. Candidates race to hold one coordination.k8s.io/v1 Lease:
// - acquire: every retryPeriod (jittered by 1.2, JitterUntil), tryAcquireOrRenew;
// - tryAcquireOrRenew: create the Lease if missing; else, if someone else holds it and it was
//   last seen changing less than leaseDuration ago (by OUR clock: observedTime, not renewTime,
//   so clock skew between candidates does not matter), give up; else take it over with an
//   optimistic-concurrency update (a 409 means another candidate won);
// - renew: every retryPeriod the leader updates renewTime; if no renewal succeeds within
//   renewDeadline it stops leading (onStoppedLeading), so it stops before leaseDuration runs out
//   and another candidate may take over. A leader whose lease is still valid renews with one
//   optimistic update of the record it last observed, without a GET first (the "fast path" of
//   tryAcquireOrRenew); a failed fast path logs "Failed to update lock optimistically" and falls
//   back to GET then update.
// Callbacks run inside kernel events, never concurrently.
import type { Lease } from '../../api/index.ts';
import { SIMULATION_EPOCH_MS, rfc3339Micro } from '../../api/index.ts';
import type { Rng } from '../../kernel/index.ts';
import type { EventRecorder } from '../record/index.ts';
import type { RestClient, RestResponse } from '../rest/rest-client.ts';
import type { QueueClock } from '../workqueue/rate-limiting-queue.ts';

export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;
/** wait.JitterUntil factor leaderelection uses (JitterFactor = 1.2). */
export const JITTER_FACTOR = 1.2;

export interface LeaderCallbacks {
  onStartedLeading(): void;
  onStoppedLeading(): void;
  /** Someone (maybe us) was observed holding the lease for the first time. */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionConfig {
  clock: QueueClock;
  /** Jitter for the acquire loop. */
  rng: Rng;
  client: RestClient;
  /** The Lease: kube-system/kube-controller-manager, kube-system/kube-scheduler... */
  lock: { namespace: string; name: string };
  /** This candidate, unique: "<host>_<uuid>" in kube-controller-manager. */
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  callbacks: LeaderCallbacks;
  /** Records "<identity> became leader" (reason LeaderElection) on the Lease. */
  recorder?: EventRecorder;
  epochMs?: number;
  /** Diagnostics ("failed to acquire lease kube-system/x"). */
  onLog?: (message: string) => void;
}

type Phase = 'stopped' | 'acquiring' | 'leading';

export class LeaderElector {
  private phase: Phase = 'stopped';
  /** Bumped by start/stop/loss; callbacks of an older generation are ignored. */
  private generation = 0;
  private observed: Lease | undefined;
  private observedTimeMs = 0;
  private reportedLeader = '';
  private timer: { cancel(): void } | undefined;
  private deadline: { cancel(): void } | undefined;

  constructor(private readonly c: LeaderElectionConfig) {
    const lease = this.leaseDurationMs;
    const renew = this.renewDeadlineMs;
    const retry = this.retryPeriodMs;
    // leaderelection.go NewLeaderElector's checks
    if (lease <= renew) throw new Error('invariant violated: leaseDuration must be greater than renewDeadline');
    if (renew <= JITTER_FACTOR * retry) throw new Error('invariant violated: renewDeadline must be greater than retryPeriod*JitterFactor');
    if (c.identity === '') throw new Error('invariant violated: leader election requires an identity');
  }

  get leaseDurationMs(): number {
    return this.c.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
  }
  get renewDeadlineMs(): number {
    return this.c.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
  }
  get retryPeriodMs(): number {
    return this.c.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
  }

  isLeader(): boolean {
    return this.phase === 'leading';
  }

  /** The holder last observed (GetLeader). */
  getLeader(): string {
    return this.observed?.spec?.holderIdentity ?? '';
  }

  /** Starts campaigning (Run): acquire, then renew until lost or stopped. */
  start(): void {
    if (this.phase !== 'stopped') return;
    this.phase = 'acquiring';
    const gen = ++this.generation;
    this.acquireAttempt(gen);
  }

  /** Stops campaigning; a leader stops leading (without releasing the lease, ReleaseOnCancel off). */
  stop(): void {
    if (this.phase === 'stopped') return;
    const wasLeader = this.phase === 'leading';
    this.halt();
    if (wasLeader) this.c.callbacks.onStoppedLeading();
  }

  private halt(): void {
    this.phase = 'stopped';
    this.generation++;
    this.timer?.cancel();
    this.deadline?.cancel();
  }

  private acquireAttempt(gen: number): void {
    this.tryAcquireOrRenew(gen, (ok) => {
      if (gen !== this.generation) return;
      if (ok) return this.becomeLeader(gen);
      const jitteredMs = this.retryPeriodMs + Math.floor(this.c.rng.nextFloat() * JITTER_FACTOR * this.retryPeriodMs);
      this.timer = this.c.clock.setTimer(jitteredMs, () => this.acquireAttempt(gen));
    });
  }

  private becomeLeader(gen: number): void {
    this.phase = 'leading';
    this.c.onLog?.(`successfully acquired lease ${this.c.lock.namespace}/${this.c.lock.name}`);
    if (this.observed) this.c.recorder?.eventf(leaseRef(this.observed), 'Normal', 'LeaderElection', '%v became leader', this.c.identity);
    this.c.callbacks.onStartedLeading();
    if (gen === this.generation) this.scheduleRenewRound(gen);
  }

  /** One renew round: retry every retryPeriod until success or renewDeadline (PollImmediateUntil). */
  private scheduleRenewRound(gen: number): void {
    this.timer = this.c.clock.setTimer(this.retryPeriodMs, () => {
      this.deadline = this.c.clock.setTimer(this.renewDeadlineMs, () => {
        if (gen === this.generation) this.lose(`failed to renew lease ${this.c.lock.namespace}/${this.c.lock.name}: timed out waiting for the condition`);
      });
      this.renewAttempt(gen);
    });
  }

  private renewAttempt(gen: number): void {
    this.tryAcquireOrRenew(gen, (ok) => {
      if (gen !== this.generation) return;
      if (ok) {
        this.deadline?.cancel();
        return this.scheduleRenewRound(gen);
      }
      this.timer = this.c.clock.setTimer(this.retryPeriodMs, () => this.renewAttempt(gen));
    });
  }

  private lose(why: string): void {
    this.c.onLog?.(why);
    this.halt();
    this.c.onLog?.('leaderelection lost');
    this.c.callbacks.onStoppedLeading();
  }

  private tryAcquireOrRenew(gen: number, done: (ok: boolean) => void): void {
    const nowMs = this.c.clock.now();
    const now = rfc3339Micro(nowMs, this.c.epochMs ?? SIMULATION_EPOCH_MS);
    const base = { group: 'coordination.k8s.io', resource: 'leases', namespace: this.c.lock.namespace };
    // 1. the fast path: a leader whose lease is still valid by its own clock updates optimistically
    // from the record it last observed (no GET); only if that fails does it fall back to the slow path
    const observed = this.observed;
    if (this.phase === 'leading' && observed && this.leaseValid(nowMs)) {
      const spec = { ...observed.spec, holderIdentity: this.c.identity, leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000), renewTime: now };
      const body: Lease = { ...observed, spec };
      this.c.client.request({ verb: 'update', ...base, name: this.c.lock.name, body }, (upd) => {
        if (gen !== this.generation) return;
        if (upd.code === 200) {
          this.observe(upd.body as Lease);
          return done(true);
        }
        this.c.onLog?.(`Failed to update lock optimistically: ${statusMessage(upd)}, falling back to slow path`);
        this.slowPath(gen, now, base, done);
      });
      return;
    }
    this.slowPath(gen, now, base, done);
  }

  /** isLeaseValid: the observed record was seen changing less than its leaseDurationSeconds ago. */
  private leaseValid(nowMs: number): boolean {
    const seconds = this.observed?.spec?.leaseDurationSeconds ?? Math.round(this.leaseDurationMs / 1000);
    return this.observedTimeMs + seconds * 1000 > nowMs;
  }

  /** 2. obtain (or create) the record, 3. check holder and time, 4. take it or renew it. */
  private slowPath(gen: number, now: string, base: { group: string; resource: string; namespace: string }, done: (ok: boolean) => void): void {
    this.c.client.request({ verb: 'get', ...base, name: this.c.lock.name }, (res) => {
      if (gen !== this.generation) return;
      if (res.code === 404) return this.create(base, now, gen, done);
      if (res.code !== 200) {
        this.c.onLog?.(`error retrieving resource lock ${this.c.lock.namespace}/${this.c.lock.name}: ${statusMessage(res)}`);
        return done(false);
      }
      const lease = res.body as Lease;
      this.observe(lease);
      const holder = lease.spec?.holderIdentity ?? '';
      if (holder !== '' && holder !== this.c.identity && this.observedTimeMs + this.leaseDurationMs > this.c.clock.now()) {
        this.c.onLog?.(`lock is held by ${holder} and has not yet expired`);
        return done(false);
      }
      const mine = holder === this.c.identity;
      const spec = {
        holderIdentity: this.c.identity,
        leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000),
        acquireTime: mine ? (lease.spec?.acquireTime ?? now) : now,
        renewTime: now,
        leaseTransitions: mine ? (lease.spec?.leaseTransitions ?? 0) : (lease.spec?.leaseTransitions ?? 0) + 1,
      };
      const body: Lease = { ...lease, spec: { ...lease.spec, ...spec } };
      this.c.client.request({ verb: 'update', ...base, name: this.c.lock.name, body }, (upd) => {
        if (gen !== this.generation) return;
        if (upd.code !== 200) {
          this.c.onLog?.(`Failed to update lock: ${statusMessage(upd)}`);
          return done(false);
        }
        this.observe(upd.body as Lease);
        done(true);
      });
    });
  }

  private create(base: { group: string; resource: string; namespace: string }, now: string, gen: number, done: (ok: boolean) => void): void {
    const body: Lease = {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
      metadata: { name: this.c.lock.name, namespace: this.c.lock.namespace },
      spec: { holderIdentity: this.c.identity, leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000), acquireTime: now, renewTime: now, leaseTransitions: 0 },
    };
    this.c.client.request({ verb: 'create', ...base, body }, (res) => {
      if (gen !== this.generation) return;
      if (res.code !== 201) {
        this.c.onLog?.(`error initially creating leader election record: ${statusMessage(res)}`);
        return done(false);
      }
      this.observe(res.body as Lease);
      done(true);
    });
  }

  /** Remembers the record and, when it changed, when we saw it change (observedTime). */
  private observe(lease: Lease): void {
    const before = this.observed?.spec;
    const after = lease.spec;
    if (!before || before.holderIdentity !== after?.holderIdentity || before.renewTime !== after?.renewTime
      || before.leaseTransitions !== after?.leaseTransitions || before.acquireTime !== after?.acquireTime) {
      this.observedTimeMs = this.c.clock.now();
    }
    this.observed = lease;
    const holder = after?.holderIdentity ?? '';
    if (holder !== '' && holder !== this.reportedLeader) {
      this.reportedLeader = holder;
      this.c.callbacks.onNewLeader?.(holder);
    }
  }
}

function leaseRef(lease: Lease): Lease {
  return { ...lease, apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' };
}

function statusMessage(res: RestResponse): string {
  const body = res.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : `code ${res.code}`;
}
