// The kubelet's /containerLogs: which instance it reads (validateContainerLogStatus) and how the
// lines are cut (ReadLogs with since, tail, limitBytes and timestamps).
import { describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod, PodStatus } from '../api/index.ts';
import type { ContainerRuntime, LogEntry } from '../cri/index.ts';
import { containerLogs, readLogs } from './log-server.ts';

const LOG: LogEntry[] = [
  { atMs: 5_000, text: 'one' },
  { atMs: 6_250, text: 'two' },
  { atMs: 9_000, text: 'héllo' },
];

describe('readLogs', () => {
  it.each([
    ['everything', {}, 'one\ntwo\nhéllo\n'],
    ['the last 2', { tailLines: 2 }, 'two\nhéllo\n'],
    ['tail 0', { tailLines: 0 }, ''],
    ['since 4 s before 10 s', { sinceSeconds: 4 }, 'two\nhéllo\n'],
    ['since a time', { sinceTime: '2026-01-01T00:00:09Z' }, 'héllo\n'],
    ['timestamps in RFC3339Nano', { timestamps: true, tailLines: 2 }, '2026-01-01T00:00:06.25Z two\n2026-01-01T00:00:09Z héllo\n'],
    ['8 bytes, cut mid-line', { limitBytes: 8 }, 'one\ntwo\n'],
    ['10 bytes: "é" is two', { limitBytes: 10 }, 'one\ntwo\nh'],
    ['11 bytes', { limitBytes: 11 }, 'one\ntwo\nhé'],
  ])('%s', (_name, options, want) => {
    expect(readLogs(LOG, options, 10_000)).toBe(want);
  });
});

const RUNNING: ContainerStatus['state'] = { running: { startedAt: '2026-01-01T00:00:05Z' } };
function pod(status: Partial<ContainerStatus> | undefined): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'u1' },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
    status: { phase: 'Running', ...(status ? { containerStatuses: [{ name: 'app', ready: true, restartCount: 0, image: 'nginx', imageID: '', ...status } as ContainerStatus] } : {}) },
  } as Pod;
}

function serve(p: Pod | undefined, logs: Record<string, LogEntry[]>, options = {}, container = 'app', statusOf?: PodStatus) {
  // c2 is the instance the runtime still runs: the one whose log a follow keeps reading
  const cri = { containerLog: (id: string) => logs[id], containerStatus: (id: string) => (id === 'c2' ? { state: 'running' } : undefined) } as unknown as ContainerRuntime;
  const lister = { get: () => p, list: () => [], listInNamespace: () => [], byIndex: () => [] };
  return containerLogs({ pods: lister, cri, statusOf: () => statusOf }, { type: 'kubelet.containerLogs', id: 1, namespace: 'default', pod: 'web', container, options }, 10_000);
}

describe('containerLogs', () => {
  it('reads the running instance; --previous reads the last terminated one', () => {
    const p = pod({ state: RUNNING, containerID: 'containerd://c2', restartCount: 1, lastState: { terminated: { exitCode: 1, containerID: 'containerd://c1' } } });
    const logs = { c1: [{ atMs: 1, text: 'old' }], c2: [{ atMs: 2, text: 'new' }] };
    expect(serve(p, logs)).toEqual({ code: 200, body: 'new\n', followId: 'c2' });
    expect(serve(p, logs, { previous: true })).toEqual({ code: 200, body: 'old\n' });
  });

  it.each([
    ['waiting to start', { state: { waiting: { reason: 'ContainerCreating' } } }, {}, 'container "app" in pod "web" is waiting to start: ContainerCreating'],
    ['an image that cannot be pulled', { state: { waiting: { reason: 'ErrImagePull' } } }, {}, 'container "app" in pod "web" is waiting to start: image can\'t be pulled'],
    ['pull back-off', { state: { waiting: { reason: 'ImagePullBackOff' } } }, {}, 'container "app" in pod "web" is waiting to start: trying and failing to pull image'],
    ['no previous instance', { state: RUNNING, containerID: 'containerd://c2' }, { previous: true }, 'previous terminated container "app" in pod "web" not found'],
    ['terminated without an id', { state: { terminated: { exitCode: 0 } } }, {}, 'container "app" in pod "web" is terminated'],
    ['no state at all', { state: {} }, {}, 'container "app" in pod "web" is waiting to start - no logs yet'],
    ['no status for the container', undefined, {}, 'container "app" in pod "web" is not available'],
  ])('%s: 400', (_name, status, options, message) => {
    expect(serve(pod(status as Partial<ContainerStatus> | undefined), {}, options)).toEqual({ code: 400, body: message });
  });

  it("prefers the status manager's status to the API server's copy", () => {
    const fromApi = pod(undefined);
    const mine: PodStatus = { phase: 'Pending', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, image: 'nginx', imageID: '', state: { waiting: { reason: 'ContainerCreating' } } }] };
    expect(serve(fromApi, {}, {}, 'app', mine).body).toBe('container "app" in pod "web" is waiting to start: ContainerCreating');
  });

  it('404s an unknown pod or container, and names the log file a removed instance had', () => {
    expect(serve(undefined, {})).toEqual({ code: 404, body: 'pod "web" does not exist' });
    expect(serve(pod(undefined), {}, {}, 'nope')).toEqual({ code: 404, body: 'container "nope" not found in pod "web"' });
    const gone = serve(pod({ state: RUNNING, containerID: 'containerd://c9', restartCount: 2 }), {});
    expect(gone).toEqual({ code: 400, body: 'failed to try resolving symlinks in path "/var/log/pods/default_web_u1/app/2.log": lstat /var/log/pods/default_web_u1/app/2.log: no such file or directory' });
  });
});
