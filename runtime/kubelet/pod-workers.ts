// One worker per pod: a small state machine driven by informer events, container exits, timers
// and the completion of its own asynchronous steps (an image pull, a stop). At most one async
// step runs per pod; anything that arrives meanwhile marks the worker dirty and re-syncs after.
import { formatGoDuration, parseQuantity, type Container, type ObjectReference, type Pod, type PodStatus } from '../api/index.ts';
import type { EventRecorder, Lister, RestClient } from '../client/index.ts';
import type { ContainerInfo, ContainerRuntime } from '../cri/index.ts';
import type { ProcessContext } from '../kernel/index.ts';
import type { NodeCni } from '../network/index.ts';
import { RestartBackoff, newCrashLoopBackoff } from './backoff.ts';
import { admitPod } from './admission.ts';
import { adoptFromRuntime, restartCountsAfterReboot } from './adopt.ts';
import { formatPod } from './format.ts';
import { ProbeManager } from './probes.ts';
import { containerEnvironment, type ContainerEnvironmentConfig } from './container-env.ts';
import { fetchSources, referencedSources, resolveEnv } from './env-sources.ts';
import { applyRemount, containerFiles, mountVolumes, remountedSources, remountVolumes, tokenSourceOf, volumeSources, type MountedVolumes } from './volumes.ts';
import { NETWORK_NOT_READY_ERROR_MSG, NETWORK_NOT_READY_RETRY_MS } from './runtime-state.ts';
import { computePodStatus, type ContainerRecord } from './status.ts';
import { overwrittenByOthers, type WrittenStatus } from './status-writes.ts';

/** The first volume that reads a ConfigMap or Secret (the one a failed read is reported on). */
function volumeReadingSources(pod: Pod): string {
  return pod.spec.volumes?.find((v) => v.configMap || v.secret || (v.projected?.sources ?? []).some((s) => 'configMap' in s || 'secret' in s))?.name ?? '';
}

/** The name of the projected volume that holds the service account token (kube-api-access-*). */
function projectedTokenVolume(pod: Pod): string {
  return pod.spec.volumes?.find((v) => (v.projected?.sources ?? []).some((s) => 'serviceAccountToken' in s))?.name ?? '';
}

/** nestedpendingoperations' exponential back-off for a failing mount: 500 ms doubling to 2m2s. */
const MOUNT_INITIAL_BACKOFF_MS = 500;
const MOUNT_MAX_BACKOFF_MS = 122_000;
/** volumemanager's waitForAttachTimeout: how long SyncPod waits for the mounts before giving up this round. */
const MOUNT_WAIT_TIMEOUT_MS = 123_000;

/** pod_workers.go workerBackOffPeriod: how soon a sync that failed is tried again (plus jitter). */
const SYNC_ERROR_BACKOFF_MS = 10_000;

export interface PodWorkersDeps {
  client: RestClient;
  cri: ContainerRuntime;
  cni: NodeCni;
  nodeIP: string;
  recorder: EventRecorder;
  lister: Lister<Pod>;
  /** node.status.allocatable, for admission (nothing is checked when absent). */
  allocatable?: Record<string, string>;
  /** The container runtime's network error (runtime-state.ts); undefined when the pod network is ready. */
  networkError?: () => string | undefined;
  /** What the kubelet sets up for containers' processes (their environment, /etc files, pod network). */
  environment?: ContainerEnvironmentConfig;
}

/**
 * How long RunPodSandbox takes: the pause container and the CNI ADD that wires the pod's network
 * namespace (kuberuntime_sandbox.go createPodSandbox). Real runtimes take a few hundred ms; until the
 * sandbox is ready no container is pulled or created, which is also why the scheduler's Scheduled
 * event is written before the kubelet's first container event.
 */
export const SANDBOX_SETUP_MS = 400;
/**
 * status_manager.go syncPeriod: every 10 s syncBatch writes each pod whose status the API server has
 * not taken yet (needsUpdate), so a write that failed (no etcd behind the API server, a partition)
 * is tried again then, even if nothing about the pod changes any more.
 */
export const STATUS_SYNC_PERIOD_MS = 10_000;
/** KubeletConfiguration syncFrequency (1m): how often a running pod is synced again, before jitter. */
export const POD_RESYNC_MS = 60_000;

interface Worker {
  key: string;
  uid: string;
  pod: Pod;
  busy: boolean;
  dirty: boolean;
  sandboxId?: string;
  podIP?: string;
  startTimeMs?: number;
  /** When the sandbox we created becomes ready (unset for a sandbox adopted after a kubelet restart). */
  sandboxReadyAtMs?: number;
  containers: Map<string, ContainerRecord>;
  rejected?: { reason: string; message: string };
  terminating: boolean;
  terminated: boolean;
  lastStatus: string;
  /** Our last successful status write (to notice another writer's Ready=False). */
  lastWrite?: WrittenStatus;
  statusInFlight: boolean;
  retryTimer?: { cancel(): void };
  /** The pod's volumes as this kubelet mounted them (undefined until WaitForAttachAndMount succeeded). */
  volumes?: MountedVolumes;
  /** While a mount keeps failing: the retry back-off, and when the wait last timed out (or began). */
  mount?: { backoffMs: number; lastTimeoutEventMs: number };
  /** The next periodic sync's remount of the configMap and secret volumes. */
  remountTimer?: { cancel(): void };
}

export class PodWorkers {
  private readonly workers = new Map<string, Worker>();
  private readonly backoff = newCrashLoopBackoff();
  private readonly imageBackoff = new RestartBackoff();
  private readonly probes: ProbeManager;

  constructor(private readonly ctx: ProcessContext, private readonly d: PodWorkersDeps) {
    this.probes = new ProbeManager(ctx, d.cri, {
      changed: (key) => this.sync(key),
      unhealthy: (key, name, message) => {
        const w = this.workers.get(key);
        if (w) this.event(w.pod, name, 'Warning', 'Unhealthy', message);
      },
      kill: (key, name, message) => this.killForLiveness(key, name, message),
    });
  }

  sync(key: string): void {
    const pod = this.d.lister.get(...(key.split('/') as [string, string]));
    let w = this.workers.get(key);
    if (w && pod && pod.metadata.uid !== w.uid) {
      this.forget(w);
      w = undefined;
    }
    if (!pod) {
      if (w) this.forget(w);
      return;
    }
    if (!w) {
      w = { key, uid: pod.metadata.uid ?? '', pod, busy: false, dirty: false, containers: new Map(), terminating: false, terminated: false, lastStatus: '', statusInFlight: false };
      this.workers.set(key, w);
      this.adopt(w, pod);
    }
    w.pod = pod;
    if (overwrittenByOthers(pod, w.lastWrite)) {
      w.lastStatus = '';
      delete w.lastWrite;
    }
    if (w.busy) {
      w.dirty = true;
      return;
    }
    this.step(w);
  }

  /** A sandbox of this pod is still in the runtime (the kubelet restarted): take it over as it is. */
  private adopt(w: Worker, pod: Pod): void {
    const found = adoptFromRuntime(this.d.cri, pod);
    if (!found) return;
    w.sandboxId = found.sandboxId;
    if (found.podIP) w.podIP = found.podIP;
    if (found.startTimeMs !== undefined) w.startTimeMs = found.startTimeMs;
    w.containers = found.containers;
    for (const c of pod.spec.containers) {
      const rec = found.containers.get(c.name);
      if (rec?.current?.state === 'running') this.probes.containerStarted(w.key, c, rec.current.id, rec);
    }
    this.ctx.trace('kubelet.adopted', `${formatPod(pod)}: sandbox ${found.sandboxId.slice(0, 12)}`);
  }

  containerExited(info: ContainerInfo): void {
    for (const w of this.workers.values()) {
      if (w.sandboxId !== info.sandboxId) continue;
      for (const rec of w.containers.values()) if (rec.current?.id === info.id) rec.current = info;
      this.probes.containerStopped(w.key, info.name);
      this.sync(w.key);
    }
  }

  private step(w: Worker): void {
    const pod = w.pod;
    if (pod.metadata.deletionTimestamp) return this.terminate(w);
    if (w.rejected || isTerminal(pod)) return this.writeStatus(w);
    if (w.sandboxId === undefined) {
      const verdict = admitPod(pod, [...this.workers.values()].filter((x) => x !== w && x.sandboxId !== undefined && !x.terminated).map((x) => x.pod), this.nodeAllocatable());
      if (!verdict.ok) {
        w.rejected = verdict;
        this.event(pod, undefined, 'Warning', verdict.reason, verdict.message);
        return this.writeStatus(w);
      }
      if (this.waitForNetwork(w)) return;
      if (!w.volumes) return this.mountVolumes(w);
      w.sandboxId = this.d.cri.runPodSandbox(w.uid);
      for (const [name, count] of restartCountsAfterReboot(pod)) this.record(w, name).restartCount = count;
      // a hostNetwork pod shares the node's network namespace: no CNI ADD, its IP is the node's
      // (kuberuntime_sandbox.go skips network setup; status.podIP = hostIP)
      const ip = pod.spec.hostNetwork ? this.d.nodeIP : this.d.cni.setUpPod({ namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: w.uid });
      if (ip) w.podIP = ip;
      w.startTimeMs = this.ctx.now();
      w.sandboxReadyAtMs = this.ctx.now() + SANDBOX_SETUP_MS;
    }
    if (w.sandboxReadyAtMs !== undefined && this.ctx.now() < w.sandboxReadyAtMs) {
      // kubelet.go SyncPod writes the pod's status (hostIP, ContainerCreating) before the runtime's SyncPod
      this.retryAt(w, w.sandboxReadyAtMs);
      return this.writeStatus(w);
    }
    // a sandbox adopted after a kubelet restart: this kubelet mounts the volumes again
    if (!w.volumes) return this.mountVolumes(w);
    for (const c of pod.spec.containers) {
      const rec = this.record(w, c.name);
      if (rec.current?.state === 'running' || rec.current?.state === 'created') continue;
      if (rec.current?.state === 'exited' && !shouldRestart(pod, rec.current)) {
        delete rec.waiting;
        continue;
      }
      if (rec.current?.state === 'exited' && this.inBackoff(w, c, rec)) continue;
      if (rec.waiting?.reason === 'CreateContainerConfigError' && this.ctx.now() < (rec.retryNotBeforeMs ?? 0)) continue;
      return this.startContainer(w, c, rec);
    }
    this.writeStatus(w);
  }

  /**
   * kubelet.go SyncPod: with the runtime network not ready only hostNetwork pods start; the others
   * get a NetworkNotReady event, stay Pending, and are tried again every second.
   */
  private waitForNetwork(w: Worker): boolean {
    const error = w.pod.spec.hostNetwork ? undefined : this.d.networkError?.();
    if (error === undefined) return false;
    this.event(w.pod, undefined, 'Warning', 'NetworkNotReady', `${NETWORK_NOT_READY_ERROR_MSG}: ${error}`);
    this.retryAt(w, this.ctx.now() + NETWORK_NOT_READY_RETRY_MS);
    this.writeStatus(w);
    return true;
  }

  /**
   * WaitForAttachAndMount: read the ConfigMaps and Secrets the volumes name, then set them all up.
   * A failure is a FailedMount event, retried with nestedpendingoperations' back-off (500 ms
   * doubling to 2m2s); every 2m3s of waiting (the wait's timeout) adds the "Unable to attach or
   * mount volumes" event. The pod stays ContainerCreating meanwhile.
   */
  private mountVolumes(w: Worker): void {
    w.busy = true;
    const namespace = w.pod.metadata.namespace ?? 'default';
    const settle = (mounted: ReturnType<typeof mountVolumes>): void => {
      if (!this.ctx.isLive()) return;
      w.busy = false;
      if (this.workers.has(w.key)) this.mounted(w, mounted);
    };
    fetchSources(this.d.client, namespace, volumeSources(w.pod), (r) => {
      // a read that failed (not a NotFound) fails the first volume that reads an object
      if (!r.ok) return settle({ ok: false, volume: volumeReadingSources(w.pod), error: r.error });
      this.requestToken(w, (token) => settle('error' in token ? { ok: false, ...token } : mountVolumes(w.pod, r.sources, token.token !== undefined ? { serviceAccountToken: token.token } : {})));
    });
  }

  /** The mount's outcome: the volumes, or a FailedMount and the next try on the back-off. */
  private mounted(w: Worker, mounted: ReturnType<typeof mountVolumes>): void {
    if (mounted.ok) {
      w.volumes = mounted.volumes;
      delete w.mount;
      this.scheduleRemount(w);
      return this.afterAsync(w, true);
    }
    const now = this.ctx.now();
    const m = (w.mount ??= { backoffMs: MOUNT_INITIAL_BACKOFF_MS / 2, lastTimeoutEventMs: now });
    this.event(w.pod, undefined, 'Warning', 'FailedMount', `MountVolume.SetUp failed for volume "${mounted.volume}" : ${mounted.error}`);
    if (now - m.lastTimeoutEventMs >= MOUNT_WAIT_TIMEOUT_MS) {
      m.lastTimeoutEventMs = now;
      this.event(w.pod, undefined, 'Warning', 'FailedMount', `Unable to attach or mount volumes: unmounted volumes=[${mounted.volume}], unattached volumes=[], failed to process volumes=[]: timed out waiting for the condition`);
    }
    m.backoffMs = Math.min(m.backoffMs * 2, MOUNT_MAX_BACKOFF_MS);
    this.retryAt(w, now + m.backoffMs);
    this.writeStatus(w);
  }

  /**
   * The projected volume's service account token: a TokenRequest bound to the pod (the kubelet's
   * token manager), so the pod's processes can present it to the API server.
   */
  private requestToken(w: Worker, then: (t: { token?: string } | { volume: string; error: string }) => void): void {
    const source = tokenSourceOf(w.pod);
    if (!source) return then({});
    const sa = w.pod.spec.serviceAccountName ?? 'default';
    const body = {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
      spec: { ...(source.audience ? { audiences: [source.audience] } : {}), expirationSeconds: source.expirationSeconds, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: w.pod.metadata.name ?? '', uid: w.uid } },
    };
    this.d.client.request({ verb: 'create', group: '', resource: 'serviceaccounts', namespace: w.pod.metadata.namespace ?? 'default', name: sa, subresource: 'token', body }, (res) => {
      if (res.code === 201) return then({ token: (res.body as { status?: { token?: string } }).status?.token ?? '' });
      const message = typeof res.body === 'object' && res.body !== null && 'message' in res.body ? String(res.body.message) : `code ${res.code}`;
      then({ volume: projectedTokenVolume(w.pod), error: `failed to fetch token: ${message}` });
    });
  }

  /** doBackOff: CrashLoopBackOff while inside the window, else arm the next window and restart. */
  private inBackoff(w: Worker, c: Container, rec: ContainerRecord): boolean {
    const key = `${w.uid}/${c.name}`;
    const exitMs = rec.current?.finishedAtMs ?? this.ctx.now();
    if (this.backoff.isInBackOffSince(key, exitMs, this.ctx.now())) {
      const wait = formatGoDuration(this.backoff.get(key));
      rec.waiting = { reason: 'CrashLoopBackOff', message: `back-off ${wait} restarting failed container=${c.name} pod=${formatPod(w.pod)}` };
      this.event(w.pod, c.name, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${formatPod(w.pod)}`);
      this.retryAt(w, this.backoff.readyAtMs(key, exitMs));
      this.writeStatus(w);
      return true;
    }
    this.backoff.next(key, exitMs, this.ctx.now());
    return false;
  }

  private startContainer(w: Worker, c: Container, rec: ContainerRecord): void {
    const image = c.image ?? '';
    const policy = c.imagePullPolicy ?? 'IfNotPresent';
    const present = this.d.cri.imageStatus(image);
    if (present && policy !== 'Always') {
      this.event(w.pod, c.name, 'Normal', 'Pulled', `Container image "${image}" already present on machine`);
      return this.createAndStart(w, c, rec);
    }
    if (!present && policy === 'Never') {
      rec.waiting = { reason: 'ErrImageNeverPull', message: `Container image "${image}" is not present with pull policy of Never` };
      this.event(w.pod, c.name, 'Warning', 'ErrImageNeverPull', rec.waiting.message ?? '');
      return this.writeStatus(w);
    }
    const imageKey = `${w.uid}/${image}`;
    if (rec.waiting?.reason === 'ErrImagePull' || rec.waiting?.reason === 'ImagePullBackOff') {
      if (this.imageBackoff.isInBackOffSince(imageKey, this.ctx.now(), this.ctx.now())) {
        rec.waiting = { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` };
        this.event(w.pod, c.name, 'Normal', 'BackOff', `Back-off pulling image "${image}"`);
        this.event(w.pod, c.name, 'Warning', 'Failed', 'Error: ImagePullBackOff');
        this.retryAt(w, this.ctx.now() + this.imageBackoff.get(imageKey));
        return this.writeStatus(w);
      }
    }
    rec.waiting = { reason: 'ContainerCreating' };
    this.writeStatus(w);
    this.event(w.pod, c.name, 'Normal', 'Pulling', `Pulling image "${image}"`);
    w.busy = true;
    this.d.cri.pullImage(image, (result) => {
      if (!this.ctx.isLive()) return;
      w.busy = false;
      if (!this.workers.has(w.key)) return;
      if (!result.ok) {
        this.imageBackoff.next(imageKey, this.ctx.now(), this.ctx.now());
        rec.waiting = { reason: 'ErrImagePull', message: result.message };
        this.event(w.pod, c.name, 'Warning', 'Failed', `Failed to pull image "${image}": ${result.message}`);
        this.event(w.pod, c.name, 'Warning', 'Failed', 'Error: ErrImagePull');
        this.retryAt(w, this.ctx.now() + this.imageBackoff.get(imageKey));
        return this.afterAsync(w);
      }
      this.event(w.pod, c.name, 'Normal', 'Pulled',
        `Successfully pulled image "${image}" in ${formatGoDuration(result.pullMs)} (${formatGoDuration(result.totalMs)} including waiting). Image size: ${result.image.sizeBytes} bytes.`);
      if (!w.pod.metadata.deletionTimestamp) this.createAndStart(w, c, rec);
      this.afterAsync(w);
    });
  }

  /**
   * The pod worker syncs a running pod again every resync interval (1 min, plus up to 50% jitter:
   * pod_workers.go completeWork), and each sync remounts its configMap and secret volumes from the
   * objects as they are now (volume manager, RequiresRemount): a changed ConfigMap reaches the files
   * of running containers within about 90 s, never their environment or subPath mounts. A missing
   * object is a FailedMount event and the files stay as they were.
   */
  private scheduleRemount(w: Worker): void {
    w.remountTimer?.cancel();
    if (remountedSources(w.pod).length === 0) return;
    w.remountTimer = this.ctx.setTimer(POD_RESYNC_MS + this.ctx.rng.nextInt(POD_RESYNC_MS / 2), () => this.remount(w));
  }

  private remount(w: Worker): void {
    if (this.workers.get(w.key) !== w || w.terminating || w.pod.metadata.deletionTimestamp || !w.volumes) return;
    fetchSources(this.d.client, w.pod.metadata.namespace ?? 'default', remountedSources(w.pod), (r) => {
      if (!this.ctx.isLive() || this.workers.get(w.key) !== w || !w.volumes) return;
      const m = r.ok ? remountVolumes(w.pod, w.volumes, r.sources) : { ok: false as const, volume: volumeReadingSources(w.pod), error: r.error };
      if (!m.ok) this.event(w.pod, undefined, 'Warning', 'FailedMount', `MountVolume.SetUp failed for volume "${m.volume}" : ${m.error}`);
      else if (m.changed) {
        for (const c of [...(w.pod.spec.initContainers ?? []), ...w.pod.spec.containers]) {
          const files = w.containers.get(c.name)?.files;
          if (files) applyRemount(files, c, w.volumes, m.volumes);
        }
        w.volumes = m.volumes;
      }
      this.scheduleRemount(w);
    });
  }

  /**
   * generateContainerConfig, then create and start: the environment first, which may need the
   * ConfigMaps and Secrets it names (GETs); one that cannot be made is CreateContainerConfigError,
   * tried again when the pod worker's back-off ends.
   */
  private createAndStart(w: Worker, c: Container, rec: ContainerRecord): void {
    const podIP = w.pod.spec.hostNetwork ? undefined : w.podIP;
    const refs = referencedSources(c);
    if (refs.length === 0) return this.createWithEnv(w, c, rec, resolveEnv(w.pod, c, new Map(), podIP, this.nodeAllocatable()));
    w.busy = true;
    fetchSources(this.d.client, w.pod.metadata.namespace ?? 'default', refs, (r) => {
      if (!this.ctx.isLive()) return;
      w.busy = false;
      if (!this.workers.has(w.key)) return;
      if (!w.pod.metadata.deletionTimestamp) this.createWithEnv(w, c, rec, r.ok ? resolveEnv(w.pod, c, r.sources, podIP, this.nodeAllocatable()) : r);
      this.afterAsync(w);
    });
  }

  private createWithEnv(w: Worker, c: Container, rec: ContainerRecord, env: { ok: true; env: [string, string][] } | { ok: false; error: string }): void {
    if (!env.ok) {
      rec.waiting = { reason: 'CreateContainerConfigError', message: env.error };
      this.event(w.pod, c.name, 'Warning', 'Failed', `Error: ${env.error}`);
      // podWorkers requeue a failed sync after workerBackOffPeriod (10 s) with up to 50% jitter
      rec.retryNotBeforeMs = this.ctx.now() + SYNC_ERROR_BACKOFF_MS + this.ctx.rng.nextInt(SYNC_ERROR_BACKOFF_MS / 2);
      this.retryAt(w, rec.retryNotBeforeMs);
      return this.writeStatus(w);
    }
    const memory = c.resources?.limits?.memory;
    const parsed = memory ? parseQuantity(memory) : undefined;
    const podIP = w.pod.spec.hostNetwork ? undefined : w.podIP;
    const processEnv = this.d.environment ? containerEnvironment(this.d.environment, w.pod, c.name, podIP, env.env, containerFiles(c, w.volumes)) : undefined;
    const created = this.d.cri.createContainer(w.sandboxId ?? '', {
      name: c.name, image: c.image ?? '', command: [...(c.command ?? []), ...(c.args ?? [])],
      ...(parsed?.ok ? { memoryLimitBytes: parsed.quantity.value() } : {}),
      ...(processEnv ? { env: processEnv } : {}),
    });
    if (!created.ok) {
      rec.waiting = { reason: 'CreateContainerError', message: created.message };
      this.event(w.pod, c.name, 'Warning', 'Failed', `Error: ${created.message}`);
      return this.writeStatus(w);
    }
    if (processEnv) rec.files = processEnv.files;
    if (rec.current) {
      if (rec.previous) this.d.cri.removeContainer(rec.previous.id);
      rec.previous = rec.current;
      rec.restartCount++;
    }
    this.event(w.pod, c.name, 'Normal', 'Created', `Created container: ${c.name}`);
    const started = this.d.cri.startContainer(created.id);
    rec.current = this.d.cri.containerStatus(created.id);
    delete rec.waiting;
    rec.ready = !c.readinessProbe;
    rec.started = !c.startupProbe;
    // kuberuntime startContainer: a start the runtime refused is a Failed event (the exit, reason StartError, restarts it)
    if (started.ok) this.event(w.pod, c.name, 'Normal', 'Started', `Started container ${c.name}`);
    else this.event(w.pod, c.name, 'Warning', 'Failed', `Error: ${started.message}`);
    this.probes.containerStarted(w.key, c, created.id, rec);
    this.writeStatus(w);
  }

  /** A liveness probe gave up: kill the container with its grace period; the restart follows. */
  private killForLiveness(key: string, name: string, message: string): void {
    const w = this.workers.get(key);
    const rec = w?.containers.get(name);
    if (!w || !rec?.current || rec.current.state !== 'running') return;
    this.event(w.pod, name, 'Normal', 'Killing', message);
    const id = rec.current.id;
    w.busy = true;
    this.d.cri.stopContainer(id, gracePeriodMs(w.pod), () => {
      if (!this.ctx.isLive()) return;
      w.busy = false;
      rec.current = this.d.cri.containerStatus(id) ?? rec.current;
      this.afterAsync(w, true);
    });
  }

  /** SyncTerminatingPod: SIGTERM every running container, wait, then delete the pod with grace 0. */
  private terminate(w: Worker): void {
    if (w.terminated) return;
    if (w.terminating) return;
    w.terminating = true;
    const running = [...w.containers.entries()].filter(([, r]) => r.current?.state === 'running');
    let left = running.length;
    const graceMs = (w.pod.metadata.deletionGracePeriodSeconds ?? w.pod.spec.terminationGracePeriodSeconds ?? 30) * 1000;
    const finish = (): void => {
      if (!this.ctx.isLive()) return;
      w.busy = false;
      w.terminated = true;
      if (w.sandboxId) this.d.cri.stopPodSandbox(w.sandboxId);
      for (const [name, rec] of w.containers) {
        this.probes.containerStopped(w.key, name);
        if (rec.current) rec.current = this.d.cri.containerStatus(rec.current.id) ?? rec.current;
        delete rec.waiting;
      }
      this.writeStatus(w, () => this.deletePod(w));
    };
    if (left === 0) return finish();
    w.busy = true;
    for (const [name, rec] of running) {
      this.event(w.pod, name, 'Normal', 'Killing', `Stopping container ${name}`);
      this.d.cri.stopContainer(rec.current!.id, graceMs, () => {
        if (--left === 0) finish();
      });
    }
  }

  private deletePod(w: Worker): void {
    const m = w.pod.metadata;
    this.d.client.request({
      verb: 'delete', group: '', resource: 'pods', namespace: m.namespace ?? '', name: m.name ?? '',
      query: { gracePeriodSeconds: 0 }, body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: { uid: w.uid } },
    }, () => undefined);
  }

  private forget(w: Worker): void {
    w.retryTimer?.cancel();
    w.remountTimer?.cancel();
    for (const name of w.containers.keys()) this.probes.containerStopped(w.key, name);
    if (w.sandboxId) this.d.cri.removePodSandbox(w.sandboxId);
    if (w.podIP && !w.pod.spec.hostNetwork) this.d.cni.tearDownPod(w.podIP);
    this.workers.delete(w.key);
  }

  private afterAsync(w: Worker, force = false): void {
    if (!this.workers.has(w.key)) return;
    if (w.dirty || force || !w.busy) {
      w.dirty = false;
      this.sync(w.key);
    }
  }

  private retryAt(w: Worker, atMs: number): void {
    w.retryTimer?.cancel();
    w.retryTimer = this.ctx.setTimer(Math.max(0, atMs - this.ctx.now()), () => this.sync(w.key));
  }

  private record(w: Worker, name: string): ContainerRecord {
    let rec = w.containers.get(name);
    if (!rec) {
      rec = { restartCount: 0, ready: false, started: false };
      w.containers.set(name, rec);
    }
    return rec;
  }

  /**
   * The status manager's view of a pod: the status the kubelet has computed for it, written or
   * not yet (kubectl logs reads it before the API server's copy); undefined for a pod no worker has.
   */
  statusOf(namespace: string, name: string): PodStatus | undefined {
    const w = this.workers.get(`${namespace}/${name}`);
    return w && this.currentStatus(w);
  }

  private currentStatus(w: Worker): PodStatus {
    const status: PodStatus = w.rejected
      ? { phase: 'Failed', reason: w.rejected.reason, message: `Pod was rejected: ${w.rejected.message}`, startTime: w.pod.status?.startTime ?? undefined }
      : computePodStatus(w.pod, { containers: w.containers, sandboxReady: w.sandboxId !== undefined && !w.terminated, hostIP: this.d.nodeIP, ...(w.podIP ? { podIP: w.podIP } : {}), ...(w.startTimeMs !== undefined ? { startTimeMs: w.startTimeMs } : {}) }, this.ctx.now());
    if (w.terminated) status.phase = terminalPhase(status);
    return status;
  }

  /** Writes status through pods/status when it changed; one write in flight per pod. */
  private writeStatus(w: Worker, then?: () => void): void {
    const status = this.currentStatus(w);
    const text = JSON.stringify(status);
    if (text === w.lastStatus || w.statusInFlight) {
      if (w.statusInFlight && text !== w.lastStatus) w.dirty = true;
      if (then && !w.statusInFlight) then();
      return;
    }
    w.statusInFlight = true;
    const m = w.pod.metadata;
    this.d.client.request({
      verb: 'patch', group: '', resource: 'pods', subresource: 'status', namespace: m.namespace ?? '', name: m.name ?? '',
      body: { metadata: { uid: w.uid }, status }, patchType: 'application/merge-patch+json',
    }, (res) => {
      if (!this.ctx.isLive()) return;
      w.statusInFlight = false;
      if (res.code === 200) {
        w.lastStatus = text;
        w.lastWrite = { text, status, resourceVersion: (res.body as Pod).metadata.resourceVersion ?? '' };
      } else if (res.code !== 404) {
        // not taken (a 404 means the pod is gone): the next syncBatch tries again
        this.ctx.setTimer(STATUS_SYNC_PERIOD_MS, () => {
          if (this.workers.get(w.key) === w) this.sync(w.key);
        });
      }
      then?.();
      if (w.dirty && !w.busy && this.workers.has(w.key)) {
        w.dirty = false;
        this.sync(w.key);
      }
    });
  }

  private event(pod: Pod, container: string | undefined, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const ref: ObjectReference = {
      kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', apiVersion: 'v1',
      ...(pod.metadata.resourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
      ...(container ? { fieldPath: `spec.containers{${container}}` } : {}),
    };
    this.d.recorder.eventf(ref, type, reason, '%s', message);
  }

  private nodeAllocatable(): Record<string, string> | undefined {
    return this.d.allocatable;
  }
}

function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** Restart policy: Always restarts, OnFailure only non-zero exits, Never nothing. */
export function shouldRestart(pod: Pod, info: ContainerInfo): boolean {
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (policy === 'Always') return true;
  if (policy === 'OnFailure') return (info.exitCode ?? 0) !== 0;
  return false;
}

function gracePeriodMs(pod: Pod): number {
  return (pod.spec.terminationGracePeriodSeconds ?? 30) * 1000;
}

/** A pod that finished terminating is terminal: Succeeded when every container exited 0. */
function terminalPhase(status: PodStatus): 'Succeeded' | 'Failed' {
  const all = status.containerStatuses ?? [];
  return all.length > 0 && all.every((s) => s.state?.terminated?.exitCode === 0) ? 'Succeeded' : 'Failed';
}
