// The managed topology's cloud end to end, through createCluster and kubectl only: the
// cloud-controller-manager initializes nodes (providerID, zone labels, no uninitialized taint),
// gives a LoadBalancer Service an external IP, deletes the Node of a deleted cloud instance, and
// the whole story replays to the same trace hash from the same seed.
import { describe, expect, it } from 'vitest';
import type { CoreEvent, Node, Pod } from '../api/index.ts';
import { createCluster, type Cluster } from './cluster.ts';

const APP = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  type: LoadBalancer
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 80
`;

async function json<T>(cluster: Cluster, args: string): Promise<T> {
  const r = await cluster.kubectl(`${args} -o json`);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as T;
}

async function reasons(cluster: Cluster, reason: string): Promise<string[]> {
  const list = await json<{ items: CoreEvent[] }>(cluster, `get events -A --field-selector reason=${reason}`);
  return list.items.map((e) => `${e.involvedObject.kind}/${e.involvedObject.name}: ${e.message ?? ''}`);
}

describe('managed topology: the cloud-controller-manager', () => {
  it('nodes come up initialized: providerID, zone, region and instance-type labels, no uninitialized taint', { timeout: 120_000 }, async () => {
    const cluster = createCluster({ seed: 5, topology: 'managed', workers: 3 });
    const nodes = await json<{ items: Node[] }>(cluster, 'get nodes');
    expect(nodes.items.map((n) => [n.metadata.name, n.spec?.providerID, n.metadata.labels?.['topology.kubernetes.io/zone'], n.spec?.taints])).toEqual([
      ['worker-1', 'sim://sim-region-1a/worker-1', 'sim-region-1a', undefined],
      ['worker-2', 'sim://sim-region-1b/worker-2', 'sim-region-1b', undefined],
      ['worker-3', 'sim://sim-region-1c/worker-3', 'sim-region-1c', undefined],
    ]);
    for (const n of nodes.items) {
      expect(n.metadata.labels).toMatchObject({ 'topology.kubernetes.io/region': 'sim-region-1', 'node.kubernetes.io/instance-type': 'sim-custom-4-8192' });
      expect(n.status?.addresses?.map((a) => a.type)).toEqual(['InternalIP', 'ExternalIP', 'Hostname']);
    }
    const wide = await cluster.kubectl('get nodes -o wide');
    expect(wide.stdout).toMatch(/worker-1 +Ready +<none> .* 192\.168\.49\.10 +198\.51\.100\.1 /);
    expect(await reasons(cluster, 'Synced')).toEqual(['Node/worker-1: Node synced successfully', 'Node/worker-2: Node synced successfully', 'Node/worker-3: Node synced successfully']);
    const leases = await cluster.kubectl('get lease cloud-controller-manager -n kube-system -o jsonpath={.spec.holderIdentity}');
    expect(leases.stdout).toMatch(/^managed-cp-\d_[0-9a-f-]{36}$/);
  });

  it('a LoadBalancer Service goes <pending> -> external IP, and deleting it deletes the cloud load balancer', { timeout: 120_000 }, async () => {
    const cluster = createCluster({ seed: 6, topology: 'managed', workers: 2 });
    expect((await cluster.kubectl('apply -f -', { stdin: APP })).exitCode).toBe(0);
    const pending = await cluster.kubectl('get svc web');
    expect(pending.stdout).toMatch(/^NAME +TYPE +CLUSTER-IP +EXTERNAL-IP +PORT\(S\) +AGE\nweb +LoadBalancer +10\.\S+ +<pending> +80/);
    await cluster.advance(10_000);
    const ready = await cluster.kubectl('get svc web');
    expect(ready.stdout).toMatch(/\nweb +LoadBalancer +10\.\S+ +203\.0\.113\.1 +80/);
    expect(await reasons(cluster, 'EnsuringLoadBalancer')).toEqual(['Service/web: Ensuring load balancer']);
    expect(await reasons(cluster, 'EnsuredLoadBalancer')).toEqual(['Service/web: Ensured load balancer']);
    const svc = await json<{ metadata: { finalizers?: string[] } }>(cluster, 'get svc web');
    expect(svc.metadata.finalizers).toEqual(['service.kubernetes.io/load-balancer-cleanup']);
    expect(cluster.internals.cloud?.loadBalancers().map((l) => `${l.service} ${l.ip} ${l.state} ${l.nodes.join(',')}`)).toEqual(['default/web 203.0.113.1 active worker-1,worker-2']);

    expect((await cluster.kubectl('delete svc web')).stdout).toBe('service "web" deleted\n');
    await cluster.advance(2_000);
    expect(cluster.internals.cloud?.loadBalancers()).toEqual([]);
    expect((await cluster.kubectl('get svc web')).stderr).toBe('Error from server (NotFound): services "web" not found\n');
    expect(await reasons(cluster, 'DeletedLoadBalancer')).toEqual(['Service/web: Deleted load balancer']);
  });

  it('deleting a cloud instance removes its Node, and the Deployment runs its pods on the other nodes', { timeout: 180_000 }, async () => {
    const cluster = createCluster({ seed: 7, topology: 'managed', workers: 2 });
    expect((await cluster.kubectl('apply -f -', { stdin: APP })).exitCode).toBe(0);
    await cluster.advance(30_000);
    const before = await json<{ items: Pod[] }>(cluster, 'get pods -l app=web');
    const onVictim = before.items.filter((p) => p.spec?.nodeName === 'worker-1').map((p) => p.metadata.name);
    expect(onVictim.length).toBeGreaterThan(0);

    await cluster.faults.deleteCloudInstance('worker-1');
    await expect(cluster.faults.startNode('worker-1')).rejects.toThrow('instance "worker-1" was deleted from the cloud and cannot be started again');
    // the kubelet's last Lease renewal ages past the 40 s grace, the node goes NotReady, then the CCM asks the cloud
    await cluster.advance(70_000);
    expect((await cluster.kubectl('get node worker-1')).stderr).toBe('Error from server (NotFound): nodes "worker-1" not found\n');
    expect(await reasons(cluster, 'DeletingNode')).toEqual(['Node/worker-1: Deleting node worker-1 because it does not exist in the cloud provider']);

    // pod garbage collection: the orphans' node stays missing for the 40 s quarantine, then they are force-deleted
    await cluster.advance(90_000);
    const after = await json<{ items: Pod[] }>(cluster, 'get pods -l app=web');
    expect(after.items.filter((p) => onVictim.includes(p.metadata.name ?? ''))).toEqual([]);
    expect(after.items.map((p) => `${p.spec?.nodeName} ${p.status?.phase}`)).toEqual(Array(4).fill('worker-2 Running'));
  });

  it('a stopped (not deleted) machine gets the shutdown taint, lifted when it is back; a CCM leader crash hands over', { timeout: 180_000 }, async () => {
    const cluster = createCluster({ seed: 10, topology: 'managed', workers: 2 });
    const taintsOf = async (name: string): Promise<string[]> =>
      ((await json<Node>(cluster, `get node ${name}`)).spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();
    await cluster.faults.stopNode('worker-2');
    await cluster.advance(70_000);
    expect(await taintsOf('worker-2')).toEqual([
      'node.cloudprovider.kubernetes.io/shutdown:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule',
    ]);
    await cluster.faults.startNode('worker-2');
    await cluster.advance(30_000);
    expect(await taintsOf('worker-2')).toEqual([]);

    const holder = (await cluster.kubectl('get lease cloud-controller-manager -n kube-system -o jsonpath={.spec.holderIdentity}')).stdout.split('_')[0]!;
    await cluster.faults.stopComponent(`cloud-controller-manager-${holder}`);
    expect((await cluster.kubectl('apply -f -', { stdin: APP })).exitCode).toBe(0);
    await cluster.advance(40_000); // the Lease (15 s) runs out, another replica takes over and ensures the load balancer
    const next = (await cluster.kubectl('get lease cloud-controller-manager -n kube-system -o jsonpath={.spec.holderIdentity}')).stdout;
    expect(next).toMatch(/^managed-cp-\d_/);
    expect(next.startsWith(`${holder}_`)).toBe(false);
    expect((await cluster.kubectl('get svc web')).stdout).toMatch(/\nweb +LoadBalancer +10\.\S+ +203\.0\.113\.1 +80/);
  });

  it('faults.deleteCloudInstance is an error in a topology without a cloud', { timeout: 60_000 }, async () => {
    const cluster = createCluster({ seed: 8 });
    await expect(cluster.faults.deleteCloudInstance('cp-1')).rejects.toThrow('a single-node cluster has no cloud provider (its machines are not cloud instances): use topology "managed"');
    expect(cluster.internals.cloud).toBeUndefined();
    const nodes = await json<{ items: Node[] }>(cluster, 'get nodes');
    expect(nodes.items[0]?.spec?.taints).toBeUndefined();
    expect(nodes.items[0]?.spec?.providerID).toBeUndefined();
  });

  it('is deterministic: the same seed gives the same trace hash', { timeout: 120_000 }, async () => {
    const run = async (): Promise<string> => {
      const cluster = createCluster({ seed: 9, topology: 'managed', workers: 1 });
      await cluster.kubectl('apply -f -', { stdin: APP });
      await cluster.advance(10_000);
      return `${cluster.traceHash()} ${(await cluster.kubectl('get svc web -o jsonpath={.status.loadBalancer.ingress[0].ip}')).stdout}`;
    };
    const first = await run();
    expect(first).toMatch(/ 203\.0\.113\.1$/);
    expect(await run()).toBe(first);
  });
});
