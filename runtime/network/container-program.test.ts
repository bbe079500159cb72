import { describe, expect, it } from 'vitest';
import { createKernel } from '../kernel/index.ts';
import { ContainerProgram, imageRepoOf, type ContainerRuntimeView } from './container-program.ts';

type State = 'created' | 'running' | 'exited';

/** A container runtime reduced to what a program follows: containers by id, image and state. */
class FakeRuntime implements ContainerRuntimeView {
  readonly containers = new Map<string, { id: string; imageRef: string; state: State }>();
  private readonly listeners: (() => void)[] = [];
  listContainers() {
    return [...this.containers.values()].map((c) => ({ ...c }));
  }
  onContainersChanged(listener: () => void): void {
    this.listeners.push(listener);
  }
  killContainerProcess(id: string): boolean {
    const c = this.containers.get(id);
    if (c?.state !== 'running') return false;
    this.set(id, c.imageRef, 'exited');
    return true;
  }
  set(id: string, imageRef: string, state: State | 'removed'): void {
    if (state === 'removed') this.containers.delete(id);
    else this.containers.set(id, { id, imageRef, state });
    for (const l of this.listeners) l();
  }
}

const PROXY = 'registry.k8s.io/kube-proxy:v1.33.0';

function setup() {
  const kernel = createKernel({ seed: 1 });
  const starts: number[] = [];
  const program = new ContainerProgram(kernel, {
    processName: 'kube-proxy-n1', imageRepo: 'registry.k8s.io/kube-proxy',
    main: (ctx) => void starts.push(ctx.incarnation),
  });
  const runtime = new FakeRuntime();
  program.follow(runtime);
  return { kernel, program, runtime, starts };
}

describe('imageRepoOf', () => {
  it.each([
    ['registry.k8s.io/kube-proxy:v1.33.0', 'registry.k8s.io/kube-proxy'],
    ['localhost:5000/kube-proxy:v1', 'localhost:5000/kube-proxy'],
    ['localhost:5000/kube-proxy', 'localhost:5000/kube-proxy'],
    ['docker.io/kindest/kindnetd@sha256:abc', 'docker.io/kindest/kindnetd'],
  ])('%s -> %s', (ref, repo) => expect(imageRepoOf(ref)).toBe(repo));
});

describe('ContainerProgram', () => {
  it('runs its process exactly while a container of its image runs', () => {
    const { kernel, program, runtime, starts } = setup();
    expect(kernel.process('kube-proxy-n1')).toBeUndefined(); // no container yet: never started
    runtime.set('a', PROXY, 'created');
    expect(program.running).toBe(false);
    runtime.set('a', PROXY, 'running');
    expect([program.running, starts]).toEqual([true, [1]]);
    runtime.set('b', 'docker.io/library/nginx:1.27', 'running'); // another image changes nothing
    expect(starts).toEqual([1]);
    runtime.set('a', PROXY, 'exited');
    expect(program.running).toBe(false);
    runtime.set('c', PROXY, 'running'); // the kubelet's restart: a new incarnation
    expect([program.running, starts]).toEqual([true, [1, 3]]);
    runtime.set('c', PROXY, 'removed'); // removed while running (a sandbox torn down)
    expect(program.running).toBe(false);
  });

  it('starts afresh when its container goes away while a second one of the image runs', () => {
    const { program, runtime, starts } = setup();
    runtime.set('a', PROXY, 'running');
    runtime.set('b', PROXY, 'running');
    expect(starts).toEqual([1]);
    runtime.set('a', PROXY, 'exited');
    expect([program.running, starts]).toEqual([true, [1, 3]]);
  });

  it('kill() kills the container process; reconcile() cannot start it without a container', () => {
    const { program, runtime } = setup();
    runtime.set('a', PROXY, 'running');
    program.kill();
    expect([program.running, runtime.containers.get('a')?.state]).toEqual([false, 'exited']);
    program.reconcile();
    expect(program.running).toBe(false);
  });

  it('follows the fresh runtime of a rebooted machine and ignores the old one', () => {
    const { program, runtime } = setup();
    runtime.set('a', PROXY, 'running');
    const fresh = new FakeRuntime();
    program.follow(fresh); // the machine rebooted: no containers in the new runtime
    expect(program.running).toBe(false);
    runtime.set('z', PROXY, 'running'); // a late event of the dead runtime
    expect(program.running).toBe(false);
    fresh.set('b', PROXY, 'running');
    expect(program.running).toBe(true);
  });
});
