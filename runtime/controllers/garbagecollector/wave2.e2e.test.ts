// The EndpointSlice controller, garbage collector and namespace controller inside
// kube-controller-manager on a simulated cluster, acting with their own service accounts.
import { expect, it } from 'vitest';
import type { EndpointSlice, Pod } from '../../api/index.ts';
import { createCluster } from '../../cluster/index.ts';
import { startControllerManager } from '../index.ts';

const KCM = { clientCert: { commonName: 'system:kube-controller-manager' } };
const APP = (ns: string) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: ${ns} }
spec:
  replicas: 3
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - { name: web, image: nginx:1.25, ports: [{ name: http, containerPort: 8080 }] }
---
apiVersion: v1
kind: Service
metadata: { name: web, namespace: ${ns} }
spec:
  selector: { app: web }
  ports: [{ name: http, port: 80, targetPort: http }]
`;

it('slices follow pods; background and orphan deletion; a namespace empties and goes away', { timeout: 300_000 }, async () => {
  const cluster = createCluster({ seed: 21, components: { controllerManager: false } });
  const { kernel, restClient } = cluster.internals;
  const logs: string[] = [];
  startControllerManager(kernel, {
    // the cluster's own controller manager is off: this one runs every controller (the ones under
    // test plus ReplicaSet and Deployment for the pods), and logs what it does
    name: 'kcm-under-test', restClient: restClient('kcm-under-test', { credentials: KCM }), onLog: (l) => logs.push(l),
    leaderElect: false,
  });
  const json = async <T>(args: string): Promise<T> => JSON.parse((await cluster.kubectl(args)).stdout) as T;

  expect((await cluster.kubectl('apply -f -', { stdin: APP('default') })).exitCode).toBe(0);
  // the web Service's slices (default also holds the kubernetes Service's, which the API server keeps),
  // once the three pods are Ready (how long the boot's node-not-ready taint holds them varies by seed)
  let slices: EndpointSlice[] = [];
  for (let waitedMs = 0; waitedMs < 30_000; waitedMs += 2_000) {
    await cluster.advance(2_000);
    slices = (await json<{ items: EndpointSlice[] }>('get endpointslices -l kubernetes.io/service-name=web -o json')).items;
    if (slices[0]?.endpoints.filter((e) => e.conditions?.ready).length === 3) break;
  }
  expect(slices).toHaveLength(1);
  const slice = slices[0]!;
  expect(slice.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
  expect(slice.metadata.labels?.['kubernetes.io/service-name']).toBe('web');
  expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
  expect(slice.endpoints.map((e) => e.conditions?.ready)).toEqual([true, true, true]);

  // orphan: the ReplicaSet goes, its pods stay without owner
  const rsName = (await cluster.kubectl('get rs -o jsonpath={.items[0].metadata.name}')).stdout;
  // (through the API: this kubectl has no --cascade flag)
  let orphanCode = 0;
  restClient('test-admin').request({ verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web', query: { propagationPolicy: 'Orphan' } }, (res) => { orphanCode = res.code; });
  await cluster.advance(1_000);
  expect(orphanCode).toBe(200);
  await cluster.advance(10_000);
  expect((await cluster.kubectl('get deploy')).stdout).not.toContain('web');
  const rs = await json<{ metadata: { ownerReferences?: unknown[] } }>(`get rs ${rsName} -o json`);
  expect(rs.metadata.ownerReferences ?? []).toEqual([]);
  // background: deleting the orphaned ReplicaSet takes its pods with it
  expect((await cluster.kubectl(`delete rs ${rsName}`)).exitCode).toBe(0);
  await cluster.advance(15_000);
  expect((await json<{ items: Pod[] }>('get pods -o json')).items).toEqual([]);
  slices = (await json<{ items: EndpointSlice[] }>('get endpointslices -l kubernetes.io/service-name=web -o json')).items;
  expect(slices.map((s) => s.endpoints ?? [])).toEqual([[]]);
  // the Service's slices are its dependents
  expect((await cluster.kubectl('delete service web')).exitCode).toBe(0);
  await cluster.advance(10_000);
  expect((await json<{ items: EndpointSlice[] }>('get endpointslices -l kubernetes.io/service-name=web -o json')).items).toEqual([]);

  // a namespace with content: Terminating, emptied, finalized, gone
  expect((await cluster.kubectl('create namespace team')).exitCode).toBe(0);
  expect((await cluster.kubectl('apply -f -', { stdin: APP('team') })).exitCode).toBe(0);
  await cluster.advance(10_000);
  expect((await cluster.kubectl('get deploy,svc,cm -n team -o name')).stdout).toContain('deployment.apps/web');
  expect((await cluster.kubectl('delete namespace team --wait=false')).exitCode).toBe(0);
  await cluster.advance(60_000);
  const gone = await cluster.kubectl('get namespace team');
  expect(gone.stderr).toContain('namespaces "team" not found');
  expect(logs.some((l) => l.includes('namespace team finalized'))).toBe(true);
  expect(logs.some((l) => l.includes('Started controller "generic-garbage-collector"'))).toBe(true);
});
