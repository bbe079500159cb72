// "Run in cluster" for the ReplicaSet lab: the same scenario on two clusters with the same seed,
// one whose controller manager uses the learner's ReplicaSetReconciler and one with the reference,
// so a page can show what the learner's code did next to what Kubernetes would have done.
// The scenario follows chapter 1's story on a managed cluster with 3 workers: a ReplicaSet of 4; a
// worker dies (NotReady after the 50 s grace period, its pods evicted after the 300 s toleration
// and replaced elsewhere, the evicted ones stuck Terminating since no kubelet confirms); scaled
// down to 2 (the reconciler chooses which pods go); then scaled to 5 and at once back to 3 while
// the new pods are still starting (the reconciler should delete those, not the running ones).
import type { CoreEvent, Node, Pod } from '../api/index.ts';
import type { ReplicaSetReconciler } from '../controllers/index.ts';
import { createCluster, type Cluster } from './cluster.ts';
import { describeThrown, guardReconciler, LearnerFaults } from './learner-pieces.ts';
import { kubectlJson, mustRun, SimulatedBudget, type ScenarioOptions } from './scenario-kubectl.ts';

export interface PodView {
  name: string;
  node: string;
  phase: string;
  deleting: boolean;
}

export interface ScenarioStep {
  /** What just happened ("created with 4 replicas", "worker-1 died...", "scaled to 2"). */
  label: string;
  /** Simulated seconds since the ReplicaSet was created. */
  atSeconds: number;
  /** Desired replicas at this step, and whether the active pods matched it. */
  desired: number;
  converged: boolean;
  /** The ReplicaSet's pods now, by name (terminating ones included, flagged). */
  pods: PodView[];
  /** Pods the ReplicaSet controller created since the previous step (its SuccessfulCreate events). */
  created: string[];
  /** Pods it deleted since the previous step (its SuccessfulDelete events). */
  deleted: string[];
  /** Pods that started terminating since the previous step for another reason (evicted from a dead node). */
  evicted: string[];
  /** Each worker and whether it is Ready. */
  nodes: { name: string; ready: boolean }[];
}

export interface ScenarioRun {
  steps: ScenarioStep[];
  /** The ReplicaSet controller's events, oldest first ("SuccessfulCreate: Created pod: web-x7k2p"). */
  events: string[];
  /** A throw or malformed answer from the learner's code, an API failure or a budget that stopped the run. */
  error?: string;
}

export interface ReplicaSetComparison {
  learner: ScenarioRun;
  reference: ScenarioRun;
  /** Index of the first step whose pods, changes or convergence differ from the reference's. */
  firstDivergentStep?: number;
}

/** Simulated time one run may use: the scenario itself needs about 8 minutes. */
export const REPLICASET_BUDGET_MS = 15 * 60_000;

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
  { budgetMs = REPLICASET_BUDGET_MS, onProgress }: ScenarioOptions = {},
): Promise<ScenarioRun> {
  const faults = new LearnerFaults();
  const steps: ScenarioStep[] = [];
  let cluster: Cluster | undefined;
  try {
    cluster = createReplicaSetCluster(reconciler, seed, faults);
    await playScenario(cluster, new SimulatedBudget(cluster, budgetMs), faults, steps, onProgress);
    return { steps, events: await controllerEvents(cluster) };
  } catch (error) {
    return {
      steps,
      events: cluster ? await controllerEvents(cluster).catch(() => []) : [],
      error: describeThrown(faults.first ?? error),
    };
  }
}

function createReplicaSetCluster(reconciler: ReplicaSetReconciler | undefined, seed: number, faults: LearnerFaults): Cluster {
  const image = { names: ['nginx:1.27'], sizeBytes: 72_000_000 };
  return createCluster({
    seed,
    topology: 'managed',
    etcdMembers: 1,
    workers: [{ images: [image] }, { images: [image] }, { images: [image] }],
    ...(reconciler ? { plugins: { replicaSetReconciler: guardReconciler(reconciler, faults) } } : {}),
  });
}

async function playScenario(
  cluster: Cluster, budget: SimulatedBudget, faults: LearnerFaults, steps: ScenarioStep[], onProgress: ScenarioOptions['onProgress'],
): Promise<void> {
  await budget.advance(10_000); // the controller manager takes its lease, kubelets register
  onProgress?.('the cluster is up');
  const start = cluster.now();
  const step = async (label: string, desired: number, waitMs: number): Promise<void> => {
    const deadline = cluster.now() + waitMs;
    let pods = await podsOf(cluster);
    while (!converged(pods, desired) && cluster.now() < deadline) {
      await budget.advance(1_000);
      faults.check();
      pods = await podsOf(cluster);
    }
    faults.check();
    steps.push({
      label,
      atSeconds: Math.round((cluster.now() - start) / 1000),
      desired,
      converged: converged(pods, desired),
      pods,
      ...(await changesSince(cluster, steps, pods)),
      nodes: await nodesOf(cluster),
    });
    onProgress?.(`step ${steps.length}: ${label}`);
  };
  await mustRun(cluster, 'apply -f -', REPLICASET(4));
  await step('created with 4 replicas', 4, 30_000);
  await scale(cluster, 3);
  await step('scaled down to 3', 3, 30_000);
  await cluster.faults.stopNode('worker-1');
  for (let waitedMs = 0; waitedMs < 400_000; waitedMs += 50_000) {
    await budget.advance(50_000); // NotReady after 50 s, evicted after 300 s more
    faults.check();
    onProgress?.(`worker-1 down for ${(waitedMs + 50_000) / 1000} s`);
  }
  await step('worker-1 died: NotReady after 50 s, its pods evicted 300 s later and replaced', 3, 60_000);
  await scale(cluster, 2);
  await step('scaled down to 2', 2, 30_000);
  await mustRun(cluster, 'set image replicaset/web web=nginx:1.28');
  await scale(cluster, 5);
  await budget.advance(500); // the new pods are scheduled and pulling nginx:1.28
  await scale(cluster, 2);
  await step('new image nginx:1.28 (not pulled yet), scaled to 5, and 0.5 s later to 2', 2, 30_000);
}

/**
 * kubectl scale, retried on a Conflict: the simulated kubectl updates the scale subresource with
 * the resourceVersion it read, so a status write by the controller in between can make it fail.
 */
async function scale(cluster: Cluster, replicas: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const r = await cluster.kubectl(`scale replicaset web --replicas=${replicas}`);
    if (r.exitCode === 0) return;
    if (attempt === 3 || !r.stderr.includes('(Conflict)')) throw new Error(`kubectl scale: ${r.stderr.trim()}`);
    await cluster.advance(100);
  }
}

/** The learner's run and the reference run of the same scenario on the same seed. */
export async function compareReplicaSetReconciler(learner: ReplicaSetReconciler, seed = 1): Promise<ReplicaSetComparison> {
  return compareReplicaSetRuns(await runReplicaSetScenario(learner, seed), await runReplicaSetScenario(undefined, seed));
}

export function compareReplicaSetRuns(learner: ScenarioRun, reference: ScenarioRun): ReplicaSetComparison {
  const count = Math.max(learner.steps.length, reference.steps.length);
  for (let i = 0; i < count; i++) {
    if (!sameStep(learner.steps[i], reference.steps[i])) return { learner, reference, firstDivergentStep: i };
  }
  return { learner, reference };
}

function sameStep(a: ScenarioStep | undefined, b: ScenarioStep | undefined): boolean {
  if (!a || !b) return false;
  const key = (s: ScenarioStep) => JSON.stringify([s.converged, s.pods, s.created, s.deleted, s.evicted]);
  return key(a) === key(b);
}

function converged(pods: PodView[], desired: number): boolean {
  const active = pods.filter((p) => !p.deleting && p.phase !== 'Failed' && p.phase !== 'Succeeded');
  return active.length === desired && active.every((p) => p.phase === 'Running');
}

/** What the controller did since the previous step (from its events), and what else started terminating. */
async function changesSince(cluster: Cluster, steps: ScenarioStep[], pods: PodView[]): Promise<Pick<ScenarioStep, 'created' | 'deleted' | 'evicted'>> {
  const events = await controllerEvents(cluster);
  const named = (prefix: string, seen: Set<string>) =>
    events.filter((e) => e.startsWith(prefix)).map((e) => e.slice(prefix.length).split(' ')[0]!).filter((n) => !seen.has(n));
  const deleted = named('SuccessfulDelete: Deleted pod: ', new Set(steps.flatMap((s) => s.deleted)));
  const wasDeleting = new Set(steps.at(-1)?.pods.filter((p) => p.deleting).map((p) => p.name));
  return {
    created: named('SuccessfulCreate: Created pod: ', new Set(steps.flatMap((s) => s.created))),
    deleted,
    evicted: pods.filter((p) => p.deleting && !wasDeleting.has(p.name) && !deleted.includes(p.name)).map((p) => p.name),
  };
}

async function podsOf(cluster: Cluster): Promise<PodView[]> {
  const list = await kubectlJson<{ items: Pod[] }>(cluster, 'get pods -l app=web');
  return (list?.items ?? [])
    .map((p) => ({
      name: p.metadata.name ?? '',
      node: p.spec?.nodeName ?? '',
      phase: p.status?.phase ?? 'Pending',
      deleting: p.metadata.deletionTimestamp !== undefined,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

async function nodesOf(cluster: Cluster): Promise<ScenarioStep['nodes']> {
  const list = await kubectlJson<{ items: Node[] }>(cluster, 'get nodes');
  return (list?.items ?? []).map((n) => ({
    name: n.metadata.name ?? '',
    ready: n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
  }));
}

async function controllerEvents(cluster: Cluster): Promise<string[]> {
  const list = await kubectlJson<{ items: CoreEvent[] }>(cluster, 'get events');
  return (list?.items ?? [])
    .filter((e) => e.source?.component === 'replicaset-controller' && e.involvedObject.name === 'web')
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
    .map((e) => `${e.reason}: ${e.message}${(e.count ?? 1) > 1 ? ` (x${e.count})` : ''}`);
}
