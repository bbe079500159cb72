// What each topology builds: machines, where etcd members and API server replicas run, and which
// endpoint clients dial.
import { describe, expect, it } from 'vitest';
import { expandPartition } from './faults.ts';
import type { Component } from './control-plane.ts';
import { planCluster, type ClusterOptions } from './options.ts';

describe('planCluster', () => {
  it.each<[string, ClusterOptions, { machines: string[]; etcd: string[]; apiservers: string[]; endpoint: string }]>([
    ['single-node (minikube)', {}, { machines: ['cp-1'], etcd: ['etcd-cp-1'], apiservers: ['kube-apiserver-cp-1'], endpoint: 'kube-apiserver-cp-1' }],
    ['ha, stacked etcd', { topology: 'ha', workers: 2 }, {
      machines: ['cp-1', 'cp-2', 'cp-3', 'worker-1', 'worker-2'], etcd: ['etcd-cp-1', 'etcd-cp-2', 'etcd-cp-3'],
      apiservers: ['kube-apiserver-cp-1', 'kube-apiserver-cp-2', 'kube-apiserver-cp-3'], endpoint: 'kube-apiserver-lb',
    }],
    ['ha with 5 etcd members: 5 control-plane machines', { topology: 'ha', etcdMembers: 5, workers: 0 }, {
      machines: ['cp-1', 'cp-2', 'cp-3', 'cp-4', 'cp-5'], etcd: ['etcd-cp-1', 'etcd-cp-2', 'etcd-cp-3', 'etcd-cp-4', 'etcd-cp-5'],
      apiservers: ['kube-apiserver-cp-1', 'kube-apiserver-cp-2', 'kube-apiserver-cp-3', 'kube-apiserver-cp-4', 'kube-apiserver-cp-5'], endpoint: 'kube-apiserver-lb',
    }],
    ['managed with one hidden member', { topology: 'managed', etcdMembers: 1, workers: 1 }, {
      machines: ['managed-cp-1', 'worker-1'], etcd: ['etcd-managed-cp-1'], apiservers: ['kube-apiserver-managed-cp-1'], endpoint: 'kube-apiserver-managed-cp-1',
    }],
  ])('%s', (_name, options, want) => {
    const plan = planCluster(options);
    expect(plan.machines.map((m) => m.name)).toEqual(want.machines);
    expect(plan.etcdMembers).toEqual(want.etcd);
    expect(plan.apiServers).toEqual(want.apiservers);
    expect(plan.serverEndpoint).toBe(want.endpoint);
  });

  it('hides a managed control plane and taints only a dedicated one', () => {
    const managed = planCluster({ topology: 'managed' });
    expect(managed.machines.filter((m) => m.visible).map((m) => m.name)).toEqual(['worker-1', 'worker-2', 'worker-3']);
    expect(planCluster({}).machines[0]!.schedulable).toBe(true);
    expect(planCluster({ topology: 'ha' }).machines[0]!.schedulable).toBe(false);
  });

  it.each<[string, ClusterOptions, string, string[], string[]]>([
    ['kind-sized: 192.168.49.0/24 and 10.244.0.0/16', { topology: 'ha', workers: 2 }, '10.244.0.0/16',
      ['192.168.49.2', '192.168.49.3', '192.168.49.4', '192.168.49.10', '192.168.49.11'],
      ['10.244.0.0/24', '10.244.1.0/24', '10.244.2.0/24', '10.244.8.0/24', '10.244.9.0/24']],
    ['the largest that fits 10.244.0.0/16 (248 workers)', { topology: 'ha', workers: 248 }, '10.244.0.0/16',
      ['192.168.49.2', '192.168.50.1'], ['10.244.0.0/24', '10.244.255.0/24']],
    ['one more: a /9 pod subnet', { topology: 'ha', workers: 249 }, '10.128.0.0/9',
      ['192.168.49.2', '192.168.50.2'], ['10.128.0.0/24', '10.129.0.0/24']],
    ['5,000 workers', { topology: 'ha', workers: 5000 }, '10.128.0.0/9',
      ['192.168.49.2', '192.168.68.145'], ['10.128.0.0/24', '10.147.143.0/24']],
  ])('addresses machines and pod CIDRs: %s', (_name, options, subnet, ipsShown, cidrsShown) => {
    const plan = planCluster(options);
    const ips = plan.machines.map((m) => m.internalIP);
    const cidrs = plan.machines.map((m) => m.podCIDR);
    expect(plan.podSubnet).toBe(subnet);
    // first machines, or the first and the last machine when the list is long
    if (ipsShown.length === ips.length) {
      expect(ips).toEqual(ipsShown);
      expect(cidrs).toEqual(cidrsShown);
    } else {
      expect([ips[0], ips.at(-1)]).toEqual(ipsShown);
      expect([cidrs[0], cidrs.at(-1)]).toEqual(cidrsShown);
    }
    expect(new Set(ips).size).toBe(ips.length);
    expect(new Set(cidrs).size).toBe(cidrs.length);
    for (const ip of ips) expect(ip.split('.').map(Number).every((o) => o >= 0 && o <= 255)).toBe(true);
    for (const c of cidrs) expect(c.split('/')[0]!.split('.').map(Number).every((o) => o >= 0 && o <= 255)).toBe(true);
  });

  it.each<[ClusterOptions, boolean]>([
    [{ topology: 'ha', workers: 97 }, true],
    [{ topology: 'ha', workers: 98 }, false],
    [{ topology: 'managed', workers: 100 }, true],
    [{ topology: 'ha', workers: 1000, schedulerAnnotations: true }, true],
    [{ schedulerAnnotations: false }, false],
  ])('writes the scheduler simulator annotations in clusters of up to 100 nodes: %j', (options, want) => {
    expect(planCluster(options).schedulerAnnotations).toBe(want);
  });

  it.each<[ClusterOptions, boolean]>([
    [{}, true],
    [{ topology: 'ha' }, true],
    [{ topology: 'managed' }, true],
    [{ cniFromKindnet: false }, false],
    // kindnet's pods need a controller manager (DaemonSet controller) and a scheduler
    [{ components: { controllerManager: false } }, false],
    [{ components: { scheduler: false }, cniFromKindnet: true }, false],
  ])('kind\'s CNI bootstrap (kindnet writes the config, routes the podCIDRs) wherever kindnet can run: %j', (options, want) => {
    expect(planCluster(options).cniFromKindnet).toBe(want);
  });

  it.each<[ClusterOptions, boolean]>([
    [{ topology: 'ha', workers: 97 }, true],
    [{ topology: 'ha', workers: 98 }, false],
    [{ topology: 'managed', workers: 100 }, true],
    [{ topology: 'ha', workers: 300, kindnetRoutes: true }, true],
    [{ kindnetRoutes: false }, false],
    // no kindnet bootstrap, no kindnet routes: the machines' gateway routes the podCIDRs
    [{ cniFromKindnet: false, kindnetRoutes: true }, false],
  ])('kindnet routes the podCIDRs in clusters of up to 100 nodes: %j', (options, want) => {
    expect(planCluster(options).kindnetRoutes).toBe(want);
  });

  it.each<[ClusterOptions, RegExp]>([
    [{ topology: 'cloud' as never }, /unknown topology "cloud"/],
    [{ etcdMembers: 2 as never, topology: 'ha' }, /etcdMembers must be 1, 3 or 5/],
    [{ workers: -1 }, /workers must be an integer from 0 to 5000/],
    [{ workers: [{ name: 'nodeA' }] }, /worker name "nodeA" is not a valid Node name: a lowercase RFC 1123 subdomain/],
    [{ workers: [{ name: 'a', cpu: 'lots' }] }, /worker "a" cpu "lots" is not a positive Kubernetes quantity/],
    [{ workers: [{ memory: '0' }] }, /worker "worker-1" memory "0" is not a positive Kubernetes quantity/],
    [{ workers: [{ pods: 0 }] }, /worker "worker-1" pods must be a positive integer/],
    [{ workers: [{ taints: [{ key: 'k', effect: 'Never' as never }] }] }, /taint "k" with effect "Never"/],
    [{ node: { cpu: '-1' } }, /node cpu "-1" is not a positive Kubernetes quantity/],
    [{ seed: 1.5 }, /seed must be an integer/],
  ])('refuses %j', (options, message) => {
    expect(() => planCluster(options)).toThrow(message);
  });
});

describe('expandPartition', () => {
  const plan = planCluster({ topology: 'ha', workers: 1 });
  const components = new Map<string, Component>(
    ['cp-1', 'cp-2', 'cp-3'].flatMap((m) => [
      [`etcd-${m}`, { name: `etcd-${m}`, machine: m, kind: 'etcd', isUp: () => true, stop() {}, start() {}, endpoints: () => [`etcd-${m}`] }],
      [`kube-apiserver-${m}`, { name: `kube-apiserver-${m}`, machine: m, kind: 'kube-apiserver', isUp: () => true, stop() {}, start() {}, endpoints: () => [`kube-apiserver-${m}`, `kube-apiserver-${m}/etcd-client-1`] }],
    ] as [string, Component][]),
  );

  it('turns machines into every endpoint they host, and components into their own', () => {
    expect(expandPartition([['cp-1'], ['etcd-cp-2', 'worker-1']], plan, components)).toEqual([
      ['etcd-cp-1', 'kube-apiserver-cp-1', 'kube-apiserver-cp-1/etcd-client-1', 'cp-1'],
      ['etcd-cp-2', 'worker-1'],
      // the rest of the cluster is one implicit group: a named group is cut off from all of it
      ['cp-2', 'cp-3', 'kube-apiserver-cp-2', 'kube-apiserver-cp-2/etcd-client-1', 'etcd-cp-3', 'kube-apiserver-cp-3', 'kube-apiserver-cp-3/etcd-client-1'],
    ]);
  });

  it('names what it does not know', () => {
    expect(() => expandPartition([['cp-9']], plan, components)).toThrow(/"cp-9" is neither a node nor a component/);
  });
});
