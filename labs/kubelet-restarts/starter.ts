// The kubelet-restarts lab: the pod phase the kubelet reports, and when it restarts a container
// that exited (CrashLoopBackOff). Read lab.mdx first. Run the visible examples with
// `npm run grade -- kubelet-restarts --examples`; grade with `npm run grade -- kubelet-restarts`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { ContainerStatus, Pod, PodPhase } from '../../runtime/api/index.ts';
import type { ContainerHistory, RestartDecision } from '../../runtime/kubelet/index.ts';

/** getPhase: Pending, Running, Succeeded or Failed, from the statuses of the pod's containers. */
export function getPhase(pod: Pod, statuses: readonly ContainerStatus[], podIsTerminal: boolean): PodPhase {
  // TODO 1: the init containers: count those not done yet and those that failed.
  // TODO 2: the app containers: count running, waiting, stopped (and succeeded), unknown.
  // TODO 3: decide, in upstream's order (a failed init container with restartPolicy Never first).
  void pod;
  void statuses;
  void podIsTerminal;
  return 'Pending';
}

/** What the kubelet does about this container at nowMs: running, done, restart now, or wait. */
export function restartDecision(history: ContainerHistory, nowMs: number): RestartDecision {
  // TODO 1: a running container needs nothing; the restart policy may keep an exited one down.
  // TODO 2: replay the back-off entry: one Next per restart in history.runs.
  // TODO 3: in back-off at nowMs? Then wait, with the message; otherwise restart and arm the next window.
  void history;
  void nowMs;
  return { action: 'restart', backOffMs: 10_000 };
}
