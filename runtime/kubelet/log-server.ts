// The kubelet's /containerLogs endpoint (pkg/kubelet/server/server.go getContainerLogs, then
// kubelet_pods.go GetKubeletContainerLogs and validateContainerLogStatus, then kuberuntime's
// ReadLogs): which container instance to read follows the container's status (the running one,
// the last terminated one for --previous, or an error saying why there is nothing to read yet),
// and the lines are cut by sinceSeconds/sinceTime, tailLines and limitBytes, each prefixed with
// its RFC3339Nano time under timestamps. Answers only the API server's pods/log calls.
import {
  isContainerLogsRequest, isContainerLogsStop, parseRFC3339, rfc3339Nano,
  type ContainerLogsChunk, type ContainerLogsEnd, type ContainerLogsRequest, type ContainerLogsResponse, type ContainerStatus, type Pod, type PodLogOptions, type PodStatus,
} from '../api/index.ts';
import type { Lister } from '../client/index.ts';
import type { ContainerRuntime, LogEntry } from '../cri/index.ts';
import type { ProcessContext } from '../kernel/index.ts';

export interface LogServerDeps {
  /** The kubelet's pods (its pod manager: what is bound to this node, static pods by their mirror). */
  pods: Lister<Pod>;
  /** The status manager's status of a pod, when the kubelet has one (else the API server's copy is used). */
  statusOf(namespace: string, name: string): PodStatus | undefined;
  cri: ContainerRuntime;
  /** A static pod's container log (its process runs outside the CRI here); undefined for other pods. */
  staticLog?(pod: Pod, container: string, previous: boolean): readonly LogEntry[] | undefined;
}

/**
 * The kubelet server's containerLogs route: answers the API server's call; false for other
 * messages. With follow, what is there comes first, then each line the container writes, then the
 * end when it stops (ReadLogs with Follow); the API server may stop the stream first.
 */
export function containerLogsRoute(ctx: ProcessContext, d: LogServerDeps): (msg: unknown, from: string) => boolean {
  const following = new Map<string, () => void>();
  return (msg, from) => {
    if (isContainerLogsStop(msg)) {
      following.get(`${from}#${msg.id}`)?.();
      following.delete(`${from}#${msg.id}`);
      return true;
    }
    if (!isContainerLogsRequest(msg)) return false;
    const { code, body, followId } = containerLogs(d, msg, ctx.now());
    ctx.send(from, { type: 'kubelet.containerLogs.response', id: msg.id, code, body } satisfies ContainerLogsResponse);
    if (code !== 200 || !msg.options.follow) return true;
    const key = `${from}#${msg.id}`;
    let seq = 0;
    const end = (): void => {
      following.delete(key);
      if (ctx.isLive()) ctx.send(from, { type: 'kubelet.containerLogs.end', id: msg.id, seq: ++seq } satisfies ContainerLogsEnd);
    };
    if (followId === undefined) {
      // nothing more will be written (a finished instance, --previous, a static pod's start lines)
      end();
      return true;
    }
    const timestamps = msg.options.timestamps === true;
    following.set(key, d.cri.followLog(followId, (entry) => {
      if (ctx.isLive()) ctx.send(from, { type: 'kubelet.containerLogs.chunk', id: msg.id, seq: ++seq, text: `${timestamps ? `${rfc3339Nano(entry.atMs)} ` : ''}${entry.text}\n` } satisfies ContainerLogsChunk);
    }, end));
    return true;
  };
}

export function containerLogs(d: LogServerDeps, req: ContainerLogsRequest, nowMs: number): { code: number; body: string; followId?: string } {
  const pod = d.pods.get(req.namespace, req.pod);
  if (!pod) return { code: 404, body: `pod "${req.pod}" does not exist` };
  const spec = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find((c) => c.name === req.container);
  if (!spec) return { code: 404, body: `container "${req.container}" not found in pod "${req.pod}"` };
  // GetKubeletContainerLogs: the status manager's status, or the one from the API server after a restart
  const status = d.statusOf(req.namespace, req.pod) ?? pod.status;
  const chosen = containerToRead(pod.metadata.name ?? '', status, req.container, req.options.previous === true);
  if ('error' in chosen) return { code: 400, body: chosen.error };
  const log = d.cri.containerLog(chosen.id) ?? d.staticLog?.(pod, req.container, req.options.previous === true);
  if (!log) {
    // the runtime removed that instance, and its log file with it
    const file = `/var/log/pods/${req.namespace}_${req.pod}_${pod.metadata.uid ?? ''}/${req.container}/${chosen.restartCount}.log`;
    return { code: 400, body: `failed to try resolving symlinks in path "${file}": lstat ${file}: no such file or directory` };
  }
  // only a running instance's log grows: that is the one a follow keeps reading
  const running = !req.options.previous && d.cri.containerStatus(chosen.id)?.state === 'running';
  return { code: 200, body: readLogs(log, req.options, nowMs), ...(running ? { followId: chosen.id } : {}) };
}

/** validateContainerLogStatus: the container instance whose log to read, or why there is none. */
function containerToRead(podName: string, podStatus: PodStatus | undefined, container: string, previous: boolean): { id: string; restartCount: number } | { error: string } {
  const statuses: ContainerStatus[] = [...(podStatus?.containerStatuses ?? []), ...(podStatus?.initContainerStatuses ?? [])];
  const status = statuses.find((s) => s.name === container);
  if (!status) return { error: `container "${container}" in pod "${podName}" is not available` };
  const last = status.lastState?.terminated;
  const { waiting, running, terminated } = status.state ?? {};
  const instance = (containerID: string | undefined, restartCount: number) => ({ id: runtimeIdOf(containerID), restartCount });
  if (previous) {
    if (!last?.containerID) return { error: `previous terminated container "${container}" in pod "${podName}" not found` };
    return instance(last.containerID, Math.max(0, status.restartCount - 1));
  }
  if (running) return instance(status.containerID, status.restartCount);
  if (terminated) {
    if (terminated.containerID) return instance(terminated.containerID, status.restartCount);
    if (last?.containerID) return instance(last.containerID, Math.max(0, status.restartCount - 1));
    return { error: `container "${container}" in pod "${podName}" is terminated` };
  }
  if (last) {
    if (!last.containerID) return { error: `container "${container}" in pod "${podName}" is terminated` };
    return instance(last.containerID, Math.max(0, status.restartCount - 1));
  }
  if (waiting) {
    switch (waiting.reason) {
      case 'ErrImagePull':
        return { error: `container "${container}" in pod "${podName}" is waiting to start: image can't be pulled` };
      case 'ImagePullBackOff':
        return { error: `container "${container}" in pod "${podName}" is waiting to start: trying and failing to pull image` };
      default:
        return { error: `container "${container}" in pod "${podName}" is waiting to start: ${waiting.reason ?? ''}` };
    }
  }
  return { error: `container "${container}" in pod "${podName}" is waiting to start - no logs yet` };
}

/** "containerd://<id>" -> "<id>" (kubecontainer.ParseContainerID). */
function runtimeIdOf(containerID: string | undefined): string {
  const sep = (containerID ?? '').indexOf('://');
  return sep < 0 ? (containerID ?? '') : containerID!.slice(sep + 3);
}

/**
 * kuberuntime/logs ReadLogs with the kubelet's options: lines since the cut-off, the last
 * tailLines of those, each "<RFC3339Nano> " first under timestamps, stopped after limitBytes.
 */
export function readLogs(log: readonly LogEntry[], options: PodLogOptions, nowMs: number): string {
  let since = -Infinity;
  if (options.sinceSeconds !== undefined) since = nowMs - options.sinceSeconds * 1000;
  else if (options.sinceTime !== undefined) since = parseRFC3339(options.sinceTime) ?? -Infinity;
  let lines = log.filter((e) => e.atMs >= since);
  if (options.tailLines !== undefined) lines = options.tailLines === 0 ? [] : lines.slice(-options.tailLines);
  let out = '';
  let bytes = 0;
  for (const e of lines) {
    const line = `${options.timestamps ? `${rfc3339Nano(e.atMs)} ` : ''}${e.text}\n`;
    if (options.limitBytes !== undefined && bytes + utf8Length(line) > options.limitBytes) {
      return out + cutToBytes(line, options.limitBytes - bytes);
    }
    out += line;
    bytes += utf8Length(line);
  }
  return out;
}

/** UTF-8 bytes of a (short) log line, code point by code point. */
function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** The longest prefix of `s` that fits in `n` UTF-8 bytes (a LimitedWriter stops mid-line). */
function cutToBytes(s: string, n: number): string {
  let used = 0;
  let i = 0;
  for (const ch of s) {
    const size = utf8Length(ch);
    if (used + size > n) break;
    used += size;
    i += ch.length;
  }
  return s.slice(0, i);
}
