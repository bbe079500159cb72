// The pod row of `kubectl get pods`: READY, STATUS and RESTARTS computed as the server-side table
// printer does. mirrors pkg/printers/internalversion/printers.go printPod (restartable init
// containers, Init:x/y, waiting/terminated reasons, Completed-but-running, Terminating, Unknown).
import type { Container, ContainerStatus, Pod, PodCondition } from '../../../api/index.ts';
import { parseRFC3339 } from '../../../api/index.ts';
import { humanDuration, translateTimestampSince } from '../duration.ts';

/** node.NodeUnreachablePodReason (pkg/util/node). */
const NODE_UNREACHABLE_POD_REASON = 'NodeLost';

export const POD_COLUMNS = ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'];
export const POD_WIDE_COLUMNS = ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'];

/** Sidecar containers: init containers with restartPolicy Always (KEP-753). */
function isRestartableInitContainer(container: Container | undefined): boolean {
  return (container as { restartPolicy?: string } | undefined)?.restartPolicy === 'Always';
}

const conditionTrue = (conditions: PodCondition[] | undefined, type: string): boolean =>
  (conditions ?? []).find((c) => c.type === type)?.status === 'True';

/** Later of the current date and the container's last termination, in simulated ms (0 = none). */
function laterRestart(currentMs: number, status: ContainerStatus): number {
  const finishedAt = status.lastState?.terminated?.finishedAt;
  const atMs = finishedAt ? parseRFC3339(finishedAt) : undefined;
  return atMs !== undefined && atMs > currentMs ? atMs : currentMs;
}

function terminatedText(
  prefix: string,
  t: { reason?: string; signal?: number; exitCode: number },
): string {
  if (t.reason) return prefix + t.reason;
  return t.signal ? `${prefix}Signal:${t.signal}` : `${prefix}ExitCode:${t.exitCode}`;
}

export interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

/** READY, STATUS and RESTARTS of a pod at simulated time nowMs. */
export function podSummary(pod: Pod, nowMs: number): PodSummary {
  const spec = pod.spec;
  const status = pod.status ?? {};
  const NO_RESTART = Number.NEGATIVE_INFINITY;
  let restarts = 0;
  let sidecarRestarts = 0;
  let totalContainers = spec.containers.length;
  let readyContainers = 0;
  let lastRestartMs = NO_RESTART;
  let lastSidecarRestartMs = NO_RESTART;
  let reason: string = status.reason || status.phase || '';
  for (const c of status.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const initContainers = new Map<string, Container>();
  for (const c of spec.initContainers ?? []) {
    initContainers.set(c.name, c);
    if (isRestartableInitContainer(c)) totalContainers++;
  }

  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    const sidecar = isRestartableInitContainer(initContainers.get(c.name));
    restarts += c.restartCount;
    lastRestartMs = laterRestart(lastRestartMs, c);
    if (sidecar) {
      sidecarRestarts += c.restartCount;
      lastSidecarRestartMs = laterRestart(lastSidecarRestartMs, c);
    }
    const terminated = c.state?.terminated;
    const waiting = c.state?.waiting;
    if (terminated && terminated.exitCode === 0) continue;
    if (sidecar && c.started) {
      if (c.ready) readyContainers++;
      continue;
    }
    if (terminated) reason = terminatedText('Init:', terminated);
    else if (waiting?.reason && waiting.reason !== 'PodInitializing')
      reason = `Init:${waiting.reason}`;
    else reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    initializing = true;
    break;
  }

  if (!initializing || conditionTrue(status.conditions, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestartMs = lastSidecarRestartMs;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts += c.restartCount;
      lastRestartMs = laterRestart(lastRestartMs, c);
      const waiting = c.state?.waiting;
      const terminated = c.state?.terminated;
      if (waiting?.reason) reason = waiting.reason;
      else if (terminated) reason = terminatedText('', terminated);
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = conditionTrue(status.conditions, 'Ready') ? 'Running' : 'NotReady';
    }
  }

  const terminal = status.phase === 'Succeeded' || status.phase === 'Failed';
  if (pod.metadata.deletionTimestamp && status.reason === NODE_UNREACHABLE_POD_REASON)
    reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && !terminal) reason = 'Terminating';

  let restartsText = String(restarts);
  if (restarts !== 0 && lastRestartMs !== NO_RESTART) {
    restartsText = `${restarts} (${humanDuration(nowMs - lastRestartMs)} ago)`;
  }
  return { ready: `${readyContainers}/${totalContainers}`, status: reason, restarts: restartsText };
}

/** The cells of one pod row (wide adds IP, NODE, NOMINATED NODE, READINESS GATES). */
export function podRow(pod: Pod, nowMs: number, wide: boolean): string[] {
  const summary = podSummary(pod, nowMs);
  const cells = [
    pod.metadata.name ?? '',
    summary.ready,
    summary.status,
    summary.restarts,
    translateTimestampSince(pod.metadata.creationTimestamp, nowMs),
  ];
  if (!wide) return cells;
  const status = pod.status ?? {};
  const gates = (pod.spec as { readinessGates?: { conditionType: string }[] }).readinessGates ?? [];
  const trueGates = gates.filter((g) => conditionTrue(status.conditions, g.conditionType)).length;
  cells.push(
    status.podIPs?.[0]?.ip || '<none>',
    pod.spec.nodeName || '<none>',
    status.nominatedNodeName || '<none>',
    gates.length > 0 ? `${trueGates}/${gates.length}` : '<none>',
  );
  return cells;
}
