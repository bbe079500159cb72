// Chaos schedules for the whole cluster: a small cluster runs a Deployment and a stream of
// ConfigMap writes while seeded random faults stop and start machines, components and the etcd
// member; after the faults stop, the Deployment must converge to its Ready replicas within a
// bounded simulated time, no pod may ever move to a second node, and no acknowledged write may be
// lost. runChaosSeed(seed) replays exactly from its seed (the kernel's RNG drives everything).
import type { Pod } from '../api/index.ts';
import { SharedInformer, restListerWatcher } from '../client/index.ts';
import { createKernel } from '../kernel/index.ts';
import { createCluster, type Cluster } from './cluster.ts';

export interface ChaosOptions {
  /** Simulated ms of random faults (default 20 s). */
  faultPhaseMs?: number;
  /** Simulated ms the Deployment gets to converge once the faults stop (default 120 s). */
  convergeMs?: number;
}

export type ChaosResult = { ok: true; faults: string[] } | { ok: false; message: string; faults: string[] };

const REPLICAS = 2;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: ${REPLICAS}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - { name: web, image: 'nginx:1.27' }
`;

export async function runChaosSeed(seed: number, o: ChaosOptions = {}): Promise<ChaosResult> {
  const cluster = createCluster({ seed, topology: 'single-node', workers: [{ images: [{ names: ['nginx:1.27'], sizeBytes: 72_000_000 }] }] });
  const { kernel } = cluster.internals;
  const rng = createKernel({ seed }).forkRng('chaos'); // the fault plan's own stream
  const faults: string[] = [];
  const fail = (message: string): ChaosResult => ({ ok: false, message: `seed ${seed}: ${message}`, faults });
  if ((await cluster.kubectl('apply -f -', { stdin: DEPLOYMENT })).exitCode !== 0) return fail('the Deployment was not created');
  const bindings = watchBindings(cluster);
  const acked = writeStream(cluster, o.faultPhaseMs ?? 20_000);
  const targets = ['node:worker-1', 'node:cp-1', 'kubelet-worker-1', 'kubelet-cp-1', 'kube-proxy-worker-1', 'kube-scheduler-cp-1',
    'kube-controller-manager-cp-1', 'kube-apiserver-cp-1', 'etcd-cp-1', 'node-lifecycle-controller-cp-1'];
  const stopped = new Set<string>();
  const end = kernel.now() + (o.faultPhaseMs ?? 20_000);
  while (kernel.now() < end) {
    await cluster.advance(500 + rng.nextInt(3000));
    const target = targets[rng.nextInt(targets.length)]!;
    const isNode = target.startsWith('node:');
    const name = isNode ? target.slice(5) : target;
    if (stopped.has(target)) {
      await (isNode ? cluster.faults.startNode(name) : cluster.faults.startComponent(name));
      stopped.delete(target);
      faults.push(`${kernel.now()} start ${target}`);
    } else {
      await (isNode ? cluster.faults.stopNode(name) : cluster.faults.stopComponent(name));
      stopped.add(target);
      faults.push(`${kernel.now()} stop ${target}`);
    }
  }
  for (const target of [...stopped].sort()) {
    await (target.startsWith('node:') ? cluster.faults.startNode(target.slice(5)) : cluster.faults.startComponent(target));
    faults.push(`${kernel.now()} start ${target}`);
  }
  const converged = await convergence(cluster, o.convergeMs ?? 120_000);
  if (!converged) return fail(`the Deployment did not reach ${REPLICAS} Ready replicas within ${(o.convergeMs ?? 120_000) / 1000} s after the faults`);
  if (bindings.moved.length > 0) return fail(`pods bound twice: ${bindings.moved.join(', ')}`);
  // Every write acknowledged before the list began must be in it; a write acknowledged while the
  // list is in flight is concurrent with it and may or may not be (linearizability allows both).
  const ackedBeforeList = [...acked];
  const stored = await storedConfigMaps(cluster);
  if (stored === undefined) return fail('could not list ConfigMaps after the faults');
  const lost = ackedBeforeList.filter((n) => !stored.has(n));
  if (lost.length > 0) return fail(`acknowledged writes lost: ${lost.join(', ')}`);
  return { ok: true, faults };
}

/** Every pod's node as an informer sees it; a pod seen on two nodes is a double binding. */
function watchBindings(cluster: Cluster): { moved: string[] } {
  const { kernel, restClient } = cluster.internals;
  const nodeOf = new Map<string, string>();
  const moved: string[] = [];
  const see = (pod: Pod): void => {
    const uid = pod.metadata.uid ?? '';
    const node = pod.spec?.nodeName;
    if (!node) return;
    const before = nodeOf.get(uid);
    if (before !== undefined && before !== node) moved.push(`${pod.metadata.name ?? uid}: ${before} -> ${node}`);
    nodeOf.set(uid, node);
  };
  const informer = new SharedInformer<Pod>(kernel, restListerWatcher<Pod>(restClient('chaos-observer'), { group: '', resource: 'pods' }));
  informer.addEventHandler({ onAdd: see, onUpdate: (_old, pod) => see(pod), onDelete: () => undefined });
  informer.start();
  return { moved };
}

/** Creates a ConfigMap every 250 ms during the fault phase; returns the names the API server acknowledged. */
function writeStream(cluster: Cluster, durationMs: number): string[] {
  const { kernel, restClient } = cluster.internals;
  const client = restClient('chaos-writer');
  const acked: string[] = [];
  for (let i = 0; i * 250 < durationMs; i++) {
    const name = `chaos-${i}`;
    kernel.setTimer(i * 250, () => client.request(
      { verb: 'create', group: '', resource: 'configmaps', namespace: 'default', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } },
      (res) => {
        if (res.code === 201) acked.push(name);
      },
    ));
  }
  return acked;
}

async function convergence(cluster: Cluster, budgetMs: number): Promise<boolean> {
  const deadline = cluster.now() + budgetMs;
  while (cluster.now() <= deadline) {
    const r = await cluster.kubectl('get pods -l app=web -o json');
    if (r.exitCode === 0) {
      const pods = (JSON.parse(r.stdout) as { items: Pod[] }).items.filter((p) => !p.metadata.deletionTimestamp);
      const ready = pods.filter((p) => p.status?.phase === 'Running' && p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      if (pods.length === REPLICAS && ready.length === REPLICAS) return true;
    }
    await cluster.advance(2000);
  }
  return false;
}

async function storedConfigMaps(cluster: Cluster): Promise<Set<string> | undefined> {
  const r = await cluster.kubectl('get configmaps -o name');
  if (r.exitCode !== 0) return undefined;
  return new Set(r.stdout.split('\n').filter((l) => l.startsWith('configmap/')).map((l) => l.slice('configmap/'.length)));
}
