/**
 * The leader's view of one follower's log. Mirrors etcd-io/raft tracker/progress.go and
 * tracker/inflights.go.
 * - StateProbe: we don't know where the follower's log ends; send one MsgApp per heartbeat round
 *   (paused after each send until a reply or heartbeat response) and back up on rejects.
 * - StateReplicate: the follower is caught up; stream MsgApps optimistically (next moves ahead of
 *   match), bounded by the inflight window.
 * - StateSnapshot: the follower needs a snapshot; nothing else is sent until it is reported.
 * Invariant: match < next.
 */
import type { ProgressStateType, ProgressStatus } from './types.ts';

/** A bounded FIFO of the last indexes of in-flight MsgApps (the flow-control window). */
export class Inflights {
  private readonly buffer: number[];
  private start = 0;
  count = 0;

  constructor(readonly size: number) {
    this.buffer = new Array<number>(size).fill(0);
  }

  add(index: number): void {
    if (this.full()) throw new Error('invariant violated: cannot add into a full inflights window');
    this.buffer[(this.start + this.count) % this.size] = index;
    this.count++;
  }

  /** Frees every in-flight message whose last index is <= to (they were acknowledged). */
  freeLE(to: number): void {
    while (this.count > 0 && this.buffer[this.start]! <= to) {
      this.start = (this.start + 1) % this.size;
      this.count--;
    }
    if (this.count === 0) this.start = 0;
  }

  freeFirstOne(): void {
    if (this.count === 0) return;
    this.start = (this.start + 1) % this.size;
    this.count--;
  }

  full(): boolean {
    return this.count === this.size;
  }

  reset(): void {
    this.count = 0;
    this.start = 0;
  }
}

export class Progress {
  match: number;
  next: number;
  state: ProgressStateType = 'StateProbe';
  /** In StateSnapshot: the index of the snapshot being sent. */
  pendingSnapshot = 0;
  /** Heard from since the last CheckQuorum round. */
  recentActive = false;
  /** In StateProbe: a MsgApp was sent and we wait for an answer (or a heartbeat response). */
  msgAppFlowPaused = false;
  readonly inflights: Inflights;

  constructor(match: number, next: number, maxInflight: number) {
    this.match = match;
    this.next = next;
    this.inflights = new Inflights(maxInflight);
  }

  private resetState(state: ProgressStateType): void {
    this.msgAppFlowPaused = false;
    this.pendingSnapshot = 0;
    this.state = state;
    this.inflights.reset();
  }

  becomeProbe(): void {
    if (this.state === 'StateSnapshot') {
      const pending = this.pendingSnapshot;
      this.resetState('StateProbe');
      this.next = Math.max(this.match + 1, pending + 1);
    } else {
      this.resetState('StateProbe');
      this.next = this.match + 1;
    }
  }

  becomeReplicate(): void {
    this.resetState('StateReplicate');
    this.next = this.match + 1;
  }

  becomeSnapshot(snapshotIndex: number): void {
    this.resetState('StateSnapshot');
    this.pendingSnapshot = snapshotIndex;
  }

  /** An acknowledgement up to n arrived. Returns false if it is stale (n <= match). */
  maybeUpdate(n: number): boolean {
    let updated = false;
    if (this.match < n) {
      this.match = n;
      updated = true;
      this.msgAppFlowPaused = false;
    }
    this.next = Math.max(this.next, n + 1);
    return updated;
  }

  /** Entries up to `last` were sent: record them as in flight / pause probing. */
  sentEntries(count: number, last: number): void {
    if (this.state === 'StateReplicate') {
      if (count > 0) {
        this.next = last + 1;
        this.inflights.add(last);
      }
    } else if (this.state === 'StateProbe') {
      this.msgAppFlowPaused = true;
    }
  }

  /**
   * A MsgApp at index `rejected` was refused; `matchHint` is the follower's hint of where logs may
   * agree. Returns false if the rejection is stale (answers an older probe).
   */
  maybeDecrTo(rejected: number, matchHint: number): boolean {
    if (this.state === 'StateReplicate') {
      if (rejected <= this.match) return false;
      this.next = this.match + 1;
      return true;
    }
    if (this.next - 1 !== rejected) return false;
    this.next = Math.max(Math.min(rejected, matchHint + 1), 1);
    this.msgAppFlowPaused = false;
    return true;
  }

  isPaused(): boolean {
    switch (this.state) {
      case 'StateProbe':
        return this.msgAppFlowPaused;
      case 'StateReplicate':
        return this.inflights.full();
      case 'StateSnapshot':
        return true;
    }
  }

  status(): ProgressStatus {
    return {
      match: this.match,
      next: this.next,
      state: this.state,
      pendingSnapshot: this.pendingSnapshot,
      recentActive: this.recentActive,
      paused: this.isPaused(),
      inflight: this.inflights.count,
    };
  }
}
