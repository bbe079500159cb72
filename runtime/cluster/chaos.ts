// Chaos schedules for the whole cluster: a small cluster runs a Deployment and a stream of
// ConfigMap writes while seeded random faults (chaos-schedules.ts: stops and starts of machines,
// components and etcd members, network partitions) hit it; after the faults stop and the network
// heals, the Deployment must converge to its Ready replicas within a bounded simulated time, no pod
// may ever move to a second node, no acknowledged write may be lost, and the etcd members must
// agree (same revision, same KV hash). runChaosSeed(seed, { topology }) replays exactly from its
// seed (the kernel's RNG drives everything).
import type { Pod } from '../api/index.ts';
import { SharedInformer, restListerWatcher } from '../client/index.ts';
import { createKernel } from '../kernel/index.ts';
import { chaosSchedule, recoverAll, type ChaosTopology, type FaultState } from './chaos-schedules.ts';
import { createCluster, type Cluster } from './cluster.ts';
import { etcdMembersAgree } from './etcd-agreement.ts';

export interface ChaosOptions {
  /** Which cluster and fault menu (chaos-schedules.ts; default single-node). */
  topology?: ChaosTopology;
  /** Simulated ms of random faults (default 20 s). */
  faultPhaseMs?: number;
  /** Simulated ms the Deployment gets to converge once the faults stop (default 120 s). */
  convergeMs?: number;
}

export type ChaosResult = { ok: true; faults: string[] } | { ok: false; message: string; faults: string[] };

const deployment = (replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - { name: web, image: 'nginx:1.27' }
`;

export async function runChaosSeed(seed: number, o: ChaosOptions = {}): Promise<ChaosResult> {
  const topology = o.topology ?? 'single-node';
  const schedule = chaosSchedule(topology);
  const cluster = createCluster({ seed, ...schedule.cluster });
  const { kernel } = cluster.internals;
  const rng = createKernel({ seed }).forkRng('chaos'); // the fault plan's own stream
  const faults: string[] = [];
  const fail = (message: string): ChaosResult => ({ ok: false, message: `seed ${seed} (${topology}): ${message}`, faults });
  if ((await cluster.kubectl('apply -f -', { stdin: deployment(schedule.replicas) })).exitCode !== 0) return fail('the Deployment was not created');
  const bindings = watchBindings(cluster);
  const faultPhaseMs = o.faultPhaseMs ?? 20_000;
  const acked = writeStream(cluster, faultPhaseMs);
  const state: FaultState = { stopped: new Set(), partitioned: false };
  const end = kernel.now() + faultPhaseMs;
  while (kernel.now() < end) {
    await cluster.advance(500 + rng.nextInt(3000));
    faults.push(`${kernel.now()} ${await schedule.step(cluster, rng, state)}`);
  }
  for (const line of await recoverAll(cluster, state)) faults.push(`${kernel.now()} ${line}`);
  const convergeMs = o.convergeMs ?? 120_000;
  if (!(await convergence(cluster, schedule.replicas, convergeMs))) {
    return fail(`the Deployment did not reach ${schedule.replicas} Ready replicas within ${convergeMs / 1000} s after the faults`);
  }
  if (bindings.moved.length > 0) return fail(`pods bound twice: ${bindings.moved.join(', ')}`);
  // Every write acknowledged before the list began must be in it; a write acknowledged while the
  // list is in flight is concurrent with it and may or may not be (linearizability allows both).
  const ackedBeforeList = [...acked];
  const stored = await storedConfigMaps(cluster);
  if (stored === undefined) return fail('could not list ConfigMaps after the faults');
  const lost = ackedBeforeList.filter((n) => !stored.has(n));
  if (lost.length > 0) return fail(`acknowledged writes lost: ${lost.join(', ')}`);
  const agreement = etcdMembersAgree(cluster, cluster.internals.controlPlane.etcd.client({ name: 'chaos-auditor' }));
  if (!agreement.ok) return fail(agreement.message);
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

async function convergence(cluster: Cluster, replicas: number, budgetMs: number): Promise<boolean> {
  const deadline = cluster.now() + budgetMs;
  while (cluster.now() <= deadline) {
    const r = await cluster.kubectl('get pods -l app=web -o json');
    if (r.exitCode === 0) {
      const pods = (JSON.parse(r.stdout) as { items: Pod[] }).items.filter((p) => !p.metadata.deletionTimestamp);
      const ready = pods.filter((p) => p.status?.phase === 'Running' && p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      if (pods.length === replicas && ready.length === replicas) return true;
    }
    await cluster.advance(2000);
  }
  return false;
}

/**
 * The ConfigMaps in the cluster, listed through kubectl. A replica restarted by the last faults may
 * get the list before its watch caches have filled (its balancer had not marked it down yet): its
 * RBAC authorizer then knows no binding and refuses the admin (403), as a starting kube-apiserver
 * does, so the list is tried up to 10 times, a second apart. What it must contain is unchanged.
 */
async function storedConfigMaps(cluster: Cluster): Promise<Set<string> | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    if (attempt > 0) await cluster.advance(1000);
    const r = await cluster.kubectl('get configmaps -o name');
    if (r.exitCode === 0) return new Set(r.stdout.split('\n').filter((l) => l.startsWith('configmap/')).map((l) => l.slice('configmap/'.length)));
  }
  return undefined;
}
