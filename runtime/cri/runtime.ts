// A simulated container runtime for one node, shaped like the CRI's RuntimeService and
// ImageService (k8s.io/cri-api/pkg/apis/runtime/v1/api.proto): RunPodSandbox, PullImage,
// CreateContainer, StartContainer, StopContainer, ContainerStatus, plus container logs.
// Containers play out their image's behaviour on the simulated clock; when one exits, the runtime
// tells its listener, as containerd's event stream feeds the kubelet's PLEG.
import { rfc3339 } from '../api/index.ts';
import { behaviourFor, normalizeImageRef, resolveImage, type ImageBehaviour, type ImageSpec } from './images.ts';
import { httpServerOf, type HttpServer } from './servers.ts';
import { execInUserland, extraProgramsOf, userlandOf, type ExecEnvironment, type ExecOutput, type ExecResult } from './userland.ts';

export interface CriHost {
  now(): number;
  setTimer(delayMs: number, fn: () => void): { cancel(): void };
}

export interface ContainerRuntimeOptions {
  nodeName: string;
  /** Registry download speed (default 50 MB/s): pull time is latency + size / bandwidth. */
  bandwidthBytesPerSec?: number;
  /** Round trip to resolve the manifest before the layers download (default 250 ms). */
  registryLatencyMs?: number;
  /** Images already on the machine (node.status.images). */
  preloadedImages?: string[];
  /** Random stream for container and sandbox ids. */
  rng: { nextU32(): number };
  /** Whether the node's CNI config directory holds a network config (default: always). */
  networkConfigured?: () => boolean;
}

/** A CRI RuntimeCondition (api.proto StatusResponse.status.conditions). */
export interface RuntimeCondition {
  type: 'RuntimeReady' | 'NetworkReady';
  status: boolean;
  reason: string;
  message: string;
}

export type ContainerStateName = 'created' | 'running' | 'exited';

export interface ContainerInfo {
  id: string;
  name: string;
  sandboxId: string;
  /** The image as the pod spec wrote it, and fully qualified. */
  image: string;
  imageRef: string;
  /** repo@sha256:..., the status imageID. */
  imageID: string;
  state: ContainerStateName;
  createdAtMs: number;
  startedAtMs?: number;
  finishedAtMs?: number;
  exitCode?: number;
  /** Completed (exit 0), Error, OOMKilled, StartError: the terminated reason the kubelet reports. */
  reason?: string;
  /** The runtime's word on a start that failed (the terminated state's message). */
  message?: string;
}

export interface ContainerConfig {
  name: string;
  image: string;
  command?: readonly string[];
  memoryLimitBytes?: number;
  /** What its process sees (environment, the kubelet's /etc files, the pod network); programs need it. */
  env?: ExecEnvironment;
}

interface LogFollower {
  onLine(entry: LogEntry): void;
  onEnd(): void;
}

export type PullResult =
  | { ok: true; image: ImageSpec; pullMs: number; totalMs: number }
  | { ok: false; message: string };

export interface ProbeResult {
  healthy: boolean;
  /** The HTTP status an httpGet probe would see (200, 500, 503). */
  statusCode: number;
}

/** One line the container wrote (its stdout and stderr, as the runtime's CRI log file keeps them). */
export interface LogEntry {
  readonly atMs: number;
  readonly text: string;
}

interface Container {
  info: ContainerInfo;
  behaviour: ImageBehaviour;
  /** What the process has written, oldest first; the image's start-up lines come at start. */
  log: LogEntry[];
  /** The image's start-up lines, written when the process starts. */
  startLines: readonly string[];
  memoryLimitBytes?: number;
  timer?: { cancel(): void };
  /** The web server its process runs, if any (what answers a connection to the pod on its port). */
  server?: HttpServer;
  env?: ExecEnvironment;
  /** Who follows its log (CRI log file readers with follow): each new line, then the end. */
  followers?: Set<LogFollower>;
}

export const OOM_EXIT_CODE = 137;
/** What a process sees when no kubelet described its container's environment (a runtime used on its own). */
const BARE_ENVIRONMENT: ExecEnvironment = { hostname: '', env: [], files: {} };
/** What containerd reports for a container whose process never started. */
const START_ERROR_EXIT_CODE = 128;
const SIGKILL_EXIT_CODE = 137;
/** How long a well-behaved process takes to exit after SIGTERM. */
const SIGTERM_EXIT_MS = 100;

export class ContainerRuntime {
  readonly nodeName: string;
  private readonly images = new Map<string, ImageSpec>();
  /** listImages' answer, and the images' version it was built at (addImage bumps it). */
  private imageList: readonly { readonly names: readonly string[]; readonly sizeBytes: number }[] | undefined;
  private imageListVersion = -1;
  private imagesVersion = 0;
  private readonly containers = new Map<string, Container>();
  private readonly sandboxes = new Map<string, { id: string; podUid: string; ready: boolean }>();
  private readonly exitListeners: ((info: ContainerInfo) => void)[] = [];
  private readonly changeListeners: (() => void)[] = [];
  /** kubelet serializes image pulls by default (serializeImagePulls: true): one at a time. */
  private pullQueueFreeAtMs = 0;

  constructor(private readonly host: CriHost, private readonly options: ContainerRuntimeOptions) {
    this.nodeName = options.nodeName;
    for (const image of options.preloadedImages ?? []) {
      const spec = resolveImage(image);
      if (spec) this.addImage(spec);
    }
  }

  /** Called with a container's final info each time one exits (containerd's TaskExit event). */
  onContainerExit(listener: (info: ContainerInfo) => void): void {
    this.exitListeners.push(listener);
  }

  /**
   * Called after any container starts, exits or is removed: what a program that lives in a
   * container (kube-proxy, kindnet) follows, since its process runs exactly while its container does.
   */
  onContainersChanged(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /**
   * Status: RuntimeReady, and NetworkReady, which containerd's CRI plugin reports false until a
   * CNI network config exists (its message: "Network plugin returns error: cni plugin not initialized").
   */
  status(): RuntimeCondition[] {
    const network = this.options.networkConfigured?.() ?? true;
    return [
      { type: 'RuntimeReady', status: true, reason: '', message: '' },
      network
        ? { type: 'NetworkReady', status: true, reason: '', message: '' }
        : { type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'Network plugin returns error: cni plugin not initialized' },
    ];
  }

  // ---------------------------------------------------------------- ImageService

  /** ImageStatus: the image if it is on this machine. */
  imageStatus(image: string): ImageSpec | undefined {
    return this.images.get(normalizeImageRef(image));
  }

  /** ListImages, as node.status.images reports them: largest first. */
  private addImage(spec: ImageSpec): void {
    this.images.set(spec.ref, spec);
    this.imagesVersion++;
  }

  /**
   * The images, largest first: one frozen list, the same object until an image is added (the
   * kubelet reads it for every node status check, every 10 s, and compares it with the last one).
   */
  listImages(): readonly { readonly names: readonly string[]; readonly sizeBytes: number }[] {
    if (this.imageList === undefined || this.imageListVersion !== this.imagesVersion) {
      this.imageListVersion = this.imagesVersion;
      this.imageList = Object.freeze([...this.images.values()]
        .sort((a, b) => b.sizeBytes - a.sizeBytes || a.ref.localeCompare(b.ref))
        .map((i) => Object.freeze({ names: Object.freeze([imageIdOf(i), i.ref]), sizeBytes: i.sizeBytes })));
    }
    return this.imageList;
  }

  /** PullImage: waits for earlier pulls (serialized), then takes latency + size / bandwidth. */
  pullImage(image: string, done: (result: PullResult) => void): void {
    const requestedAtMs = this.host.now();
    const spec = resolveImage(image);
    const latencyMs = this.options.registryLatencyMs ?? 250;
    if (!spec) {
      const ref = normalizeImageRef(image);
      const message = `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
      this.host.setTimer(latencyMs, () => done({ ok: false, message }));
      return;
    }
    const bandwidth = this.options.bandwidthBytesPerSec ?? 50_000_000;
    const pullMs = latencyMs + Math.ceil((spec.sizeBytes / bandwidth) * 1000);
    const startAtMs = Math.max(requestedAtMs, this.pullQueueFreeAtMs);
    this.pullQueueFreeAtMs = startAtMs + pullMs;
    this.host.setTimer(this.pullQueueFreeAtMs - requestedAtMs, () => {
      this.addImage(spec);
      done({ ok: true, image: spec, pullMs, totalMs: this.host.now() - requestedAtMs });
    });
  }

  // ---------------------------------------------------------------- RuntimeService

  runPodSandbox(podUid: string): string {
    const id = this.newId();
    this.sandboxes.set(id, { id, podUid, ready: true });
    return id;
  }

  /** ListPodSandbox: what a restarted kubelet finds still there (the pod uid stands for the sandbox's labels). */
  listPodSandboxes(): { id: string; podUid: string; ready: boolean }[] {
    return [...this.sandboxes.values()].map((s) => ({ ...s }));
  }

  stopPodSandbox(sandboxId: string): void {
    const sandbox = this.sandboxes.get(sandboxId);
    if (sandbox) sandbox.ready = false;
  }

  removePodSandbox(sandboxId: string): void {
    this.sandboxes.delete(sandboxId);
    let removed = false;
    for (const [id, c] of this.containers) {
      if (c.info.sandboxId === sandboxId) {
        c.timer?.cancel();
        this.containers.delete(id);
        removed = true;
      }
    }
    if (removed) this.changed();
  }

  /** CreateContainer: needs the image present (the kubelet pulls first). */
  createContainer(sandboxId: string, config: ContainerConfig): { ok: true; id: string } | { ok: false; message: string } {
    if (!this.sandboxes.has(sandboxId)) return { ok: false, message: `sandbox ${sandboxId} not found` };
    const spec = this.imageStatus(config.image);
    if (!spec) return { ok: false, message: `image "${normalizeImageRef(config.image)}" not present on the machine` };
    const id = this.newId();
    this.containers.set(id, {
      info: {
        id, name: config.name, sandboxId, image: config.image, imageRef: spec.ref, imageID: imageIdOf(spec),
        state: 'created', createdAtMs: this.host.now(),
      },
      behaviour: behaviourFor(spec, config.command ?? []),
      server: httpServerOf(spec.ref, config.command ?? []),
      ...(config.env ? { env: config.env } : {}),
      log: [],
      startLines: spec.logs,
      ...(config.memoryLimitBytes !== undefined ? { memoryLimitBytes: config.memoryLimitBytes } : {}),
    });
    return { ok: true, id };
  }

  /** StartContainer: the process starts and its behaviour is scheduled. */
  startContainer(id: string): { ok: true } | { ok: false; message: string } {
    const c = this.containers.get(id);
    if (!c) return { ok: false, message: `container "${id}" not found` };
    if (c.info.state !== 'created') return { ok: false, message: `container "${id}" is in ${c.info.state} state` };
    c.info.state = 'running';
    c.info.startedAtMs = this.host.now();
    for (const line of c.startLines) this.write(c, line);
    const b = c.behaviour;
    if (b.kind === 'exit') c.timer = this.host.setTimer(b.afterMs, () => this.exit(c, b.exitCode, b.exitCode === 0 ? 'Completed' : 'Error'));
    if (b.kind === 'oom') c.timer = this.host.setTimer(b.afterMs, () => this.exit(c, OOM_EXIT_CODE, 'OOMKilled'));
    if (b.kind === 'program') return this.runProgram(c, b.argv);
    if (b.kind === 'loop') this.runLoop(c, b.body);
    this.changed();
    return { ok: true };
  }

  /**
   * The container's main process dies of SIGKILL from outside the kubelet (kill -9 on the node, a
   * crash): exit code 137, reason Error, and the exit event the kubelet's PLEG restarts it from.
   * False when no such running container exists.
   */
  killContainerProcess(id: string): boolean {
    const c = this.containers.get(id);
    if (c?.info.state !== 'running') return false;
    // SIGKILL: the process writes nothing more (a shell's "Killed" is its parent's, not the container's)
    this.exit(c, SIGKILL_EXIT_CODE, 'Error');
    return true;
  }

  /**
   * StopContainer: SIGTERM, then SIGKILL once the grace period is over. A process that handles
   * SIGTERM exits at once with code 0; one that ignores it is killed (137) at the deadline.
   */
  stopContainer(id: string, gracePeriodMs: number, done: () => void): void {
    const c = this.containers.get(id);
    if (!c || c.info.state !== 'running') {
      if (c && c.info.state === 'created') this.exit(c, 0, 'Completed', false);
      this.host.setTimer(0, done);
      return;
    }
    const ignores = 'ignoresSigterm' in c.behaviour && c.behaviour.ignoresSigterm === true;
    const exitMs = ignores ? gracePeriodMs : Math.min(SIGTERM_EXIT_MS, gracePeriodMs);
    const killed = ignores || gracePeriodMs < SIGTERM_EXIT_MS;
    c.timer?.cancel();
    c.timer = this.host.setTimer(exitMs, () => {
      if (c.info.state === 'running') this.exit(c, killed ? SIGKILL_EXIT_CODE : 0, killed ? 'Error' : 'Completed', false);
      done();
    });
  }

  containerStatus(id: string): ContainerInfo | undefined {
    const c = this.containers.get(id);
    return c && { ...c.info };
  }

  listContainers(sandboxId?: string): ContainerInfo[] {
    return [...this.containers.values()].filter((c) => sandboxId === undefined || c.info.sandboxId === sandboxId).map((c) => ({ ...c.info }));
  }

  /** RemoveContainer: the kubelet keeps only the last exited instance of each container. */
  removeContainer(id: string): void {
    const c = this.containers.get(id);
    if (!c) return;
    c.timer?.cancel();
    this.endFollowers(c);
    this.containers.delete(id);
    this.changed();
  }

  /** What an httpGet probe on the container would see right now. */
  probe(id: string, kind: 'liveness' | 'readiness' | 'startup'): ProbeResult {
    const c = this.containers.get(id);
    if (!c || c.info.state !== 'running') return { healthy: false, statusCode: 0 };
    const b = c.behaviour;
    if (b.kind === 'never-ready' && kind === 'readiness') return { healthy: false, statusCode: 503 };
    if (b.kind === 'unhealthy-after' && this.host.now() - (c.info.startedAtMs ?? 0) >= b.afterMs) return { healthy: false, statusCode: 500 };
    return { healthy: true, statusCode: 200 };
  }

  /**
   * The container's command as its process: runc cannot start a program the image lacks (the start
   * fails, exit code 128, reason StartError, containerd's message); otherwise its output is written
   * when the script writes it and it exits with its code once its time is up.
   */
  private runProgram(c: Container, argv: readonly string[]): { ok: true } | { ok: false; message: string } {
    const ref = c.info.imageRef;
    const result = execInUserland(userlandOf(ref), argv, c.env ?? BARE_ENVIRONMENT, extraProgramsOf(ref));
    if ('startError' in result) {
      const message = `failed to create containerd task: failed to create shim task: ${result.startError.replace('OCI runtime exec failed: exec failed:', 'OCI runtime create failed: runc create failed:')}`;
      // the exit event comes after StartContainer has answered, as containerd's event stream does
      this.exit(c, START_ERROR_EXIT_CODE, 'StartError', false, message);
      this.host.setTimer(0, () => { for (const listener of this.exitListeners) listener({ ...c.info }); });
      return { ok: false, message };
    }
    this.writeOutput(c, result);
    c.timer = this.host.setTimer(result.durationMs, () => this.exit(c, result.exitCode, result.exitCode === 0 ? 'Completed' : 'Error'));
    this.changed();
    return { ok: true };
  }

  /** A shell's endless loop: one pass of the body, then the next once its time is up (a pass that takes no time runs once). */
  private runLoop(c: Container, body: string): void {
    const ref = c.info.imageRef;
    const pass = (): void => {
      if (c.info.state !== 'running') return;
      const result = execInUserland(userlandOf(ref), ['sh', '-c', body], c.env ?? BARE_ENVIRONMENT, extraProgramsOf(ref));
      if ('startError' in result) return;
      this.writeOutput(c, result);
      if (result.durationMs > 0) c.timer = this.host.setTimer(result.durationMs, pass);
    };
    pass();
  }

  /** A program's output into the container's log, each piece when the program wrote it. */
  private writeOutput(c: Container, result: ExecOutput): void {
    for (const w of result.writes ?? [{ atMs: 0, text: result.stdout + result.stderr }]) {
      const lines = w.text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const write = (): void => { if (c.info.state === 'running') for (const line of lines) this.write(c, line); };
      if (w.atMs === 0) write();
      else this.host.setTimer(w.atMs, write);
    }
  }

  /**
   * Exec: runs argv in a running container (what containerd does for the kubelet's streaming
   * exec). A program the image lacks fails to start, with containerd's wrapping of runc's error
   * around a fresh exec ID; a container that is not running has no process to join.
   */
  exec(id: string, argv: readonly string[], env: ExecEnvironment, stdin?: string): ExecResult {
    const c = this.containers.get(id);
    if (c?.info.state !== 'running') return { startError: `container ${id} is not running` };
    // an exec'd process inherits the container's environment (its OCI spec's), as set at its start
    const base = c.env ?? env;
    const result = execInUserland(userlandOf(c.info.imageRef), argv, stdin !== undefined ? { ...base, stdin } : base, extraProgramsOf(c.info.imageRef));
    if ('startError' in result) return { startError: `failed to exec in container: failed to start exec "${this.newId()}": ${result.startError}` };
    return result;
  }

  /**
   * What the pod whose sandbox this is answers to an HTTP GET / on `port`: the body its running
   * container's server sends, or undefined when nothing listens there (the connection is refused).
   */
  httpAnswer(podUid: string, port: number, hostname: string): string | undefined {
    const sandboxes = new Set([...this.sandboxes.values()].filter((b) => b.podUid === podUid && b.ready).map((b) => b.id));
    for (const c of this.containers.values()) {
      if (c.info.state === 'running' && sandboxes.has(c.info.sandboxId) && c.server?.port === port) return c.server.body(hostname);
    }
    return undefined;
  }

  /** The lines a container wrote (empty for an unknown one). */
  logs(id: string): string[] {
    return (this.containers.get(id)?.log ?? []).map((e) => e.text);
  }

  /** A container's log with the time of each line (what the kubelet reads for kubectl logs); undefined once removed. */
  containerLog(id: string): readonly LogEntry[] | undefined {
    const c = this.containers.get(id);
    return c && [...c.log];
  }

  /**
   * Follows a container's log: every line it writes from now on, then the end once it stops
   * (at once if it is not running). Returns how to stop following.
   */
  followLog(id: string, onLine: (entry: LogEntry) => void, onEnd: () => void): () => void {
    const c = this.containers.get(id);
    if (c?.info.state !== 'running') {
      this.host.setTimer(0, onEnd);
      return () => {};
    }
    const follower: LogFollower = { onLine, onEnd };
    (c.followers ??= new Set()).add(follower);
    return () => c.followers?.delete(follower);
  }

  /** Appends a line; an image's `{time}` becomes the time in nginx's log format ("2026/01/01 00:00:06"). */
  private write(c: Container, text: string): void {
    const atMs = this.host.now();
    const entry = { atMs, text: text.includes('{time}') ? text.replaceAll('{time}', logClock(atMs)) : text };
    c.log.push(entry);
    if (c.followers) for (const f of c.followers) f.onLine(entry);
  }

  /** The process is gone: its log ends for whoever follows it. */
  private endFollowers(c: Container): void {
    const followers = c.followers;
    if (!followers) return;
    delete c.followers;
    for (const f of followers) f.onEnd();
  }

  private exit(c: Container, exitCode: number, reason: string, notify = true, message?: string): void {
    c.timer?.cancel();
    c.info.state = 'exited';
    c.info.finishedAtMs = this.host.now();
    c.info.exitCode = exitCode;
    c.info.reason = reason;
    if (message !== undefined) c.info.message = message;
    this.endFollowers(c);
    if (notify) for (const listener of this.exitListeners) listener({ ...c.info });
    this.changed();
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  private newId(): string {
    let hex = '';
    for (let i = 0; i < 8; i++) hex += this.options.rng.nextU32().toString(16).padStart(8, '0');
    return hex;
  }
}

function imageIdOf(spec: ImageSpec): string {
  const at = spec.ref.indexOf('@');
  const colon = spec.ref.lastIndexOf(':');
  const repo = at >= 0 ? spec.ref.slice(0, at) : spec.ref.slice(0, colon);
  return `${repo}@${spec.digest}`;
}

/** "2026-01-01T00:00:06Z" -> "2026/01/01 00:00:06" (nginx's error log time; the machines run in UTC). */
function logClock(atMs: number): string {
  return rfc3339(atMs).replace(/-/g, '/').replace('T', ' ').replace('Z', '');
}
