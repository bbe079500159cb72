// The kubelet's container restart back-off, mirroring k8s.io/client-go/util/flowcontrol/backoff.go
// as pkg/kubelet/kubelet.go configures it (NewBackOff(10 s, MaxContainerBackOff = 300 s) with a
// HasExpiredFunc of "more than 600 s") and pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff
// uses it. The first restart after an exit is immediate and arms 10 s; each later restart doubles
// the window up to 5 min. Next stamps the entry's lastUpdate with the time of the restart (the
// clock's now, not the exit), so "expired" means the container ran for more than 10 minutes since
// it was last let through; HandlePodCleanups' backOff.GC() forgets an entry whose lastUpdate is
// more than 10 minutes old, which can cut a long window short.
import { formatGoDuration, type RestartPolicy } from '../api/index.ts';

export const INITIAL_BACKOFF_MS = 10_000;
export const MAX_BACKOFF_MS = 300_000;
/** kubelet.go's HasExpiredFunc: an entry counts as expired after more than 600 s. */
export const BACKOFF_RESET_MS = 600_000;

interface Entry {
  backoffMs: number;
  lastUpdateMs: number;
}

export class RestartBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly initialMs = INITIAL_BACKOFF_MS,
    private readonly maxMs = MAX_BACKOFF_MS,
    private readonly expiryMs = 2 * maxMs,
  ) {}

  /** The current back-off for key (0 when none). */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }

  /** IsInBackOffSince: is `nowMs` still inside the back-off window counted from eventMs (the exit)? */
  isInBackOffSince(key: string, eventMs: number, nowMs: number): boolean {
    const entry = this.live(key, nowMs);
    if (!entry) return false;
    if (this.hasExpired(eventMs, entry.lastUpdateMs)) return false;
    return nowMs - eventMs < entry.backoffMs;
  }

  /** Next: arms the first back-off, or doubles it (capped); lastUpdate becomes nowMs (the clock's Now()). */
  next(key: string, eventMs: number, nowMs: number): void {
    const entry = this.live(key, nowMs);
    if (!entry || this.hasExpired(eventMs, entry.lastUpdateMs)) {
      this.entries.set(key, { backoffMs: this.initialMs, lastUpdateMs: nowMs });
      return;
    }
    entry.backoffMs = Math.min(entry.backoffMs * 2, this.maxMs);
    entry.lastUpdateMs = nowMs;
  }

  /**
   * When the window that began at eventMs ends, or GC forgets the entry if that comes first (the
   * first millisecond more than the expiry after lastUpdate): when to try again.
   */
  readyAtMs(key: string, eventMs: number): number {
    const entry = this.entries.get(key);
    if (!entry) return eventMs;
    return Math.min(eventMs + entry.backoffMs, entry.lastUpdateMs + this.expiryMs + 1);
  }

  /** The entry, unless GC() would have removed it by nowMs (lastUpdate expired as seen from now). */
  private live(key: string, nowMs: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && this.hasExpired(nowMs, entry.lastUpdateMs)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private hasExpired(eventMs: number, lastUpdateMs: number): boolean {
    return eventMs - lastUpdateMs > this.expiryMs;
  }
}

/** The kubelet's crash-loop back-off: 10 s doubling to 300 s, reset after more than 600 s. */
export function newCrashLoopBackoff(): RestartBackoff {
  return new RestartBackoff(INITIAL_BACKOFF_MS, MAX_BACKOFF_MS, BACKOFF_RESET_MS);
}

/** One run of a container: started by the kubelet, then exited (or still running). */
export interface ContainerRun {
  /** When the kubelet started it; for a restart, the moment doBackOff let it through (Next's Now()). */
  startedAtMs: number;
  /** When it exited (the runtime's FinishedAt); absent while it runs. */
  finishedAtMs?: number;
  /** Its exit code; absent while it runs. */
  exitCode?: number;
}

/** Everything the kubelet knows about one container when it decides whether to start it again. */
export interface ContainerHistory {
  /** The pod, for the message (format.Pod: name_namespace(uid)). */
  pod: { name: string; namespace: string; uid: string };
  /** The container's name. */
  container: string;
  /** The pod's spec.restartPolicy. */
  restartPolicy: RestartPolicy;
  /** Every run so far, oldest first (at least one). */
  runs: readonly ContainerRun[];
}

/** What the kubelet does about the container at one sync of the pod. */
export type RestartDecision =
  /** The last run has not exited: nothing to do. */
  | { action: 'running' }
  /** The restart policy keeps it down: Never, or OnFailure after exit code 0. */
  | { action: 'done' }
  /** Start it now; backOffMs is the window this restart armed (Next). */
  | { action: 'restart'; backOffMs: number }
  /** CrashLoopBackOff: not before retryAtMs (exit + backOffMs); message is the container's waiting message. */
  | { action: 'wait'; backOffMs: number; retryAtMs: number; message: string };

/**
 * computePodActions + doBackOff for one container at nowMs, from its history: every restart in
 * `runs` was a Next at its startedAtMs for the exit before it. The pure form of what the pod
 * worker does with its RestartBackoff.
 */
export function restartDecision(history: ContainerHistory, nowMs: number): RestartDecision {
  const { runs } = history;
  const last = runs[runs.length - 1];
  if (!last || last.finishedAtMs === undefined) return { action: 'running' };
  if (!shouldRestartAfter(history.restartPolicy, last.exitCode ?? 0)) return { action: 'done' };
  const backoff = newCrashLoopBackoff();
  const key = history.container;
  for (let i = 1; i < runs.length; i++) backoff.next(key, runs[i - 1]!.finishedAtMs ?? runs[i]!.startedAtMs, runs[i]!.startedAtMs);
  const exitMs = last.finishedAtMs;
  if (backoff.isInBackOffSince(key, exitMs, nowMs)) {
    const backOffMs = backoff.get(key);
    const pod = `${history.pod.name}_${history.pod.namespace}(${history.pod.uid})`;
    return {
      action: 'wait',
      backOffMs,
      retryAtMs: exitMs + backOffMs,
      message: `back-off ${formatGoDuration(backOffMs)} restarting failed container=${history.container} pod=${pod}`,
    };
  }
  backoff.next(key, exitMs, nowMs);
  return { action: 'restart', backOffMs: backoff.get(key) };
}

/** ShouldContainerBeRestarted for an exited container: Always, or OnFailure after a non-zero exit. */
export function shouldRestartAfter(policy: RestartPolicy | undefined, exitCode: number): boolean {
  const p = policy ?? 'Always';
  if (p === 'Never') return false;
  if (p === 'OnFailure') return exitCode !== 0;
  return true;
}
