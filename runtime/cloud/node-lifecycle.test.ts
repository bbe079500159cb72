import { describe, expect, it } from 'vitest';
import { rfc3339, type Node, type Taint } from '../api/index.ts';
import { createKernel } from '../kernel/index.ts';
import { fakeCluster, fakeRecorder } from './fake-api.test-helper.ts';
import { CloudNodeLifecycleController, cloudVerdict, monitorStep, withShutdownTaint } from './node-lifecycle.ts';
import { SimulatedCloud } from './provider.ts';
import { SHUTDOWN_TAINT, UNINITIALIZED_TAINT } from './well-known.ts';

const NOT_READY: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' };

function node(name: string, o: { ready?: 'True' | 'False' | 'Unknown'; taints?: Taint[]; providerID?: string; createdMs?: number } = {}): Node {
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, uid: `uid-${name}`, creationTimestamp: rfc3339(o.createdMs ?? 0) },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.providerID ? { providerID: o.providerID } : {}) },
    status: o.ready ? { conditions: [{ type: 'Ready', status: o.ready }] } : {},
  };
}

describe('monitorStep', () => {
  it.each([
    { name: 'Ready with the shutdown taint: take it off', n: node('a', { ready: 'True', taints: [SHUTDOWN_TAINT] }), nowMs: 0, want: 'remove-shutdown-taint' },
    { name: 'Ready: nothing to do', n: node('a', { ready: 'True' }), nowMs: 0, want: 'nothing' },
    { name: 'NotReady: ask the cloud', n: node('a', { ready: 'False', providerID: 'sim://z/a' }), nowMs: 0, want: 'ask-cloud' },
    { name: 'no Ready condition counts as Unknown: ask', n: node('a', { providerID: 'sim://z/a' }), nowMs: 0, want: 'ask-cloud' },
    { name: 'uninitialized and 59 s old: wait', n: node('a', { ready: 'Unknown', taints: [UNINITIALIZED_TAINT], createdMs: 1000 }), nowMs: 60_000, want: 'wait-uninitialized' },
    { name: 'uninitialized for a full minute: ask', n: node('a', { ready: 'Unknown', taints: [UNINITIALIZED_TAINT], createdMs: 1000 }), nowMs: 61_000, want: 'ask-cloud' },
    { name: 'tainted but with a providerID: no grace', n: node('a', { ready: 'Unknown', taints: [UNINITIALIZED_TAINT], providerID: 'sim://z/a' }), nowMs: 1, want: 'ask-cloud' },
  ])('$name', ({ n, nowMs, want }) => {
    expect(monitorStep(n, nowMs)).toBe(want);
  });
});

describe('cloudVerdict and withShutdownTaint', () => {
  it.each([
    [false, undefined, 'delete-node'],
    [false, true, 'delete-node'],
    [true, true, 'add-shutdown-taint'],
    [true, false, 'nothing'],
    [true, undefined, 'nothing'],
  ] as const)('exists=%s shutdown=%s -> %s', (exists, shutdown, want) => {
    expect(cloudVerdict(exists, shutdown)).toBe(want);
  });

  it.each([
    { name: 'add to none', taints: [], present: true, want: [SHUTDOWN_TAINT] },
    { name: 'add beside others', taints: [NOT_READY], present: true, want: [NOT_READY, SHUTDOWN_TAINT] },
    { name: 'already there', taints: [SHUTDOWN_TAINT], present: true, want: undefined },
    { name: 'remove', taints: [NOT_READY, SHUTDOWN_TAINT], present: false, want: [NOT_READY] },
    { name: 'nothing to remove', taints: [NOT_READY], present: false, want: undefined },
  ])('$name', ({ taints, present, want }) => {
    expect(withShutdownTaint(taints, present)).toEqual(want);
  });
});

describe('CloudNodeLifecycleController', () => {
  function setup() {
    const kernel = createKernel({ seed: 11 });
    const api = fakeCluster(kernel);
    const running = new Set(['up', 'gone', 'off']);
    const cloud = new SimulatedCloud({ clock: kernel, rng: kernel.rng.fork('cloud'), isRunning: (n) => running.has(n) });
    for (const name of ['up', 'gone', 'off']) cloud.addInstance({ name, cpu: '4', memory: '16Gi', internalIP: '10.0.0.1' });
    const recorder = fakeRecorder();
    const logs: string[] = [];
    const nodes = api.informer<Node>('nodes');
    const controller = new CloudNodeLifecycleController({ clock: kernel, client: api.client, nodes, cloud: cloud.api().instances, recorder, log: (l) => logs.push(l), isLive: () => true });
    return { kernel, api, cloud, running, recorder, logs, nodes, controller };
  }

  it('deletes a NotReady node whose instance is gone, taints a powered-off one, leaves a Ready one', () => {
    const { kernel, api, cloud, running, recorder, nodes, controller } = setup();
    api.put('nodes', node('up', { ready: 'True', providerID: 'sim://sim-region-1a/up' }));
    api.put('nodes', node('gone', { ready: 'Unknown', providerID: 'sim://sim-region-1b/gone' }));
    api.put('nodes', node('off', { ready: 'Unknown', providerID: 'sim://sim-region-1c/off', taints: [NOT_READY] }));
    cloud.deleteInstance('gone');
    running.delete('off');
    nodes.start();
    controller.start();
    kernel.runFor(5_500);
    expect(api.get('nodes', '', 'gone')).toBeUndefined();
    expect(api.get<Node>('nodes', '', 'off')?.spec?.taints).toEqual([NOT_READY, SHUTDOWN_TAINT]);
    expect(api.get<Node>('nodes', '', 'up')?.spec?.taints).toBeUndefined();
    expect(recorder.lines).toEqual(['Normal DeletingNode Node/gone: Deleting node gone because it does not exist in the cloud provider']);
    // later rounds do not repeat themselves
    kernel.runFor(30_000);
    expect(api.requests.map((r) => `${r.verb} ${r.name}`)).toEqual(['delete gone', 'update off']);
  });

  it('takes the shutdown taint off once the node is Ready again', () => {
    const { kernel, api, nodes, controller } = setup();
    api.put('nodes', node('off', { ready: 'True', providerID: 'sim://sim-region-1c/off', taints: [SHUTDOWN_TAINT] }));
    nodes.start();
    controller.start();
    kernel.runFor(5_500);
    expect(api.get<Node>('nodes', '', 'off')?.spec?.taints).toBeUndefined();
  });

  it('gives an uninitialized node a minute before asking the cloud about it', () => {
    const { kernel, api, recorder, logs, nodes, controller } = setup();
    api.put('nodes', node('stranger', { ready: 'Unknown', taints: [UNINITIALIZED_TAINT], createdMs: 0 }));
    nodes.start();
    controller.start();
    kernel.runFor(59_000);
    expect(api.get('nodes', '', 'stranger')).toBeDefined();
    expect(logs).toContain('wait uninitialized node stranger');
    kernel.runFor(6_000);
    expect(api.get('nodes', '', 'stranger')).toBeUndefined();
    expect(recorder.lines).toEqual(['Normal DeletingNode Node/stranger: Deleting node stranger because it does not exist in the cloud provider']);
  });
});
