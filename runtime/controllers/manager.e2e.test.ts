// kube-controller-manager on a real simulated cluster: kubectl applies a Deployment, the
// controllers create its ReplicaSet and Pods through the API server with their own service
// account credentials, scale, roll out a new image, roll back, and hand over on leader failover.
import { expect, it } from 'vitest';
import type { CoreEvent, Lease, Pod } from '../api/index.ts';
import { createCluster } from '../cluster/index.ts';
import { startControllerManager } from './index.ts';

const KCM = { clientCert: { commonName: 'system:kube-controller-manager' } };
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
      - name: web
        image: nginx:1.25
`;

function setup(seed: number) {
  const cluster = createCluster({ seed, components: { controllerManager: false } });
  const { kernel, restClient } = cluster.internals;
  const admin = restClient('test-admin');
  const logs: string[] = [];
  const start = (name: string) => startControllerManager(kernel, { name, restClient: restClient(name, { credentials: KCM }), onLog: (l) => logs.push(l) });
  /** Marks every pod Running and Ready through the status subresource, as a kubelet would. */
  const runPods = async (): Promise<void> => {
    let pods: Pod[] = [];
    admin.request({ verb: 'list', group: '', resource: 'pods', namespace: 'default' }, (res) => { pods = (res.body as { items: Pod[] }).items; });
    await cluster.advance(500);
    for (const pod of pods.filter((p) => p.status?.phase !== 'Running' && !p.metadata.deletionTimestamp)) {
      const status = { ...pod.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
      admin.request({ verb: 'update', group: '', resource: 'pods', subresource: 'status', namespace: 'default', name: pod.metadata.name ?? '', body: { ...pod, status } }, () => undefined);
    }
    await cluster.advance(2000);
  };
  const get = async (what: string): Promise<string> => (await cluster.kubectl(what)).stdout;
  return { cluster, kernel, admin, logs, start, runPods, get };
}

it('a Deployment gets its ReplicaSet and pods, scales, rolls out, rolls back, with events in order', { timeout: 240_000 }, async () => {
  const { cluster, logs, start, runPods, get } = setup(11);
  start('kube-controller-manager-cp-1');
  expect((await cluster.kubectl('apply -f -', { stdin: DEPLOYMENT })).exitCode).toBe(0);
  await cluster.advance(10_000);
  const rsNames = (await get('get rs -o name')).trim().split('\n');
  expect(rsNames).toHaveLength(1);
  expect(rsNames[0]).toMatch(/^replicaset\.apps\/web-[bcdfghjklmnpqrstvwxz2456789]+$/);
  const pods = (await get('get pods -o name')).trim().split('\n');
  expect(pods).toHaveLength(3);
  await runPods();
  await cluster.advance(5_000);
  expect(await get('get deploy web -o jsonpath={.status.availableReplicas}')).toBe('3');

  expect((await cluster.kubectl('scale deployment web --replicas=5')).exitCode).toBe(0);
  await cluster.advance(5_000);
  await runPods();
  expect((await get('get pods -o name')).trim().split('\n')).toHaveLength(5);
  expect((await cluster.kubectl('scale deployment web --replicas=2')).exitCode).toBe(0);
  await cluster.advance(5_000);
  expect(await get('get rs -o jsonpath={.items[0].status.replicas}')).toBe('2');

  expect((await cluster.kubectl('set image deployment/web web=nginx:1.26')).exitCode).toBe(0);
  for (let i = 0; i < 6; i++) {
    await cluster.advance(3_000);
    await runPods();
  }
  const rss = JSON.parse(await get('get rs -o json')) as { items: { metadata: { name: string; annotations: Record<string, string> }; spec: { replicas: number; template: { spec: { containers: { image: string }[] } } } }[] };
  const byImage = new Map(rss.items.map((r) => [r.spec.template.spec.containers[0]!.image, r]));
  expect(byImage.get('nginx:1.26')?.spec.replicas).toBe(2);
  expect(byImage.get('nginx:1.25')?.spec.replicas).toBe(0);
  expect(byImage.get('nginx:1.26')?.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
  expect((await cluster.kubectl('rollout status deployment/web')).stdout).toBe('deployment "web" successfully rolled out\n');

  expect((await cluster.kubectl('rollout undo deployment/web')).exitCode).toBe(0);
  for (let i = 0; i < 6; i++) {
    await cluster.advance(3_000);
    await runPods();
  }
  const after = JSON.parse(await get('get rs -o json')) as typeof rss;
  const old = after.items.find((r) => r.spec.template.spec.containers[0]!.image === 'nginx:1.25');
  expect(old?.spec.replicas).toBe(2);
  expect(old?.metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');

  const events = (JSON.parse(await get('get events -o json')) as { items: CoreEvent[] }).items
    .sort((a, b) => (a.lastTimestamp ?? '').localeCompare(b.lastTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  const scaling = events.filter((e) => e.reason === 'ScalingReplicaSet').map((e) => e.message ?? '');
  const first = rsNames[0]!.slice('replicaset.apps/'.length);
  expect(scaling[0]).toBe(`Scaled up replica set ${first} to 3 from 0`);
  expect(scaling).toContain(`Scaled up replica set ${first} to 5 from 3`);
  expect(scaling).toContain(`Scaled down replica set ${first} to 2 from 5`);
  const creates = events.filter((e) => e.reason === 'SuccessfulCreate');
  expect(creates[0]?.message).toMatch(new RegExp(`^Created pod: ${first}-[a-z0-9]{5}$`));
  expect(creates[0]?.source?.component).toBe('replicaset-controller');
  expect(events.some((e) => e.reason === 'SuccessfulDelete')).toBe(true);
  const system = (JSON.parse(await get('get events -n kube-system -o json')) as { items: CoreEvent[] }).items;
  expect(system.find((e) => e.reason === 'LeaderElection')?.involvedObject).toMatchObject({ kind: 'Lease', name: 'kube-controller-manager' });
  expect(system.find((e) => e.reason === 'LeaderElection')?.message).toMatch(/^cp-1_[0-9a-f-]{36} became leader$/);
  expect(logs.some((l) => l.includes('Started controller "replicaset-controller"'))).toBe(true);
});

it('leader election: a second controller manager waits, then takes over when the leader crashes', { timeout: 240_000 }, async () => {
  const { cluster, kernel, admin, start, get } = setup(12);
  const one = start('kcm-1');
  await cluster.advance(3_000);
  start('kcm-2');
  await cluster.advance(20_000);
  const lease = (): Promise<Lease> => new Promise((resolve) => {
    admin.request({ verb: 'get', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system', name: 'kube-controller-manager' }, (res) => resolve(res.body as Lease));
    kernel.runFor(1000);
  });
  expect((await lease()).spec?.holderIdentity).toMatch(/^kcm-1_/);
  kernel.crash(one.name);
  await cluster.advance(30_000);
  const l = await lease();
  expect(l.spec?.holderIdentity).toMatch(/^kcm-2_/);
  expect(l.spec?.leaseTransitions).toBe(1);
  // the new leader runs the loops: a Deployment applied now gets its pods
  expect((await cluster.kubectl('apply -f -', { stdin: DEPLOYMENT })).exitCode).toBe(0);
  await cluster.advance(10_000);
  expect((await get('get pods -o name')).trim().split('\n')).toHaveLength(3);
});

it('the manager builds its clients as controllermanager.go does: leader election, shared informers and each controller apart', { timeout: 120_000 }, async () => {
  const { cluster, kernel, start } = setup(13);
  const sent = new Map<string, Set<string>>();
  const send = kernel.send.bind(kernel);
  kernel.send = (from, to, msg) => {
    const m = msg as { type?: string; req?: { verb: string; resource?: string; name?: string } };
    if ((m.type === 'api.request' || m.type === 'api.watch') && m.req) {
      const client = from.replace(/^kcm\.\d+\./, '');
      if (client !== from) (sent.get(client) ?? sent.set(client, new Set()).get(client)!).add(`${m.req.verb} ${m.req.resource ?? ''}${m.req.resource === 'leases' ? `/${m.req.name ?? ''}` : ''}`);
    }
    send(from, to, msg);
  };
  start('kcm');
  await cluster.advance(5_000);
  // resourcelock.NewFromKubeconfig: the Lease alone, through a client of its own
  expect([...sent.get('leader-election') ?? []].sort()).toEqual(['create leases/', 'get leases/kube-controller-manager', 'update leases/kube-controller-manager']);
  // rootClientBuilder.ClientOrDie("shared-informers"): only lists and watches
  const informers = [...sent.get('shared-informers') ?? []];
  expect(informers.length).toBeGreaterThan(3);
  expect(informers.every((r) => /^(list|watch) /.test(r))).toBe(true);
  expect(informers).toEqual(expect.arrayContaining(['list pods', 'watch pods', 'list replicasets', 'list deployments']));
  // the controllers' own clients make no lists or watches of their own (the ReplicaSet controller
  // only writes: CoreDNS's pods)
  expect([...sent.get('replicaset-controller') ?? []].filter((r) => /^(list|watch) /.test(r))).toEqual([]);
  expect([...sent.get('replicaset-controller') ?? []]).toContain('create pods');
});

it('the manager opens one watch per resource, however many of its controllers read it (one SharedInformerFactory)', { timeout: 120_000 }, async () => {
  const { cluster, kernel, start } = setup(14);
  const watches = new Map<string, number>();
  const send = kernel.send.bind(kernel);
  kernel.send = (from, to, msg) => {
    const m = msg as { type?: string; req?: { verb: string; group?: string; resource?: string } };
    if (m.type === 'api.watch' && m.req && /^kcm\.\d+\.shared-informers$/.test(from)) {
      const key = `${m.req.group ?? ''}/${m.req.resource ?? ''}`;
      watches.set(key, (watches.get(key) ?? 0) + 1);
    }
    send(from, to, msg);
  };
  start('kcm');
  await cluster.advance(5_000);
  // nodes (node lifecycle, DaemonSet, pod GC, garbage collector), services (Endpoints,
  // EndpointSlice, mirroring), leases (node lifecycle, garbage collector), pods (most of them):
  // each read by several controllers, each watched once
  for (const shared of ['/nodes', '/services', 'coordination.k8s.io/leases', '/pods', 'discovery.k8s.io/endpointslices', '/endpoints', '/namespaces', 'apps/replicasets']) {
    expect(watches.get(shared), shared).toBe(1);
  }
  expect([...watches].filter(([, n]) => n !== 1)).toEqual([]);
});
