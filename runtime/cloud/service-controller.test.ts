import { describe, expect, it } from 'vitest';
import type { Node, Service } from '../api/index.ts';
import { createKernel } from '../kernel/index.ts';
import { fakeCluster, fakeRecorder } from './fake-api.test-helper.ts';
import { SimulatedCloud } from './provider.ts';
import { ServiceController, needsCleanup, needsUpdate, nodeServesLoadBalancers, shouldSyncNode, wantsLoadBalancer } from './service-controller.ts';
import { LOAD_BALANCER_CLEANUP_FINALIZER } from './well-known.ts';

function svc(o: { type?: 'ClusterIP' | 'LoadBalancer'; finalizer?: boolean; deleting?: boolean; port?: number; uid?: string } = {}): Service {
  return {
    apiVersion: 'v1', kind: 'Service',
    metadata: {
      name: 'web', namespace: 'default', uid: o.uid ?? 'aaaa-bbbb',
      ...(o.finalizer ? { finalizers: [LOAD_BALANCER_CLEANUP_FINALIZER] } : {}),
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:05:00Z' } : {}),
    },
    spec: { type: o.type ?? 'LoadBalancer', ports: [{ protocol: 'TCP', port: o.port ?? 80, targetPort: 8080 }], selector: { app: 'web' } },
  };
}

function node(name: string, o: { ready?: 'True' | 'False'; labels?: Record<string, string>; toBeDeleted?: boolean } = {}): Node {
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, ...(o.labels ? { labels: o.labels } : {}) },
    spec: o.toBeDeleted ? { taints: [{ key: 'ToBeDeletedByClusterAutoscaler', effect: 'NoSchedule' }] } : {},
    status: o.ready ? { conditions: [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: o.ready }] } : {},
  };
}

describe('which Services the controller acts on', () => {
  it.each([
    { name: 'a LoadBalancer', s: svc(), wants: true, cleanup: false },
    { name: 'a ClusterIP', s: svc({ type: 'ClusterIP' }), wants: false, cleanup: false },
    { name: 'a LoadBalancer being deleted', s: svc({ finalizer: true, deleting: true }), wants: true, cleanup: true },
    { name: 'a LoadBalancer being deleted without our finalizer', s: svc({ deleting: true }), wants: true, cleanup: false },
    { name: 'turned into a ClusterIP while holding the finalizer', s: svc({ type: 'ClusterIP', finalizer: true }), wants: false, cleanup: true },
  ])('$name', ({ s, wants, cleanup }) => {
    expect(wantsLoadBalancer(s)).toBe(wants);
    expect(needsCleanup(s)).toBe(cleanup);
  });

  it.each([
    { name: 'two ClusterIPs', old: svc({ type: 'ClusterIP' }), next: svc({ type: 'ClusterIP', port: 81 }), want: false },
    { name: 'ClusterIP -> LoadBalancer', old: svc({ type: 'ClusterIP' }), next: svc(), want: true },
    { name: 'a port changed', old: svc(), next: svc({ port: 443 }), want: true },
    { name: 'a new UID (recreated)', old: svc(), next: svc({ uid: 'cccc' }), want: true },
    { name: 'only the finalizer changed', old: svc(), next: svc({ finalizer: true }), want: false },
  ])('needsUpdate: $name -> $want', ({ old, next, want }) => {
    expect(needsUpdate(old, next)).toBe(want);
  });

  it.each([
    { name: 'Ready', n: node('a', { ready: 'True' }), want: true },
    { name: 'NotReady', n: node('a', { ready: 'False' }), want: false },
    { name: 'no conditions yet', n: node('a'), want: false },
    { name: 'excluded by label', n: node('a', { ready: 'True', labels: { 'node.kubernetes.io/exclude-from-external-load-balancers': '' } }), want: false },
    { name: 'about to be removed by the autoscaler', n: node('a', { ready: 'True', toBeDeleted: true }), want: false },
  ])('nodeServesLoadBalancers: $name -> $want', ({ n, want }) => {
    expect(nodeServesLoadBalancers(n)).toBe(want);
  });

  it.each([
    { name: 'Ready flips', old: node('a', { ready: 'True' }), next: node('a', { ready: 'False' }), want: true },
    { name: 'labels change', old: node('a', { ready: 'True' }), next: node('a', { ready: 'True', labels: { x: 'y' } }), want: true },
    { name: 'a heartbeat only', old: node('a', { ready: 'True' }), next: node('a', { ready: 'True' }), want: false },
  ])('shouldSyncNode: $name -> $want', ({ old, next, want }) => {
    expect(shouldSyncNode(old, next)).toBe(want);
  });
});

describe('ServiceController', () => {
  function setup() {
    const kernel = createKernel({ seed: 21 });
    const api = fakeCluster(kernel);
    const records: string[] = [];
    const cloud = new SimulatedCloud({ clock: kernel, rng: kernel.rng.fork('cloud'), record: (k, d) => records.push(`${k} ${d}`) });
    const recorder = fakeRecorder();
    const services = api.informer<Service>('services');
    const nodes = api.informer<Node>('nodes');
    const controller = new ServiceController({
      clock: kernel, client: api.client, services, nodes, cloud: cloud.api().loadBalancer, clusterName: 'kubernetes',
      recorder, log: () => undefined, isLive: () => true,
    });
    const start = (): void => {
      controller.start();
      services.start();
      nodes.start();
    };
    return { kernel, api, cloud, records, recorder, start };
  }

  it('a LoadBalancer Service: finalizer first, then the cloud load balancer over Ready nodes, then its IP in status', () => {
    const { kernel, api, cloud, recorder, start } = setup();
    api.put('nodes', node('w1', { ready: 'True' }));
    api.put('nodes', node('w2', { ready: 'False' }));
    api.put('services', svc());
    api.put('services', { ...svc({ type: 'ClusterIP' }), metadata: { name: 'internal', namespace: 'default', uid: 'x' } });
    start();
    kernel.runFor(1000);
    expect(api.get<Service>('services', 'default', 'web')?.metadata.finalizers).toEqual([LOAD_BALANCER_CLEANUP_FINALIZER]);
    expect(api.get<Service>('services', 'default', 'web')?.status?.loadBalancer?.ingress).toBeUndefined(); // still provisioning
    kernel.runFor(6000);
    expect(api.get<Service>('services', 'default', 'web')?.status).toEqual({ loadBalancer: { ingress: [{ ip: '203.0.113.1' }] } });
    expect(cloud.loadBalancers()).toEqual([{ name: 'aaaaabbbb', service: 'default/web', ip: '203.0.113.1', nodes: ['w1'], state: 'active' }]);
    expect(recorder.lines).toEqual(['Normal EnsuringLoadBalancer Service/web: Ensuring load balancer', 'Normal EnsuredLoadBalancer Service/web: Ensured load balancer']);
    expect(api.get<Service>('services', 'default', 'internal')?.metadata.finalizers).toBeUndefined();
    expect(api.requests.map((r) => `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''} ${r.name}`)).toEqual([
      'update services web', 'patch services/status web',
    ]);
  });

  it('when a node becomes Ready the load balancer is pointed at the new set', () => {
    const { kernel, api, cloud, recorder, start } = setup();
    api.put('nodes', node('w1', { ready: 'True' }));
    api.put('nodes', node('w2', { ready: 'False' }));
    api.put('services', svc());
    start();
    kernel.runFor(7000);
    api.put('nodes', { ...node('w2', { ready: 'True' }), metadata: { name: 'w2', resourceVersion: api.get<Node>('nodes', '', 'w2')?.metadata.resourceVersion ?? '' } });
    kernel.runFor(2000);
    expect(cloud.loadBalancers()[0]?.nodes).toEqual(['w1', 'w2']);
    expect(recorder.lines.at(-1)).toBe('Normal UpdatedLoadBalancer Service/web: Updated load balancer with new hosts');
  });

  it('deleting the Service deletes the load balancer, then releases the finalizer so the Service goes', () => {
    const { kernel, api, cloud, records, recorder, start } = setup();
    api.put('nodes', node('w1', { ready: 'True' }));
    api.put('services', svc());
    start();
    kernel.runFor(7000);
    let deleted = false;
    api.client.request({ verb: 'delete', group: '', resource: 'services', namespace: 'default', name: 'web' }, () => (deleted = true));
    kernel.runFor(2000);
    expect(deleted).toBe(true);
    expect(api.get('services', 'default', 'web')).toBeUndefined();
    expect(cloud.loadBalancers()).toEqual([]);
    expect(records.filter((r) => r.startsWith('cloud.lb-deleted'))).toEqual(['cloud.lb-deleted aaaaabbbb default/web 203.0.113.1']);
    expect(recorder.lines.slice(2)).toEqual(['Normal DeletingLoadBalancer Service/web: Deleting load balancer', 'Normal DeletedLoadBalancer Service/web: Deleted load balancer']);
  });

  it('a cloud that fails (no address left) records SyncLoadBalancerFailed and retries', () => {
    const { kernel, api, cloud, recorder, start } = setup();
    // exhaust the public range: 254 load balancers made directly through the cloud API
    for (let i = 0; i < 254; i++) cloud.api().loadBalancer.ensureLoadBalancer('k', { namespace: 'x', name: `s${i}`, uid: `u${i}`, ports: [] }, [], () => undefined);
    api.put('nodes', node('w1', { ready: 'True' }));
    api.put('services', svc());
    start();
    kernel.runFor(7000);
    const failures = recorder.lines.filter((l) => l.includes('SyncLoadBalancerFailed'));
    expect(failures.length).toBeGreaterThan(1);
    expect(failures[0]).toBe('Warning SyncLoadBalancerFailed Service/web: Error syncing load balancer: failed to ensure load balancer: quota exceeded: no free address left in 203.0.113.0/24');
    expect(api.get<Service>('services', 'default', 'web')?.status).toBeUndefined();
  });
});
