// The whole cluster end to end, through cluster.kubectl() only: the life of a Deployment, scaling,
// a rolling update and its rollback, a machine that dies, and the control plane going away and
// coming back. Every component runs as it would: kubelets, kube-proxy, the scheduler and the
// controller manager behind leader election.
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster, type WorkerSpec } from '../index.ts';
import type { Pod } from '../api/index.ts';
import { SharedInformer, restListerWatcher } from '../client/index.ts';
import { ok } from './kubectl-ok.test-helper.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON printed by kubectl, probed field by field
type Json = Record<string, any>;

const NGINX_CACHED = { names: ['nginx:1.27'], sizeBytes: 72_000_000 };
const deployment = (name: string, replicas: number, image = 'nginx:1.27'): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name} }
    spec:
      containers:
      - name: ${name}
        image: ${image}
        resources:
          requests: { cpu: 100m, memory: 64Mi }
`;

async function json(cluster: Cluster, args: string): Promise<Json> {
  const r = await cluster.kubectl(`${args} -o json`);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Json;
}

/** Pods of an app: name, phase, node, image, and whether they are being deleted. */
async function pods(cluster: Cluster, app: string): Promise<{ name: string; phase: string; node: string; image: string; deleting: boolean }[]> {
  const list = await json(cluster, `get pods -l app=${app}`);
  return (list.items as Json[]).map((p) => ({
    name: p.metadata.name, phase: p.status?.phase ?? '', node: p.spec.nodeName ?? '', image: p.spec.containers[0].image,
    deleting: p.metadata.deletionTimestamp !== undefined,
  }));
}

/** Advances one simulated second at a time until check() holds; returns the simulated ms it took. */
async function until(cluster: Cluster, check: () => Promise<boolean>, budgetMs: number): Promise<number> {
  const start = cluster.now();
  while (!(await check())) {
    if (cluster.now() - start > budgetMs) throw new Error(`condition not met within ${budgetMs / 1000} simulated seconds`);
    await cluster.advance(1000);
  }
  return cluster.now() - start;
}

/** The Deployment's ready replicas; 0 while the API server does not answer. */
async function readyReplicas(cluster: Cluster, name: string): Promise<number> {
  const r = await cluster.kubectl(`get deployment ${name} -o json`);
  return r.exitCode === 0 ? (JSON.parse(r.stdout) as Json).status?.readyReplicas ?? 0 : 0;
}

describe('the whole cluster', { timeout: 120_000 }, () => {
  it('the life of a Deployment: Running within 10 s with a cached image, events in the order the articles tell', async () => {
    const workers: WorkerSpec[] = [{ images: [NGINX_CACHED] }, { images: [NGINX_CACHED] }];
    const cluster = createCluster({ seed: 5, topology: 'ha', workers });
    await cluster.advance(20_000); // leader elections settle
    const start = cluster.now();
    await ok(cluster, 'apply -f -', deployment('web', 2));
    const took = await until(cluster, async () => (await readyReplicas(cluster, 'web')) === 2, 30_000);
    expect(cluster.now() - start).toBeLessThan(10_000);
    expect(took).toBeLessThan(10_000);
    const placed = await pods(cluster, 'web');
    expect(placed.every((p) => p.phase === 'Running' && p.node.startsWith('worker-'))).toBe(true); // never on the tainted control plane
    const events = (await json(cluster, 'get events')).items as Json[];
    events.sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
    const pod = placed[0]!.name;
    const story = events
      .filter((e) => e.involvedObject.name === 'web' || e.involvedObject.name?.startsWith('web-') && (e.involvedObject.kind !== 'Pod' || e.involvedObject.name === pod))
      .filter((e) => e.reason !== 'SuccessfulCreate' || e.message === `Created pod: ${pod}`)
      .map((e) => `${e.involvedObject.kind} ${e.reason} (${e.source?.component ?? e.reportingComponent})`);
    expect(story).toEqual([
      'Deployment ScalingReplicaSet (deployment-controller)',
      'ReplicaSet SuccessfulCreate (replicaset-controller)',
      'Pod Scheduled (default-scheduler)',
      'Pod Pulled (kubelet)',
      'Pod Created (kubelet)',
      'Pod Started (kubelet)',
    ]);
  });

  it('scales up and down, rolls out a new image and rolls back', async () => {
    const cluster = createCluster({ seed: 6, topology: 'single-node' });
    await ok(cluster, 'apply -f -', deployment('web', 2));
    await until(cluster, async () => (await readyReplicas(cluster, 'web')) === 2, 60_000);
    await ok(cluster, 'scale deployment web --replicas=4');
    await until(cluster, async () => (await readyReplicas(cluster, 'web')) === 4, 60_000);
    await ok(cluster, 'scale deployment web --replicas=1');
    await until(cluster, async () => (await pods(cluster, 'web')).length === 1, 60_000);
    await ok(cluster, 'set image deployment/web web=nginx:1.28');
    await until(cluster, async () => {
      const d = await json(cluster, 'get deployment web');
      return d.status?.updatedReplicas === 1 && d.status?.readyReplicas === 1 && (await pods(cluster, 'web')).every((p) => p.image === 'nginx:1.28');
    }, 60_000);
    expect(await ok(cluster, 'rollout status deployment/web')).toBe('deployment "web" successfully rolled out\n');
    await ok(cluster, 'rollout undo deployment/web');
    await until(cluster, async () => {
      const ps = await pods(cluster, 'web');
      return ps.length === 1 && ps[0]!.image === 'nginx:1.27' && ps[0]!.phase === 'Running';
    }, 60_000);
    const rs = (await json(cluster, 'get rs')).items as Json[];
    expect(rs.map((r) => `${r.spec.template.spec.containers[0].image}=${r.spec.replicas}`).sort()).toEqual(['nginx:1.27=1', 'nginx:1.28=0']);
  });

  it('a worker dies: its node goes NotReady, and its pods are replaced after the 300 s toleration', async () => {
    const cluster = createCluster({ seed: 8, topology: 'ha', workers: [{ images: [NGINX_CACHED] }, { images: [NGINX_CACHED] }] });
    await ok(cluster, 'apply -f -', deployment('web', 4));
    await until(cluster, async () => (await readyReplicas(cluster, 'web')) === 4, 60_000);
    const victim = (await pods(cluster, 'web'))[0]!.node;
    const survivor = victim === 'worker-1' ? 'worker-2' : 'worker-1';
    await cluster.faults.stopNode(victim);
    // the 50 s node-monitor-grace-period after its last Lease renewal, counted from when the
    // controller first saw the node (it may have started after the kubelet's last renewal)
    const notReadyAfterMs = await until(cluster, async () => new RegExp(`${victim} +NotReady`).test(await ok(cluster, `get node ${victim}`)), 120_000);
    expect(notReadyAfterMs).toBeGreaterThanOrEqual(40_000);
    const taintedAfterMs = await until(cluster, async () => ((await json(cluster, `get node ${victim}`)).spec.taints ?? [])
      .some((t: Json) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute'), 30_000);
    expect(taintedAfterMs).toBeLessThanOrEqual(10_000);
    await cluster.advance(240_000);
    expect((await pods(cluster, 'web')).filter((p) => !p.deleting && p.node === victim)).not.toHaveLength(0); // tolerated for 300 s
    // (the dead node's pods still count as ready: our node lifecycle controller does not mark
    // them NotReady as upstream's MarkPodsNotReady does, so wait for the replacements themselves)
    await until(cluster, async () => {
      const live = (await pods(cluster, 'web')).filter((p) => !p.deleting);
      return live.length === 4 && live.every((p) => p.node === survivor && p.phase === 'Running');
    }, 180_000);
    expect(await readyReplicas(cluster, 'web')).toBe(4);
  });

  it('control plane down: running pods keep running, nothing new is scheduled, and it all resumes after', async () => {
    const cluster = createCluster({ seed: 9, topology: 'single-node', workers: [{ images: [NGINX_CACHED] }] });
    await ok(cluster, 'apply -f -', deployment('web', 2));
    await until(cluster, async () => (await readyReplicas(cluster, 'web')) === 2, 60_000);
    await cluster.faults.stopComponent('kube-scheduler-cp-1');
    await ok(cluster, 'scale deployment web --replicas=3');
    await cluster.advance(30_000);
    const waiting = (await pods(cluster, 'web')).filter((p) => p.node === '');
    expect(waiting).toHaveLength(1); // created by the ReplicaSet controller, never bound
    await cluster.faults.stopComponent('kube-controller-manager-cp-1');
    await cluster.faults.stopComponent('kube-apiserver-cp-1');
    const down = await cluster.kubectl('get pods');
    expect(down.exitCode).toBe(1);
    expect(down.stderr).toMatch(/The connection to the server 192.168.49.2:8443 was refused - did you specify the right host or port\?/);
    await cluster.advance(60_000);
    const runtimes = cluster.internals.components.runtimes;
    const running = [...runtimes.values()].flatMap((r) => r.listContainers()).filter((c) => c.state === 'running' && c.name === 'web');
    expect(running).toHaveLength(2); // the containers never needed the control plane (add-on DaemonSets' containers aside)
    for (const c of ['kube-apiserver-cp-1', 'kube-controller-manager-cp-1', 'kube-scheduler-cp-1']) await cluster.faults.startComponent(c);
    await until(cluster, async () => (await readyReplicas(cluster, 'web')).valueOf() === 3, 120_000);
  });

  it('a new namespace, a Service reached through kube-proxy, the scheduler saying why, and the namespace deleted', async () => {
    const workers: WorkerSpec[] = [{ images: [NGINX_CACHED] }, { images: [NGINX_CACHED] }];
    const cluster = createCluster({ seed: 11, workers });
    await cluster.advance(20_000);
    await ok(cluster, 'create namespace team');
    // the ServiceAccount controller gives the namespace its "default" account, which pods need
    await until(cluster, async () => (await cluster.kubectl('get serviceaccount default -n team')).exitCode === 0, 30_000);
    await ok(cluster, 'apply -n team -f -', deployment('api', 2));
    await ok(cluster, 'apply -n team -f -', `apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  selector: { app: api }
  ports:
  - port: 80
    targetPort: 8080
`);
    await until(cluster, async () => {
      const r = await cluster.kubectl('get deployment api -n team -o json');
      return r.exitCode === 0 && (JSON.parse(r.stdout) as Json).status?.readyReplicas === 2;
    }, 60_000);
    // the EndpointSlice controller lists both ready pods for the Service
    await until(cluster, async () => {
      const slices = await json(cluster, 'get endpointslices -n team -l kubernetes.io/service-name=api');
      const endpoints = (slices.items as Json[]).flatMap((s) => (s.endpoints ?? []) as Json[]);
      return endpoints.filter((e) => e.conditions?.ready === true).length === 2;
    }, 30_000);
    await cluster.advance(2_000); // kube-proxy resyncs its rules at most once a second
    const svc = await json(cluster, 'get service api -n team');
    const podList = await json(cluster, 'get pods -n team -l app=api');
    const podNames = (podList.items as Json[]).map((p) => p.metadata.name as string);
    const answered = cluster.internals.components.network.sendRequest('worker-1', `${svc.spec.clusterIP as string}:80`);
    expect(answered.ok).toBe(true);
    if (answered.ok) {
      expect(podNames).toContain(answered.pod.name);
      expect(answered.chains[0]).toBe('KUBE-SERVICES');
    }
    // "why this node?": the scheduler recorded its reasoning on every pod it placed
    for (const p of podList.items as Json[]) {
      expect(p.metadata.annotations['kube-scheduler-simulator.sigs.k8s.io/selected-node']).toBe(p.spec.nodeName);
      expect(JSON.parse(p.metadata.annotations['kube-scheduler-simulator.sigs.k8s.io/filter-result'] as string)).toHaveProperty(p.spec.nodeName as string);
    }
    // deleting the namespace deletes everything in it, then the namespace itself
    await ok(cluster, 'delete namespace team');
    await until(cluster, async () => (await cluster.kubectl('get namespace team')).exitCode !== 0, 120_000);
    const left = await cluster.kubectl('get pods -n team');
    expect(left.stdout).toBe('');
  });

  it('kubectl rollout status and get -w follow the cluster through a watch', async () => {
    const cluster = createCluster({ seed: 17, workers: [{ images: [NGINX_CACHED] }] });
    await cluster.advance(20_000);
    await ok(cluster, 'apply -f -', deployment('web', 2));
    const start = cluster.now();
    const status = await ok(cluster, 'rollout status deployment/web');
    expect(status.trim().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
    expect(cluster.now() - start).toBeLessThan(15_000); // it returned when the rollout finished
    expect(status).toContain('Waiting for deployment "web" rollout to finish'); // it watched progress
    // while `get -w` watches, a pod is deleted: the watch shows it terminating and its replacement
    const victim = (await pods(cluster, 'web'))[0]!.name;
    const admin = cluster.internals.restClient('test-admin');
    cluster.internals.kernel.setTimer(2_000, () =>
      admin.request({ verb: 'delete', group: '', resource: 'pods', namespace: 'default', name: victim }, () => undefined),
    );
    const watched = await cluster.kubectl('get pods -w -l app=web');
    const lines = watched.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    expect(lines.some((l) => l.startsWith(victim) && l.includes('Terminating'))).toBe(true);
    const names = new Set(lines.slice(1).map((l) => l.split(/\s+/)[0]));
    expect(names.size).toBe(3); // the two first pods and the replacement
  });
});

describe('etcd snapshot and restore on a running cluster', { timeout: 180_000 }, () => {
  const configMap = (name: string, ns = 'default'): string => `apiVersion: v1
kind: ConfigMap
metadata: { name: ${name}, namespace: ${ns} }
data: { owner: drill }
`;

  /** Snapshot, damage, restore; returns what kubectl shows after it and the trace hash. */
  async function drill(seed: number) {
    const cluster = createCluster({ seed, topology: 'ha', workers: [{ images: [NGINX_CACHED] }] });
    await ok(cluster, 'apply -f -', deployment('web', 2));
    await ok(cluster, 'create namespace team');
    for (const cm of ['settings', 'flags']) await ok(cluster, 'apply -f -', configMap(cm));
    await ok(cluster, 'apply -f -', configMap('team-settings', 'team'));
    await until(cluster, async () => (await readyReplicas(cluster, 'web')) === 2, 60_000);
    const informerLog = watchPods(cluster);
    expect((await cluster.etcdctl('snapshot save /backup.db')).stdout).toBe('Snapshot saved at /backup.db\n');
    // the damage: a Deployment, ConfigMaps and a namespace deleted, an object created after the snapshot
    await ok(cluster, 'delete deployment web');
    await ok(cluster, 'delete configmap settings flags');
    await ok(cluster, 'delete namespace team');
    await ok(cluster, 'apply -f -', configMap('after-the-snapshot'));
    await until(cluster, async () => (await pods(cluster, 'web')).length === 0, 60_000);
    const relistedAt = informerLog.length; // the watcher may relist while the restore runs
    const restored = await cluster.faults.restoreEtcd('/backup.db');
    expect(restored.stderr).toBe('');
    expect(restored.stdout).toContain('--bump-revision 1000000000 --mark-compacted');
    // the restored Deployment's status still says 2/2 (it is the snapshot's): wait for the
    // containers too, which the kubelet starts again once it relists and sees the pods back
    const readyAfterMs = await until(cluster, async () => runningWeb(cluster).length === 2
      && /^web +2\/2 +2 +2 /m.test((await cluster.kubectl('get deploy web')).stdout)
      && informerLog.slice(relistedAt).includes('list'), 120_000); // and our watcher is back (its back-off may outlast the pods)
    // a watcher like every controller's: it resumed from its old resourceVersion, got 410 Gone, relisted
    expect(informerLog.slice(relistedAt).filter((l) => /^watch expired|^list$/.test(l))).toEqual([
      expect.stringMatching(/^watch expired \(too old resource version: \d+ \(1000000\d{3}\)\): relisting$/), 'list']);
    return { cluster, readyAfterMs, hash: cluster.traceHash() };
  }

  /** A pod informer of our own; returns its reflector's log lines. */
  function watchPods(cluster: Cluster): string[] {
    const log: string[] = [];
    const lw = restListerWatcher<Pod>(cluster.internals.restClient('drill-observer'), { group: '', resource: 'pods' });
    new SharedInformer<Pod>(cluster.internals.kernel, lw, { onLog: (l) => log.push(l) }).start();
    return log;
  }

  const runningWeb = (cluster: Cluster) => [...cluster.internals.components.runtimes.values()]
    .flatMap((r) => r.listContainers()).filter((c) => c.state === 'running' && c.name === 'web');

  it('a Deployment, ConfigMaps and a namespace deleted after the snapshot come back; what was created after it is gone', async () => {
    const { cluster, readyAfterMs, hash } = await drill(61);
    expect(readyAfterMs).toBeLessThanOrEqual(60_000);
    expect(await ok(cluster, 'get configmaps -o name')).toMatch(/configmap\/flags\n(.*\n)*configmap\/settings\n/);
    expect((await cluster.kubectl('get configmap after-the-snapshot')).stderr).toBe('Error from server (NotFound): configmaps "after-the-snapshot" not found\n');
    expect(await ok(cluster, 'get configmap team-settings -n team -o name')).toBe('configmap/team-settings\n');
    const web = await pods(cluster, 'web');
    expect(web.filter((p) => !p.deleting)).toHaveLength(2);
    expect(runningWeb(cluster)).toHaveLength(2);
    expect((await drill(61)).hash).toBe(hash);
  });

  it('the members lose their disks: the restored cluster adopts the pods still running, and starts no second copy', async () => {
    const cluster = createCluster({ seed: 62, topology: 'ha', workers: [{ images: [NGINX_CACHED] }] });
    await ok(cluster, 'apply -f -', deployment('web', 2));
    await until(cluster, async () => (await readyReplicas(cluster, 'web')) === 2, 60_000);
    await ok(cluster, 'apply -f -', configMap('before'));
    await cluster.etcdctl('snapshot save /backup.db');
    await ok(cluster, 'apply -f -', configMap('after'));
    const before = (await json(cluster, 'get pods -l app=web')).items.map((p: Json) => `${p.metadata.name} ${p.metadata.uid}`).sort();
    const containers = runningWeb(cluster).map((c) => c.id).sort();
    const oldClusterId = cluster.internals.controlPlane.etcd.clusterId;
    for (const m of cluster.internals.plan.etcdMembers) await cluster.faults.stopComponent(m); // the disks are gone: only the backup is left
    expect((await cluster.faults.restoreEtcd('/backup.db')).exitCode).toBe(0);
    const status = await cluster.etcdctl('endpoint status --cluster -w json');
    const clusterIds = [...status.stdout.matchAll(/"cluster_id":(\d+)/g)].map((m) => m[1]); // uint64, printed in decimal
    expect(clusterIds).toHaveLength(3);
    expect(new Set(clusterIds)).toEqual(new Set([BigInt(`0x${cluster.internals.controlPlane.etcd.clusterId}`).toString()]));
    expect(cluster.internals.controlPlane.etcd.clusterId).not.toBe(oldClusterId); // a new cluster
    for (const m of status.stdout.matchAll(/"revision":(\d+)/g)) expect(Number(m[1])).toBeGreaterThan(1_000_000_000); // bumped
    await cluster.advance(30_000);
    expect((await json(cluster, 'get pods -l app=web')).items.map((p: Json) => `${p.metadata.name} ${p.metadata.uid}`).sort()).toEqual(before);
    expect(runningWeb(cluster).map((c) => c.id).sort()).toEqual(containers); // the same containers, never restarted
    expect(await readyReplicas(cluster, 'web')).toBe(2);
    expect(await ok(cluster, 'get configmaps -o name')).toContain('configmap/before\n');
    expect((await cluster.kubectl('get configmap after')).exitCode).toBe(1);
  });
});
