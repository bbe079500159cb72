// Static pods as the kubelet reads them from its manifest directory, and the mirror pods it
// publishes for them in the API server. Pure functions.
// mirrors pkg/kubelet/config/common.go (applyDefaults: the name gets "-<node>", the uid is a hash of
// the manifest, config.hash / config.seen / config.source annotations, spec.nodeName, and a
// NoExecute toleration so node problems never evict a static pod), pkg/kubelet/pod/mirror_client.go
// (CreateMirrorPod: a copy with kubernetes.io/config.mirror = the hash and an ownerReference to the
// Node) and pkg/kubelet/pod/pod_manager.go / kubelet.go (IsMirrorPodOf: a mirror pod whose hash no
// longer matches, or that is being deleted, is deleted and created again).
import { cloneJson, formatGoDuration, rfc3339, rfc3339Micro, type OwnerReference, type Pod, type PodStatus } from '../api/index.ts';
import { fakeDigest, normalizeImageRef, type ContainerInfo, type ExecResult } from '../cri/index.ts';
import { formatPod } from './format.ts';
import { computePodStatus, type ContainerRecord } from './status.ts';

export const CONFIG_MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
export const CONFIG_HASH_ANNOTATION = 'kubernetes.io/config.hash';
export const CONFIG_SEEN_ANNOTATION = 'kubernetes.io/config.seen';
export const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source';

/** One file of the manifest directory (/etc/kubernetes/manifests/<file>) as written by kubeadm. */
export interface StaticPodManifest {
  file: string;
  pod: Pod;
}

/**
 * What the container runtime reports about the one container of a static pod. The process behind
 * it lives outside the kubelet (runtime/cluster passes this view in), as containerd's containers
 * outlive the kubelet.
 */
export interface StaticContainerState {
  running: boolean;
  /** The component answers its readiness probe (kube-apiserver: /readyz). */
  ready: boolean;
  /** How many times the container was started again since the first start. */
  restartCount: number;
  /** When the current instance (or, while down, the dead one) started. */
  startedAtMs: number;
  /** When the current instance died (only while it is not running). */
  finishedAtMs?: number;
  /** The instance before the running one, once there was a restart (the status's lastState). */
  previous?: { startedAtMs: number; finishedAtMs: number };
}

/** The kubelet's window onto the static pods of its node. */
export interface StaticPodSource {
  /** The manifests in the directory right now: the same list object until the directory changes. */
  manifests(): readonly StaticPodManifest[];
  /** The runtime's view of the container of the static pod named `manifestName` in its manifest. */
  containerState(manifestName: string): StaticContainerState;
  /**
   * CRI Exec in that static pod's container: runs argv in its image and calls `done` with what
   * it printed (later, for a program such as etcdctl that waits on a server).
   */
  exec(manifestName: string, argv: readonly string[], stdin: string | undefined, done: (result: ExecResult) => void): void;
}

/** FNV-1a over the text, as 32 hex digits (the kubelet hashes the manifest; any stable hash shows the idea). */
function hash32(text: string): string {
  return fakeDigest(text).slice('sha256:'.length, 'sha256:'.length + 32);
}

/** applyDefaults for a file source: the static pod as the kubelet runs it. */
export function staticPodFromManifest(m: StaticPodManifest, nodeName: string, seenAtMs: number): Pod {
  const pod = cloneJson(m.pod);
  const uid = hash32(`${m.file}\n${nodeName}\n${JSON.stringify(m.pod)}`);
  pod.metadata.name = `${m.pod.metadata.name ?? ''}-${nodeName.toLowerCase()}`;
  pod.metadata.namespace ??= 'default';
  pod.metadata.uid = uid;
  pod.metadata.annotations = {
    ...pod.metadata.annotations,
    [CONFIG_HASH_ANNOTATION]: uid,
    [CONFIG_SEEN_ANNOTATION]: rfc3339Micro(seenAtMs).replace(/0+Z$/, 'Z').replace(/\.Z$/, 'Z'),
    [CONFIG_SOURCE_ANNOTATION]: 'file',
  };
  pod.spec.nodeName = nodeName;
  const tolerations = pod.spec.tolerations ?? [];
  if (!tolerations.some((t) => t.operator === 'Exists' && t.effect === 'NoExecute' && !t.key)) {
    pod.spec.tolerations = [...tolerations, { operator: 'Exists', effect: 'NoExecute' }];
  }
  pod.status = { phase: 'Pending' };
  return pod;
}

/** CreateMirrorPod: what the kubelet POSTs for a static pod (the server assigns the mirror its own uid). */
export function mirrorPodOf(staticPod: Pod, node: { name: string; uid: string }): Pod {
  const { uid: _uid, ...metadata } = staticPod.metadata;
  const owner: OwnerReference = { apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid, controller: true };
  const hash = staticPod.metadata.annotations?.[CONFIG_HASH_ANNOTATION] ?? staticPod.metadata.uid ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...metadata, annotations: { ...metadata.annotations, [CONFIG_MIRROR_ANNOTATION]: hash }, ownerReferences: [owner] },
    spec: cloneJson(staticPod.spec),
  };
}

export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] !== undefined;
}

/** IsMirrorPodOf: the mirror still stands for this static pod (same hash, not being deleted). */
export function isCurrentMirrorOf(mirror: Pod, staticPod: Pod): boolean {
  return mirror.metadata.deletionTimestamp === undefined
    && mirror.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] === staticPod.metadata.annotations?.[CONFIG_HASH_ANNOTATION];
}

/** The back-off window a restarting container is in, `downMs` after it died (10 s doubling to 5 min). */
export function crashLoopBackoffMs(downMs: number): number {
  let windowMs = 10_000;
  let endMs = windowMs;
  while (downMs >= endMs && windowMs < 300_000) {
    windowMs = Math.min(windowMs * 2, 300_000);
    endMs += windowMs;
  }
  return windowMs;
}

/** A process killed with SIGKILL (kill -9, a crashed machine) exits 137 and is reported as Error. */
const KILLED = { exitCode: 137, reason: 'Error' } as const;

/**
 * The status of a static pod (written onto its mirror pod) from the runtime's view of its
 * container. While the component's process is down, the kubelet of a real cluster restarts the
 * container again and again and reports it the way it reports any crashed container under
 * restartPolicy Always: waiting in CrashLoopBackOff, lastState the killed instance (exit 137),
 * not ready, the pod Ready=False but still phase Running. Here the process stays down until a
 * fault starts it again, so the restart count only grows when it really comes back.
 */
export function staticPodStatus(mirror: Pod, staticPod: Pod, state: StaticContainerState, nodeIP: string, nowMs: number): PodStatus {
  const containers = new Map<string, ContainerRecord>();
  for (const c of staticPod.spec.containers) containers.set(c.name, containerRecord(staticPod, c.name, c.image ?? '', state, nowMs));
  const status = computePodStatus(mirror, { containers, sandboxReady: true, hostIP: nodeIP, podIP: nodeIP }, nowMs);
  status.startTime = mirror.status?.startTime ?? rfc3339(state.previous?.startedAtMs ?? state.startedAtMs);
  return status;
}

/**
 * fakeDigest, remembered: the status of every static pod is recomputed at each PLEG relist (1 s)
 * from the same few ids. A pure function's memo, so it cannot change a run; bounded by clearing.
 */
const digests = new Map<string, string>();
function digestOf(text: string): string {
  let d = digests.get(text);
  if (d === undefined) {
    if (digests.size >= 4096) digests.clear();
    digests.set(text, (d = fakeDigest(text)));
  }
  return d;
}

function containerRecord(staticPod: Pod, name: string, image: string, s: StaticContainerState, nowMs: number): ContainerRecord {
  const uid = staticPod.metadata.uid ?? '';
  const ref = normalizeImageRef(image);
  const repo = ref.slice(0, ref.lastIndexOf(':'));
  const info = (instance: number, startedAtMs: number, finishedAtMs?: number): ContainerInfo => ({
    id: digestOf(`${uid}/${name}/${instance}`).slice('sha256:'.length),
    name, sandboxId: uid, image, imageRef: ref, imageID: `${repo}@${digestOf(ref)}`,
    createdAtMs: startedAtMs, startedAtMs,
    ...(finishedAtMs === undefined ? { state: 'running' as const } : { state: 'exited' as const, finishedAtMs, ...KILLED }),
  });
  if (s.running) {
    return {
      current: info(s.restartCount, s.startedAtMs),
      ...(s.previous ? { previous: info(s.restartCount - 1, s.previous.startedAtMs, s.previous.finishedAtMs) } : {}),
      restartCount: s.restartCount, ready: s.ready, started: true,
    };
  }
  const diedAtMs = s.finishedAtMs ?? nowMs;
  const backoff = formatGoDuration(crashLoopBackoffMs(nowMs - diedAtMs));
  return {
    current: info(s.restartCount, s.startedAtMs, diedAtMs),
    restartCount: s.restartCount, ready: false, started: false,
    waiting: { reason: 'CrashLoopBackOff', message: `back-off ${backoff} restarting failed container=${name} pod=${formatPod(staticPod)}` },
  };
}
