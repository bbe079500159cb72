// Mutant "phase-always-succeeds": Treats restartPolicy Always like OnFailure once every container stopped: all exited 0 gives Succeeded.
// A plausible wrong solution; the hidden suite must fail it.
import type { ContainerStatus, Pod, PodPhase } from '../../../runtime/api/index.ts';
import type { ContainerHistory, RestartDecision } from '../../../runtime/kubelet/index.ts';

const INITIAL_BACKOFF_MS = 10_000;
const MAX_BACKOFF_MS = 300_000;
const RESET_AFTER_MS = 600_000;

export function getPhase(pod: Pod, statuses: readonly ContainerStatus[], podIsTerminal: boolean): PodPhase {
  const byName = (name: string) => statuses.find((s) => s.name === name);
  const policy = pod.spec.restartPolicy ?? 'Always';

  // init containers: each must have exited 0 before the app containers count
  let pendingInit = 0;
  let failedInit = 0;
  for (const c of pod.spec.initContainers ?? []) {
    const status = byName(c.name);
    const state = status?.state;
    if (!status || !state || state.running) pendingInit++;
    else if (state.terminated) {
      if (state.terminated.exitCode !== 0) failedInit++;
    } else if (state.waiting) {
      const last = status.lastState?.terminated;
      if (!last) pendingInit++;
      else if (last.exitCode !== 0) failedInit++;
    } else pendingInit++;
  }

  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of pod.spec.containers) {
    const status = byName(c.name);
    const state = status?.state;
    if (!status) unknown++;
    else if (state?.running) running++;
    else if (state?.terminated) {
      stopped++;
      if (state.terminated.exitCode === 0) succeeded++;
    } else if (state?.waiting) {
      // waiting after a run (CrashLoopBackOff): stopped, but not counted as a success
      if (status.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }

  if (failedInit > 0 && policy === 'Never') return 'Failed';
  if (pendingInit > 0 || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    const staticPod = (pod.metadata.annotations?.['kubernetes.io/config.source'] ?? 'api') !== 'api';
    if (podIsTerminal && !staticPod) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

/** The crash-loop back-off entry of one container: flowcontrol.Backoff's backoffEntry. */
interface Entry {
  backoffMs: number;
  lastUpdateMs: number;
}

/** The entry as seen at nowMs: GC forgets it once its lastUpdate is more than 10 minutes old. */
function alive(entry: Entry | undefined, nowMs: number): Entry | undefined {
  return entry && nowMs - entry.lastUpdateMs > RESET_AFTER_MS ? undefined : entry;
}

/** Backoff.Next: 10 s for a new (or expired) entry, else double, capped; lastUpdate = now. */
function next(entry: Entry | undefined, exitMs: number, nowMs: number): Entry {
  const current = alive(entry, nowMs);
  if (!current || exitMs - current.lastUpdateMs > RESET_AFTER_MS) return { backoffMs: INITIAL_BACKOFF_MS, lastUpdateMs: nowMs };
  return { backoffMs: Math.min(current.backoffMs * 2, MAX_BACKOFF_MS), lastUpdateMs: nowMs };
}

/** Go's time.Duration.String for whole seconds: "40s", "1m20s", "5m0s". */
function goDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m${seconds % 60}s` : `${seconds}s`;
}

export function restartDecision(history: ContainerHistory, nowMs: number): RestartDecision {
  const { runs } = history;
  const last = runs[runs.length - 1];
  if (!last || last.finishedAtMs === undefined) return { action: 'running' };

  const policy = history.restartPolicy ?? 'Always';
  if (policy === 'Never' || (policy === 'OnFailure' && (last.exitCode ?? 0) === 0)) return { action: 'done' };

  // every restart so far was a Next at its start, for the exit before it
  let entry: Entry | undefined;
  for (let i = 1; i < runs.length; i++) entry = next(entry, runs[i - 1]!.finishedAtMs ?? runs[i]!.startedAtMs, runs[i]!.startedAtMs);

  const exitMs = last.finishedAtMs;
  const current = alive(entry, nowMs);
  const expired = !current || exitMs - current.lastUpdateMs > RESET_AFTER_MS;
  if (current && !expired && nowMs - exitMs < current.backoffMs) {
    const { name, namespace, uid } = history.pod;
    return {
      action: 'wait',
      backOffMs: current.backoffMs,
      retryAtMs: exitMs + current.backoffMs,
      message: `back-off ${goDuration(current.backoffMs)} restarting failed container=${history.container} pod=${name}_${namespace}(${uid})`,
    };
  }
  return { action: 'restart', backOffMs: next(entry, exitMs, nowMs).backoffMs };
}
