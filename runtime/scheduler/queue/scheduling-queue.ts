// The scheduling queue: activeQ (pods ready to be tried, by priority then time), backoffQ (pods
// waiting out their back-off), unschedulablePods (pods waiting for a cluster event).
// mirrors pkg/scheduler/backend/queue/scheduling_queue.go (PriorityQueue: Add, Pop,
// AddUnschedulableIfNotPresent, flushBackoffQCompleted, flushUnschedulablePodsLeftover,
// MoveAllToActiveOrBackoffQueue, moveRequestCycle, calculateBackoffDuration). Pure: the caller
// passes the simulated time and runs the flushes from kernel timers (upstream: every 1 s for the
// backoffQ, every 30 s for the leftover unschedulable pods).
import type { ClusterEvent } from '../framework/cycle.ts';
import type { SchedPodInfo } from '../framework/pod-info.ts';
import { prioritySortLess } from '../plugins/queuesort/priority-sort.ts';
import { eventMayHelp } from './events.ts';
import { KeyedHeap } from './heap.ts';

export const DEFAULT_POD_INITIAL_BACKOFF_MS = 1_000;
export const DEFAULT_POD_MAX_BACKOFF_MS = 10_000;
export const DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS = 5 * 60_000;
export const BACKOFF_FLUSH_PERIOD_MS = 1_000;
export const UNSCHEDULABLE_FLUSH_PERIOD_MS = 30_000;

/** framework.QueuedPodInfo. */
export interface QueuedPodInfo {
  key: string;
  pod: SchedPodInfo;
  /** When the pod was last added to a queue (ordering and back-off start). */
  timestampMs: number;
  initialAttemptTimestampMs: number | null;
  /** Scheduling attempts so far. */
  attempts: number;
  /** Plugins that rejected the pod in its last attempt. */
  unschedulablePlugins: Set<string>;
}

export interface QueueOptions {
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  podMaxInUnschedulablePodsDurationMs?: number;
}

export const podKey = (p: SchedPodInfo): string => `${p.namespace}/${p.name}`;

const activeLess = (a: QueuedPodInfo, b: QueuedPodInfo): boolean =>
  prioritySortLess(
    { priority: a.pod.priority, timestampMs: a.timestampMs },
    { priority: b.pod.priority, timestampMs: b.timestampMs },
  );

export class SchedulingQueue {
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxInUnschedulableMs: number;
  private readonly activeQ = new KeyedHeap<QueuedPodInfo>(activeLess);
  private readonly backoffQ = new KeyedHeap<QueuedPodInfo>(
    (a, b) => this.backoffExpiryMs(a) < this.backoffExpiryMs(b),
  );
  private readonly unschedulable = new Map<string, QueuedPodInfo>();
  /** Incremented on every Pop: the scheduling cycle the popped pod belongs to. */
  private schedulingCycle = 0;
  /** The cycle at the last move request: pods failing in an earlier-started cycle go to backoffQ. */
  private moveRequestCycle = -1;

  constructor(opts: QueueOptions = {}) {
    this.initialBackoffMs = opts.podInitialBackoffMs ?? DEFAULT_POD_INITIAL_BACKOFF_MS;
    this.maxBackoffMs = opts.podMaxBackoffMs ?? DEFAULT_POD_MAX_BACKOFF_MS;
    this.maxInUnschedulableMs =
      opts.podMaxInUnschedulablePodsDurationMs ?? DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS;
  }

  /** The cycle number of the most recent Pop. */
  get cycle(): number {
    return this.schedulingCycle;
  }

  /** Add: a new pending pod goes straight to activeQ. */
  add(pod: SchedPodInfo, nowMs: number): void {
    const key = podKey(pod);
    this.backoffQ.delete(key);
    this.unschedulable.delete(key);
    const existing = this.activeQ.get(key);
    this.activeQ.push(
      key,
      existing
        ? { ...existing, pod }
        : {
            key,
            pod,
            timestampMs: nowMs,
            initialAttemptTimestampMs: null,
            attempts: 0,
            unschedulablePlugins: new Set(),
          },
    );
  }

  /** Pop: the highest-priority, oldest pod of activeQ, its attempt counted; undefined when empty. */
  pop(nowMs: number): QueuedPodInfo | undefined {
    const info = this.activeQ.pop();
    if (!info) return undefined;
    this.schedulingCycle++;
    info.attempts++;
    info.initialAttemptTimestampMs ??= nowMs;
    return info;
  }

  /** calculateBackoffDuration: initial back-off doubled per extra attempt, capped at the max. */
  backoffDurationMs(attempts: number): number {
    let duration = this.initialBackoffMs;
    for (let i = 1; i < attempts; i++) {
      if (duration > this.maxBackoffMs - duration) return this.maxBackoffMs;
      duration += duration;
    }
    return duration;
  }

  backoffExpiryMs(info: QueuedPodInfo): number {
    return info.timestampMs + this.backoffDurationMs(info.attempts);
  }

  isPodBackingOff(info: QueuedPodInfo, nowMs: number): boolean {
    return this.backoffExpiryMs(info) > nowMs;
  }

  /**
   * AddUnschedulableIfNotPresent: a pod that failed in cycle `podCycle` waits in unschedulablePods,
   * unless a move request arrived since that cycle began (then the event it missed may already
   * have helped: backoffQ), or it failed with an error (backoffQ).
   */
  addUnschedulable(
    info: QueuedPodInfo,
    podCycle: number,
    nowMs: number,
    opts: { plugins?: Iterable<string>; error?: boolean } = {},
  ): void {
    if (
      this.activeQ.has(info.key) ||
      this.backoffQ.has(info.key) ||
      this.unschedulable.has(info.key)
    )
      return;
    const requeued: QueuedPodInfo = {
      ...info,
      timestampMs: nowMs,
      unschedulablePlugins: new Set(opts.plugins ?? []),
    };
    if (opts.error || this.moveRequestCycle >= podCycle) this.backoffQ.push(info.key, requeued);
    else this.unschedulable.set(info.key, requeued);
  }

  /** flushBackoffQCompleted: pods whose back-off has expired move to activeQ. */
  flushBackoffQCompleted(nowMs: number): number {
    let moved = 0;
    for (
      let top = this.backoffQ.peek();
      top && !this.isPodBackingOff(top, nowMs);
      top = this.backoffQ.peek()
    ) {
      this.backoffQ.pop();
      this.activeQ.push(top.key, top);
      moved++;
    }
    return moved;
  }

  /** flushUnschedulablePodsLeftover: pods stuck longer than the limit (5 min) are retried. */
  flushUnschedulablePodsLeftover(nowMs: number): number {
    const stale = [...this.unschedulable.values()].filter(
      (i) => nowMs - i.timestampMs > this.maxInUnschedulableMs,
    );
    this.movePods(stale, nowMs);
    return stale.length;
  }

  /** MoveAllToActiveOrBackoffQueue: an event that may help moves the pods it may help. */
  moveAllToActiveOrBackoffQueue(event: ClusterEvent, nowMs: number): number {
    const helped = [...this.unschedulable.values()].filter((i) =>
      eventMayHelp(event, i.unschedulablePlugins),
    );
    this.movePods(helped, nowMs);
    this.moveRequestCycle = this.schedulingCycle;
    return helped.length;
  }

  private movePods(pods: QueuedPodInfo[], nowMs: number): void {
    for (const info of pods) {
      this.unschedulable.delete(info.key);
      if (this.isPodBackingOff(info, nowMs)) this.backoffQ.push(info.key, info);
      else this.activeQ.push(info.key, info);
    }
  }

  /** Delete: the pod is gone (deleted, or bound by someone else). */
  delete(key: string): boolean {
    const a = this.activeQ.delete(key);
    const b = this.backoffQ.delete(key);
    const u = this.unschedulable.delete(key);
    return Boolean(a ?? b) || u;
  }

  /** The earliest back-off expiry, so the caller can set one timer instead of polling. */
  nextBackoffExpiryMs(): number | undefined {
    const top = this.backoffQ.peek();
    return top ? this.backoffExpiryMs(top) : undefined;
  }

  /** PendingPods: where every queued pod is, for `kubectl`-style inspection and tests. */
  pending(): { active: string[]; backoff: string[]; unschedulable: string[] } {
    const keys = (xs: QueuedPodInfo[]) => xs.map((x) => x.key).sort();
    return {
      active: keys(this.activeQ.values()),
      backoff: keys(this.backoffQ.values()),
      unschedulable: keys([...this.unschedulable.values()]),
    };
  }
}
