// Pod status as the kubelet computes it from what the runtime reports: pure functions.
// mirrors pkg/kubelet/kubelet_pods.go (getPhase, convertToAPIContainerStatuses),
// pkg/kubelet/status/generate.go (GeneratePodReadyCondition, GenerateContainersReadyCondition,
// GeneratePodInitializedCondition) and pkg/apis/core/v1/helper/qos (GetPodQOS).
import {
  parseQuantity,
  rfc3339,
  type ContainerState,
  type ContainerStatus,
  type Pod,
  type PodCondition,
  type PodPhase,
  type PodQOSClass,
  type PodStatus,
} from '../api/index.ts';
import type { ContainerInfo } from '../cri/index.ts';

/** What the kubelet knows about one container of a pod. */
export interface ContainerRecord {
  /** The live (or last exited, not yet replaced) runtime container. */
  current?: ContainerInfo;
  /** The instance before the current one, reported as lastState. */
  previous?: ContainerInfo;
  restartCount: number;
  /** Why it is not running (ContainerCreating, ErrImagePull, CrashLoopBackOff...). */
  waiting?: { reason: string; message?: string };
  /** Readiness probe verdict (true when there is no readiness probe). */
  ready: boolean;
  /** Startup probe verdict (true when there is no startup probe). */
  started: boolean;
  /** After a CreateContainerConfigError: not tried again before this time (the pod worker's back-off). */
  retryNotBeforeMs?: number;
  /**
   * The current container's files as its processes see them, the object the runtime was given:
   * the kubelet's own directory bind-mounted into the container, which a remount rewrites in place.
   */
  files?: Record<string, string>;
}

export interface PodRuntimeView {
  containers: Map<string, ContainerRecord>;
  sandboxReady: boolean;
  podIP?: string;
  hostIP: string;
  startTimeMs?: number;
}

export function containerState(info: ContainerInfo | undefined, waiting: ContainerRecord['waiting']): ContainerState {
  if (info?.state === 'running' && !waiting) return { running: { startedAt: rfc3339(info.startedAtMs ?? 0) } };
  if (info?.state === 'exited' && !waiting) return { terminated: terminatedOf(info) };
  return { waiting: { reason: waiting?.reason ?? 'ContainerCreating', ...(waiting?.message ? { message: waiting.message } : {}) } };
}

function terminatedOf(info: ContainerInfo): NonNullable<ContainerState['terminated']> {
  return {
    exitCode: info.exitCode ?? 0,
    reason: info.reason ?? 'Error',
    ...(info.message ? { message: info.message } : {}),
    startedAt: rfc3339(info.startedAtMs ?? info.createdAtMs),
    finishedAt: rfc3339(info.finishedAtMs ?? info.createdAtMs),
    containerID: `containerd://${info.id}`,
  };
}

export function containerStatusOf(name: string, image: string, rec: ContainerRecord | undefined): ContainerStatus {
  const info = rec?.current;
  const state = containerState(info, rec?.waiting);
  const lastInfo = rec?.previous ?? (info?.state === 'exited' && rec?.waiting ? info : undefined);
  const running = state.running !== undefined;
  return {
    name,
    state,
    lastState: lastInfo ? { terminated: terminatedOf(lastInfo) } : {},
    ready: running && (rec?.ready ?? false) && (rec?.started ?? false),
    restartCount: rec?.restartCount ?? 0,
    image: info?.imageRef ?? image,
    imageID: info?.imageID ?? '',
    ...(info ? { containerID: `containerd://${info.id}` } : {}),
    started: running && (rec?.started ?? false),
  };
}

/**
 * getPhase (kubelet_pods.go) with the ContainerRestartRules and RestartAllContainersOnContainerExits
 * feature gates off (their default): the phase from the statuses of the pod's init containers and
 * containers (one list, found by name, as podutil.GetContainerStatus does). `podIsTerminal`: the
 * kubelet is done with the pod (deleted or evicted), so its containers will not restart whatever the
 * policy. Restartable init containers (sidecars) are not modelled: this API has no per-container
 * restartPolicy.
 */
export function getPhase(pod: Pod, statuses: readonly ContainerStatus[], podIsTerminal: boolean): PodPhase {
  const find = (name: string) => statuses.find((s) => s.name === name);
  const policy = pod.spec.restartPolicy ?? 'Always';
  let pendingInit = 0;
  let failedInit = 0;
  for (const c of pod.spec.initContainers ?? []) {
    const s = find(c.name);
    const state = s?.state ?? {};
    if (!s || state.running) pendingInit++;
    else if (state.terminated) {
      if (state.terminated.exitCode !== 0) failedInit++;
    } else if (state.waiting) {
      const last = s.lastState?.terminated;
      if (!last) pendingInit++;
      else if (last.exitCode !== 0) failedInit++;
    } else pendingInit++;
  }
  let unknown = 0, running = 0, waiting = 0, stopped = 0, succeeded = 0;
  for (const c of pod.spec.containers) {
    const s = find(c.name);
    const state = s?.state ?? {};
    if (!s) unknown++;
    else if (state.running) running++;
    else if (state.terminated) {
      stopped++;
      if (state.terminated.exitCode === 0) succeeded++;
    } else if (state.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }
  if (failedInit > 0 && policy === 'Never') return 'Failed';
  if (pendingInit > 0 || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal && !isStaticPod(pod)) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

/** kubetypes.IsStaticPod: the pod came from a manifest file or URL (config.source is not "api"). */
function isStaticPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.['kubernetes.io/config.source'];
  return source !== undefined && source !== 'api';
}

/**
 * The phase the simulated kubelet reports: getPhase over the app containers only, because it does
 * not run init containers (their statuses would never appear); pods it terminates get their terminal
 * phase from the pod worker instead (terminalPhase).
 */
export function podPhase(pod: Pod, statuses: readonly ContainerStatus[]): PodPhase {
  return getPhase({ ...pod, spec: { ...pod.spec, initContainers: [] } }, statuses, false);
}

/** GetPodQOS: Guaranteed when every container's requests equal limits for cpu and memory. */
export function qosClass(pod: Pod): PodQOSClass {
  let any = false;
  let guaranteed = true;
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    const limits = c.resources?.limits ?? {};
    const requests = { ...limits, ...(c.resources?.requests ?? {}) };
    for (const r of ['cpu', 'memory']) {
      if (requests[r] !== undefined || limits[r] !== undefined) any = true;
      if (limits[r] === undefined || !sameQuantity(requests[r], limits[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function sameQuantity(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const qa = parseQuantity(a);
  const qb = parseQuantity(b);
  return qa.ok && qb.ok ? qa.quantity.cmp(qb.quantity) === 0 : a === b;
}

/** Conditions in the order the kubelet writes them, keeping transition times that did not change. */
export function podConditions(pod: Pod, phase: PodPhase, statuses: readonly ContainerStatus[], sandboxReady: boolean, nowMs: number): PodCondition[] {
  const old = pod.status?.conditions ?? [];
  const stamp = (type: string, status: 'True' | 'False', reason?: string, message?: string): PodCondition => {
    const prev = old.find((c) => c.type === type);
    const lastTransitionTime = prev && prev.status === status && prev.lastTransitionTime ? prev.lastTransitionTime : rfc3339(nowMs);
    return { type, status, lastProbeTime: null, lastTransitionTime, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
  };
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const unready = pod.spec.containers.filter((c) => !statuses.find((s) => s.name === c.name)?.ready).map((c) => c.name);
  const ready = (type: string): PodCondition =>
    terminal ? stamp(type, 'False', 'PodCompleted')
    : unready.length === 0 ? stamp(type, 'True')
    : stamp(type, 'False', 'ContainersNotReady', `containers with unready status: [${unready.join(' ')}]`);
  return [
    stamp('PodReadyToStartContainers', sandboxReady && !terminal ? 'True' : 'False'),
    terminal && unready.length > 0 ? stamp('Initialized', 'True', 'PodCompleted') : stamp('Initialized', 'True'),
    ready('Ready'),
    ready('ContainersReady'),
    old.find((c) => c.type === 'PodScheduled') ?? stamp('PodScheduled', 'True'),
  ];
}

/** The whole status the kubelet writes through pods/status. */
export function computePodStatus(pod: Pod, view: PodRuntimeView, nowMs: number): PodStatus {
  const containerStatuses = pod.spec.containers.map((c) => containerStatusOf(c.name, c.image ?? '', view.containers.get(c.name)));
  const phase = podPhase(pod, containerStatuses);
  return {
    phase,
    conditions: podConditions(pod, phase, containerStatuses, view.sandboxReady, nowMs),
    hostIP: view.hostIP,
    hostIPs: [{ ip: view.hostIP }],
    ...(view.podIP ? { podIP: view.podIP, podIPs: [{ ip: view.podIP }] } : {}),
    ...(view.startTimeMs !== undefined ? { startTime: rfc3339(view.startTimeMs) } : {}),
    containerStatuses,
    qosClass: qosClass(pod),
  };
}
