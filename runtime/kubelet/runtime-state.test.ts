// The kubelet's network gating: pods that need the pod network wait (NetworkNotReady, retried every
// second) until the runtime's NetworkReady is true; hostNetwork pods start regardless.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/index.ts';
import type { EventRecorder, Lister, RestClient } from '../client/index.ts';
import { ContainerRuntime } from '../cri/index.ts';
import { createKernel, type ProcessContext } from '../kernel/index.ts';
import { ClusterNetwork } from '../network/index.ts';
import { kubeletConditions } from './node-agent.ts';
import { PodWorkers } from './pod-workers.ts';
import { NETWORK_NOT_READY_RETRY_MS, runtimeNetworkError } from './runtime-state.ts';

const MESSAGE = 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

const pod = (name: string, hostNetwork: boolean): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '1' },
  spec: { nodeName: 'n1', hostNetwork, containers: [{ name: 'c', image: 'nginx:1.27' }] },
} as Pod);

function setup() {
  const kernel = createKernel({ seed: 2 });
  let configured = false;
  const cri = new ContainerRuntime(kernel, { nodeName: 'n1', rng: kernel.forkRng('cri'), preloadedImages: ['nginx:1.27'], networkConfigured: () => configured });
  const cni = new ClusterNetwork(kernel.forkRng('net')).attachNode('n1', '10.244.1.0/24', '172.18.0.2');
  const pods = new Map<string, Pod>();
  const lister = { get: (_ns: string, name: string) => pods.get(name) } as Lister<Pod>;
  const events: string[] = [];
  const recorder: EventRecorder = { eventf: (o, _type, reason, _fmt, message) => void events.push(`${'name' in o ? o.name : ''} ${reason}: ${String(message)}`), inFlight: 0 };
  const client = { request: () => undefined } as unknown as RestClient;
  let workers: PodWorkers | undefined;
  kernel.spawn('kubelet-n1', (ctx: ProcessContext) => {
    workers = new PodWorkers(ctx, { client, cri, cni, nodeIP: '172.18.0.2', recorder, lister, networkError: () => runtimeNetworkError(cri) });
  });
  const add = (p: Pod): void => {
    pods.set(p.metadata.name!, p);
    workers!.sync(`default/${p.metadata.name!}`);
  };
  const running = (): string[] => cri.listContainers().filter((c) => c.state === 'running').map((c) => cri.listPodSandboxes().find((s) => s.id === c.sandboxId)!.podUid);
  return { kernel, cri, events, add, running, configure: () => void (configured = true) };
}

describe('runtimeNetworkError', () => {
  it('is the kubelet\'s text for a runtime whose NetworkReady is false, and undefined once it is true', () => {
    const { cri, configure } = setup();
    expect(runtimeNetworkError(cri)).toBe(MESSAGE);
    configure();
    expect(runtimeNetworkError(cri)).toBeUndefined();
  });

  it('makes Ready False with reason KubeletNotReady (setNodeReadyCondition)', () => {
    const ready = kubeletConditions([], '2025-01-01T00:00:00Z', MESSAGE).conditions.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'KubeletNotReady', message: MESSAGE });
    expect(kubeletConditions([], '2025-01-01T00:00:00Z').conditions.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
  });
});

describe('pod workers wait for the pod network', () => {
  it('start a hostNetwork pod at once and hold the others, retrying every second, until the CNI config exists', () => {
    const { kernel, events, add, running, configure } = setup();
    add(pod('proxy', true));
    add(pod('web', false));
    kernel.runFor(2500);
    expect(running()).toEqual(['uid-proxy']);
    const waits = events.filter((e) => e.startsWith('web NetworkNotReady'));
    expect(waits[0]).toBe(`web NetworkNotReady: network is not ready: ${MESSAGE}`);
    expect(waits).toHaveLength(1 + Math.floor(2500 / NETWORK_NOT_READY_RETRY_MS)); // at 0, 1 s and 2 s
    configure(); // kindnet wrote 10-kindnet.conflist
    kernel.runFor(NETWORK_NOT_READY_RETRY_MS + 1000);
    expect(running().sort()).toEqual(['uid-proxy', 'uid-web']);
    expect(events.filter((e) => e.startsWith('web NetworkNotReady'))).toHaveLength(waits.length);
  });
});
