// "Run in cluster" for the ReplicaSet lab: the same scenario on two clusters with the same seed,
// one whose controller manager uses the learner's ReplicaSetReconciler and one with the reference,
// so a page can show what the learner's code did next to what Kubernetes would have done.
// The scenario follows chapter 1's story: a ReplicaSet of 4 on 3 workers, a worker dies (its pods
// are evicted after the 50 s grace period and the 300 s toleration, and replaced elsewhere), then
// the ReplicaSet is scaled down to 2 (the reconciler chooses which pods go).
import type { CoreEvent, Pod, ReplicaSet } from '../api/index.ts';
import type { ReplicaSetReconciler } from '../controllers/index.ts';
import { createCluster, type Cluster } from './cluster.ts';

export interface PodView {
  name: string;
  node: string;
  phase: string;
  deleting: boolean;
}

export interface ScenarioStep {
  /** What just happened ("created with 4 replicas", "worker-1 died", "scaled to 2"). */
  label: string;
  /** Simulated seconds since the ReplicaSet was created. */
  atSeconds: number;
  /** Desired replicas at this step, and whether the active pods matched it. */
  desired: number;
  converged: boolean;
  pods: PodView[];
}

export interface ScenarioRun {
  steps: ScenarioStep[];
  /** The ReplicaSet controller's events, oldest first ("SuccessfulCreate: Created pod: web-x7k2p"). */
  events: string[];
  /** A thrown error or an API failure that stopped the run, if any. */
  error?: string;
}

const REPLICASET = (replicas: number): string => `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources:
          requests: { cpu: 100m, memory: 64Mi }
`;

/** Runs the scenario with `reconciler` (the reference controller when undefined). */
export async function runReplicaSetScenario(
  reconciler: ReplicaSetReconciler | undefined,
  seed = 1,
): Promise<ScenarioRun> {
  const image = { names: ['nginx:1.27'], sizeBytes: 72_000_000 };
  const cluster = createCluster({
    seed,
    topology: 'ha',
    workers: [{ images: [image] }, { images: [image] }, { images: [image] }],
    ...(reconciler ? { plugins: { replicaSetReconciler: reconciler } } : {}),
  });
  const steps: ScenarioStep[] = [];
  try {
    await cluster.advance(20_000); // leader elections settle
    const start = cluster.now();
    const step = async (label: string, desired: number, waitMs: number): Promise<void> => {
      const deadline = cluster.now() + waitMs;
      let pods = await podsOf(cluster);
      while (!converged(pods, desired) && cluster.now() < deadline) {
        await cluster.advance(1_000);
        pods = await podsOf(cluster);
      }
      steps.push({
        label,
        atSeconds: Math.round((cluster.now() - start) / 1000),
        desired,
        converged: converged(pods, desired),
        pods,
      });
    };
    await mustRun(cluster, 'apply -f -', REPLICASET(4));
    await step('created with 4 replicas', 4, 30_000);
    await cluster.faults.stopNode('worker-1');
    await cluster.advance(400_000); // NotReady after 50 s, evicted after 300 s more
    await step('worker-1 died; its pods were evicted and replaced', 4, 60_000);
    await mustRun(cluster, 'scale replicaset web --replicas=2');
    await step('scaled down to 2', 2, 30_000);
    return { steps, events: await controllerEvents(cluster) };
  } catch (e) {
    return {
      steps,
      events: await controllerEvents(cluster).catch(() => []),
      error: e instanceof Error ? e.message : String(e),
    };
  }
}

/** The learner's run and the reference run of the same scenario on the same seed. */
export async function compareReplicaSetReconciler(
  learner: ReplicaSetReconciler,
  seed = 1,
): Promise<{ learner: ScenarioRun; reference: ScenarioRun }> {
  return {
    learner: await runReplicaSetScenario(learner, seed),
    reference: await runReplicaSetScenario(undefined, seed),
  };
}

function converged(pods: PodView[], desired: number): boolean {
  const active = pods.filter((p) => !p.deleting && p.phase !== 'Failed' && p.phase !== 'Succeeded');
  return active.length === desired && active.every((p) => p.phase === 'Running');
}

async function mustRun(cluster: Cluster, args: string, stdin?: string): Promise<void> {
  const r = await cluster.kubectl(args, stdin === undefined ? {} : { stdin });
  if (r.exitCode !== 0) throw new Error(`kubectl ${args}: ${r.stderr.trim()}`);
}

async function podsOf(cluster: Cluster): Promise<PodView[]> {
  const r = await cluster.kubectl('get pods -l app=web -o json');
  if (r.exitCode !== 0) return [];
  return (JSON.parse(r.stdout) as { items: Pod[] }).items
    .map((p) => ({
      name: p.metadata.name ?? '',
      node: p.spec?.nodeName ?? '',
      phase: p.status?.phase ?? 'Pending',
      deleting: p.metadata.deletionTimestamp !== undefined,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

async function controllerEvents(cluster: Cluster): Promise<string[]> {
  const r = await cluster.kubectl('get events -o json');
  if (r.exitCode !== 0) return [];
  const rs = (
    JSON.parse(
      (await cluster.kubectl('get replicaset web -o json')).stdout || '{}',
    ) as Partial<ReplicaSet>
  ).metadata?.name;
  return (JSON.parse(r.stdout) as { items: CoreEvent[] }).items
    .filter(
      (e) =>
        e.source?.component === 'replicaset-controller' && e.involvedObject.name === (rs ?? 'web'),
    )
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
    .map((e) => `${e.reason}: ${e.message}${(e.count ?? 1) > 1 ? ` (x${e.count})` : ''}`);
}
