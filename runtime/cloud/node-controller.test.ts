import { describe, expect, it } from 'vitest';
import type { Node, Taint } from '../api/index.ts';
import { createKernel } from '../kernel/index.ts';
import { fakeCluster, fakeRecorder } from './fake-api.test-helper.ts';
import { CloudNodeController, initializedNode, nodeAddressesUpdate } from './node-controller.ts';
import { SimulatedCloud } from './provider.ts';
import type { InstanceMetadata } from './types.ts';
import { UNINITIALIZED_TAINT } from './well-known.ts';

const META: InstanceMetadata = {
  providerID: 'sim://sim-region-1b/w1', instanceType: 'sim-standard-4', zone: 'sim-region-1b', region: 'sim-region-1',
  nodeAddresses: [{ type: 'InternalIP', address: '192.168.49.10' }, { type: 'ExternalIP', address: '198.51.100.1' }, { type: 'Hostname', address: 'w1' }],
};

const node = (o: { taints?: Taint[]; providerID?: string; labels?: Record<string, string>; addresses?: Node['status'] } = {}): Node => ({
  apiVersion: 'v1', kind: 'Node',
  metadata: { name: 'w1', labels: { 'kubernetes.io/hostname': 'w1', ...o.labels } },
  spec: { podCIDR: '10.244.8.0/24', ...(o.taints ? { taints: o.taints } : {}), ...(o.providerID ? { providerID: o.providerID } : {}) },
  status: o.addresses ?? { addresses: [{ type: 'InternalIP', address: '192.168.49.10' }, { type: 'Hostname', address: 'w1' }] },
});

describe('initializedNode', () => {
  const CLOUD_LABELS = {
    'beta.kubernetes.io/instance-type': 'sim-standard-4', 'node.kubernetes.io/instance-type': 'sim-standard-4',
    'failure-domain.beta.kubernetes.io/zone': 'sim-region-1b', 'topology.kubernetes.io/zone': 'sim-region-1b',
    'failure-domain.beta.kubernetes.io/region': 'sim-region-1', 'topology.kubernetes.io/region': 'sim-region-1',
  };
  const NO_EXECUTE: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoExecute' };
  it.each([
    { name: 'only the uninitialized taint: taints gone', taints: [UNINITIALIZED_TAINT], providerID: undefined, wantTaints: undefined, wantProvider: META.providerID },
    { name: 'other taints stay', taints: [NO_EXECUTE, UNINITIALIZED_TAINT], providerID: undefined, wantTaints: [NO_EXECUTE], wantProvider: META.providerID },
    { name: 'the taint matches on key and effect, not value', taints: [{ ...UNINITIALIZED_TAINT, value: 'yes' }], providerID: undefined, wantTaints: undefined, wantProvider: META.providerID },
    { name: 'a providerID the kubelet set is immutable: kept', taints: [UNINITIALIZED_TAINT], providerID: 'sim://other/w1', wantTaints: undefined, wantProvider: 'sim://other/w1' },
  ])('$name', ({ taints, providerID, wantTaints, wantProvider }) => {
    const before = node({ taints, ...(providerID ? { providerID } : {}) });
    const after = initializedNode(before, META);
    expect(after.spec?.taints).toEqual(wantTaints);
    expect(after.spec?.providerID).toBe(wantProvider);
    expect(after.spec?.podCIDR).toBe('10.244.8.0/24');
    expect(after.metadata.labels).toEqual({ 'kubernetes.io/hostname': 'w1', ...CLOUD_LABELS });
    expect(before.spec?.taints).toEqual(taints); // pure: the input is untouched
  });
});

describe('nodeAddressesUpdate', () => {
  it.each([
    { name: 'a node still tainted is left to the initializer', n: node({ taints: [UNINITIALIZED_TAINT] }), meta: META, want: undefined },
    { name: 'the cloud adds its ExternalIP', n: node(), meta: META, want: META.nodeAddresses },
    { name: 'the same addresses in another order: no write', n: node({ addresses: { addresses: [...META.nodeAddresses].reverse() } }), meta: META, want: undefined },
    {
      name: 'the kubelet\'s Hostname is kept when the cloud reports none',
      n: node(), meta: { ...META, nodeAddresses: [{ type: 'InternalIP' as const, address: '192.168.49.10' }, { type: 'ExternalIP' as const, address: '198.51.100.1' }] },
      want: [{ type: 'InternalIP', address: '192.168.49.10' }, { type: 'ExternalIP', address: '198.51.100.1' }, { type: 'Hostname', address: 'w1' }],
    },
    { name: 'a cloud with no addresses changes nothing', n: node(), meta: { ...META, nodeAddresses: [] }, want: undefined },
  ])('$name', ({ n, meta, want }) => {
    expect(nodeAddressesUpdate(n, meta)).toEqual(want);
  });
});

function setup(seed: number) {
  const kernel = createKernel({ seed });
  const api = fakeCluster(kernel);
  const cloud = new SimulatedCloud({ clock: kernel, rng: kernel.rng.fork('cloud') });
  cloud.addInstance({ name: 'w1', cpu: '4', memory: '16Gi', internalIP: '192.168.49.10', zone: 'sim-region-1b' });
  const recorder = fakeRecorder();
  const logs: string[] = [];
  const nodes = api.informer<Node>('nodes');
  const controller = new CloudNodeController({ clock: kernel, client: api.client, nodes, cloud: cloud.api().instances, recorder, log: (l) => logs.push(l), isLive: () => true });
  return { kernel, api, cloud, recorder, logs, nodes, controller };
}

describe('CloudNodeController', () => {
  it('initializes a registered node: one update (providerID, labels, no taint), then the addresses, then Synced', () => {
    const { kernel, api, recorder, logs, nodes, controller } = setup(1);
    api.put('nodes', node({ taints: [UNINITIALIZED_TAINT] }));
    controller.start();
    nodes.start();
    kernel.runFor(2000);
    const stored = api.get<Node>('nodes', '', 'w1')!;
    expect(stored.spec?.taints).toBeUndefined();
    expect(stored.spec?.providerID).toBe('sim://sim-region-1b/w1');
    expect(stored.metadata.labels?.['topology.kubernetes.io/zone']).toBe('sim-region-1b');
    expect(stored.metadata.labels?.['node.kubernetes.io/instance-type']).toBe('sim-standard-4');
    expect(stored.status?.addresses?.map((a) => `${a.type}=${a.address}`)).toEqual(['InternalIP=192.168.49.10', 'ExternalIP=198.51.100.1', 'Hostname=w1']);
    expect(api.requests.map((r) => `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''}`)).toEqual(['update nodes', 'patch nodes/status']);
    expect(recorder.lines).toEqual(['Normal Synced Node/w1: Node synced successfully']);
    expect(logs).toEqual(['Initializing node w1 with cloud provider', 'Successfully initialized node w1 with cloud provider']);
    // initialized nodes are not touched again
    kernel.runFor(60_000);
    expect(api.requests).toHaveLength(2);
  });

  it('a node the cloud does not know stays tainted and is retried with back-off', () => {
    const { kernel, api, recorder, logs, nodes, controller } = setup(2);
    api.put('nodes', { ...node({ taints: [UNINITIALIZED_TAINT] }), metadata: { name: 'stranger' } });
    controller.start();
    nodes.start();
    kernel.runFor(3000);
    expect(api.get<Node>('nodes', '', 'stranger')?.spec?.taints).toEqual([UNINITIALIZED_TAINT]);
    expect(api.requests).toEqual([]);
    expect(recorder.lines).toEqual([]);
    const errors = logs.filter((l) => l.startsWith('error syncing'));
    expect(errors.length).toBeGreaterThan(2);
    expect(errors[0]).toBe("error syncing 'stranger': failed to get instance metadata for node stranger: instance not found, requeuing");
  });

  it('a node registered without the taint is left alone', () => {
    const { kernel, api, nodes, controller } = setup(3);
    api.put('nodes', node());
    controller.start();
    nodes.start();
    kernel.runFor(10_000);
    expect(api.requests).toEqual([]);
  });
});
