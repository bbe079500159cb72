import { describe, expect, it } from 'vitest';
import { createKernel } from '../kernel/index.ts';
import { normalizeImageRef, resolveImage } from './images.ts';
import { ContainerRuntime, type ContainerInfo, type PullResult } from './runtime.ts';

function setup(preloaded: string[] = []) {
  const kernel = createKernel({ seed: 7 });
  const cri = new ContainerRuntime(kernel, { nodeName: 'n1', rng: kernel.forkRng('cri'), preloadedImages: preloaded });
  const exits: ContainerInfo[] = [];
  cri.onContainerExit((i) => exits.push(i));
  return { kernel, cri, exits };
}

function start(cri: ContainerRuntime, image: string, command: string[] = []): string {
  const sandbox = cri.runPodSandbox('uid-1');
  const created = cri.createContainer(sandbox, { name: 'c', image, command });
  if (!created.ok) throw new Error(created.message);
  expect(cri.startContainer(created.id)).toEqual({ ok: true });
  return created.id;
}

describe('image references', () => {
  it.each([
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.27', 'docker.io/library/nginx:1.27'],
    ['bitnami/redis:7', 'docker.io/bitnami/redis:7'],
    ['registry.k8s.io/pause:3.10', 'registry.k8s.io/pause:3.10'],
    ['localhost:5000/app', 'localhost:5000/app:latest'],
    ['ghcr.io/inside-cp/crash-after:10s', 'ghcr.io/inside-cp/crash-after:10s'],
  ])('%s -> %s', (image, ref) => expect(normalizeImageRef(image)).toBe(ref));

  it.each([
    ['ghcr.io/inside-cp/crash-after:10s', { kind: 'exit', afterMs: 10_000, exitCode: 1 }],
    ['ghcr.io/inside-cp/complete:3s', { kind: 'exit', afterMs: 3000, exitCode: 0 }],
    ['ghcr.io/inside-cp/never-ready', { kind: 'never-ready' }],
    ['ghcr.io/inside-cp/oom', { kind: 'oom', afterMs: 2000 }],
    ['nginx:1.27', { kind: 'serve' }],
  ])('%s behaves as scripted', (image, behaviour) => expect(resolveImage(image)?.behaviour).toEqual(behaviour));

  it.each(['nosuchimage', 'ghcr.io/inside-cp/crash-after:soon', 'ghcr.io/inside-cp/unknown'])('%s is not in the registry', (image) => {
    expect(resolveImage(image)).toBeUndefined();
  });
});

describe('ContainerRuntime', () => {
  it('pulls with latency from size and bandwidth, serialized, then serves from its cache', () => {
    const { kernel, cri } = setup();
    const results: PullResult[] = [];
    cri.pullImage('nginx:1.27', (r) => results.push(r)); // 250 ms + 72 MB / 50 MB/s = 1690 ms
    cri.pullImage('busybox', (r) => results.push(r)); // waits for nginx, then 250 + 44 ms
    kernel.runFor(5000);
    expect(results.map((r) => (r.ok ? [r.pullMs, r.totalMs] : r.message))).toEqual([[1690, 1690], [294, 1984]]);
    expect(cri.imageStatus('nginx:1.27')?.sizeBytes).toBe(72_000_000);
    expect(cri.listImages()[0]?.names[1]).toBe('docker.io/library/nginx:1.27');
  });

  it('fails to pull an image the registry does not have, with containerd\'s message', () => {
    const { kernel, cri } = setup();
    let result: PullResult | undefined;
    cri.pullImage('nosuch:1', (r) => (result = r));
    kernel.runFor(1000);
    expect(result).toEqual({ ok: false, message: expect.stringContaining('docker.io/library/nosuch:1: not found') });
  });

  it('refuses to create a container whose image is not present', () => {
    const { cri } = setup();
    const sandbox = cri.runPodSandbox('u');
    expect(cri.createContainer(sandbox, { name: 'c', image: 'nginx' }).ok).toBe(false);
  });

  it.each([
    ['ghcr.io/inside-cp/crash-after:10s', [], 10_000, 1, 'Error'],
    ['ghcr.io/inside-cp/exit-1', [], 500, 1, 'Error'],
    ['ghcr.io/inside-cp/complete:3s', [], 3000, 0, 'Completed'],
    ['ghcr.io/inside-cp/oom', [], 2000, 137, 'OOMKilled'],
    ['busybox', [], 100, 0, 'Completed'],
    ['busybox', ['sleep', '5'], 5000, 0, 'Completed'],
  ])('%s %j exits after %i ms with code %i (%s)', (image, command, afterMs, exitCode, reason) => {
    const { kernel, cri, exits } = setup([image]);
    const id = start(cri, image, command);
    kernel.runFor(afterMs - 1);
    expect(exits).toEqual([]);
    kernel.runFor(1);
    expect(exits).toMatchObject([{ id, state: 'exited', exitCode, reason, finishedAtMs: afterMs }]);
  });

  it('stops a SIGTERM-handling container at once and an ignoring one at the end of the grace period', () => {
    const { kernel, cri } = setup(['nginx', 'ghcr.io/inside-cp/ignore-sigterm']);
    const nginx = start(cri, 'nginx');
    const stubborn = start(cri, 'ghcr.io/inside-cp/ignore-sigterm');
    const stoppedAt: Record<string, number> = {};
    cri.stopContainer(nginx, 30_000, () => (stoppedAt.nginx = kernel.now()));
    cri.stopContainer(stubborn, 30_000, () => (stoppedAt.stubborn = kernel.now()));
    kernel.runFor(60_000);
    expect(stoppedAt).toEqual({ nginx: 100, stubborn: 30_000 });
    expect(cri.containerStatus(nginx)).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(cri.containerStatus(stubborn)).toMatchObject({ exitCode: 137, reason: 'Error' });
  });

  it('answers probes from the image script', () => {
    const { kernel, cri } = setup(['ghcr.io/inside-cp/never-ready', 'ghcr.io/inside-cp/unhealthy-after:5s']);
    const never = start(cri, 'ghcr.io/inside-cp/never-ready');
    const later = start(cri, 'ghcr.io/inside-cp/unhealthy-after:5s');
    expect(cri.probe(never, 'readiness')).toEqual({ healthy: false, statusCode: 503 });
    expect(cri.probe(never, 'liveness').healthy).toBe(true);
    expect(cri.probe(later, 'liveness').healthy).toBe(true);
    kernel.runFor(5000);
    expect(cri.probe(later, 'liveness')).toEqual({ healthy: false, statusCode: 500 });
  });

  it('gives containers 64-hex ids, deterministic per seed', () => {
    const a = setup(['nginx']);
    const b = setup(['nginx']);
    const idA = start(a.cri, 'nginx');
    expect(idA).toMatch(/^[0-9a-f]{64}$/);
    expect(start(b.cri, 'nginx')).toBe(idA);
  });
});

describe('container changes and kill -9', () => {
  it('tells change listeners of every start, exit and removal', () => {
    const { kernel, cri } = setup(['nginx:1.27']);
    const seen: string[] = [];
    cri.onContainersChanged(() => seen.push(cri.listContainers().map((c) => c.state).join(',')));
    const id = start(cri, 'nginx:1.27');
    cri.stopContainer(id, 30_000, () => undefined);
    kernel.runFor(1000);
    cri.removeContainer(id);
    expect(seen).toEqual(['running', 'exited', '']);
  });

  it('killContainerProcess: exit 137, reason Error, and the exit event the kubelet restarts from', () => {
    const { cri, exits } = setup(['nginx:1.27']);
    const id = start(cri, 'nginx:1.27');
    expect(cri.killContainerProcess(id)).toBe(true);
    expect(cri.containerStatus(id)).toMatchObject({ state: 'exited', exitCode: 137, reason: 'Error' });
    expect(exits.map((e) => e.id)).toEqual([id]);
    expect(cri.killContainerProcess(id)).toBe(false); // already dead
  });

  it('removing a sandbox with a running container counts as a change', () => {
    const { cri } = setup(['nginx:1.27']);
    const id = start(cri, 'nginx:1.27');
    let changes = 0;
    cri.onContainersChanged(() => changes++);
    cri.removePodSandbox(cri.containerStatus(id)!.sandboxId);
    expect([changes, cri.listContainers()]).toEqual([1, []]);
  });
});
