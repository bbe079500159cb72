// "Run in cluster" for the ReplicaSet lab (see ../lab-scenario.ts): the learner's reconcileReplicaSet
// becomes the decision step of the controller manager's ReplicaSet controller
// (plugins.replicaSetReconciler), beside a cluster with the built-in controller on the same seed.
// The story follows chapter 1 on a managed cluster with 3 workers: a ReplicaSet of 4; scaled down
// to 3; a worker dies (NotReady after the 50 s grace period, its pods evicted after the 300 s
// toleration and replaced elsewhere, the evicted ones stuck Terminating since no kubelet confirms);
// scaled down to 2; then scaled to 5 and at once back to 2 while the new pods are still starting
// (the reconciler should delete those, not the running ones).
import type { CoreEvent, Node, Pod } from '../../runtime/api/index.ts';
import type { ReplicaSetReconciler } from '../../runtime/controllers/index.ts';
import { guardReplicaSetReconciler, type Cluster } from '../../runtime/index.ts';
import { kubectlJson, mustRun, type LabComparison, type LabScenario, type ReportBlock, type ReportRow, type StoryContext } from '../lab-scenario.ts';

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

/** Index of the first step whose pods, changes or convergence differ from the reference's. */
export function firstDivergentStep(learner: ScenarioRun, reference: ScenarioRun): number | undefined {
  const count = Math.max(learner.steps.length, reference.steps.length);
  for (let i = 0; i < count; i++) {
    if (!sameStep(learner.steps[i], reference.steps[i])) return i;
  }
  return undefined;
}

const scenario: LabScenario<ScenarioRun> = {
  exports: ['reconcileReplicaSet'],
  // the story itself needs about 8 minutes of simulated time
  budgetMs: 15 * 60_000,
  visibleMutant: 'running-first.ts',
  cluster: (seed) => {
    const image = { names: ['nginx:1.27'], sizeBytes: 72_000_000 };
    return { seed, topology: 'managed', etcdMembers: 1, workers: [{ images: [image] }, { images: [image] }, { images: [image] }] };
  },
  plug: (learner, faults) => ({
    plugins: { replicaSetReconciler: guardReplicaSetReconciler(learner['reconcileReplicaSet'] as ReplicaSetReconciler, 'reconcileReplicaSet', faults) },
  }),
  start: () => ({ steps: [], events: [] }),
  story: playStory,
  finish: async (cluster, run) => {
    run.events = await controllerEvents(cluster);
  },
  compare: compareRuns,
};
export default scenario;

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

async function playStory(cluster: Cluster, run: ScenarioRun, ctx: StoryContext): Promise<void> {
  const { steps } = run;
  await ctx.advance(10_000); // the controller manager takes its lease, kubelets register
  ctx.progress('the cluster is up');
  const start = cluster.now();
  const step = async (label: string, desired: number, waitMs: number): Promise<void> => {
    const deadline = cluster.now() + waitMs;
    let pods = await podsOf(cluster);
    while (!converged(pods, desired) && cluster.now() < deadline) {
      await ctx.advance(1_000);
      ctx.checkFaults();
      pods = await podsOf(cluster);
    }
    ctx.checkFaults();
    steps.push({
      label,
      atSeconds: Math.round((cluster.now() - start) / 1000),
      desired,
      converged: converged(pods, desired),
      pods,
      ...(await changesSince(cluster, steps, pods)),
      nodes: await nodesOf(cluster),
    });
    ctx.progress(`step ${steps.length}: ${label}`);
  };
  await mustRun(cluster, 'apply -f -', REPLICASET(4));
  await step('created with 4 replicas', 4, 30_000);
  await scale(cluster, 3);
  await step('scaled down to 3', 3, 30_000);
  await cluster.faults.stopNode('worker-1');
  for (let waitedMs = 0; waitedMs < 400_000; waitedMs += 50_000) {
    await ctx.advance(50_000); // NotReady after 50 s, evicted after 300 s more
    ctx.checkFaults();
    ctx.progress(`worker-1 down for ${(waitedMs + 50_000) / 1000} s`);
  }
  await step('worker-1 died: NotReady after 50 s, its pods evicted 300 s later and replaced', 3, 60_000);
  await scale(cluster, 2);
  await step('scaled down to 2', 2, 30_000);
  await mustRun(cluster, 'set image replicaset/web web=nginx:1.28');
  await scale(cluster, 5);
  await ctx.advance(500); // the new pods are scheduled and pulling nginx:1.28
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

// ---- the comparison and what the page shows ----

function sameStep(a: ScenarioStep | undefined, b: ScenarioStep | undefined): boolean {
  if (!a || !b) return false;
  const key = (s: ScenarioStep) => JSON.stringify([s.converged, s.pods, s.created, s.deleted, s.evicted]);
  return key(a) === key(b);
}

function compareRuns(learner: ScenarioRun, reference: ScenarioRun): LabComparison {
  const first = firstDivergentStep(learner, reference);
  const firstStep = first === undefined ? undefined : reference.steps[first];
  let summary: string;
  if (learner.error) summary = `Your code stopped the run at step ${learner.steps.length + 1}.`;
  else if (first === undefined) summary = `Your code drove the cluster exactly as the reference did, at all ${reference.steps.length} steps.`;
  else summary = `Your code first differs from the reference at step ${first + 1}${firstStep ? ` (${firstStep.label})` : ''}.`;
  return {
    summary,
    ...(first === undefined ? {} : { firstDifference: `step ${first + 1}${firstStep ? `: ${firstStep.label}` : ''}` }),
    ...(learner.error ? { learnerError: learner.error } : {}),
    report: report(learner, reference, first),
  };
}

function report(learner: ScenarioRun, reference: ScenarioRun, first: number | undefined): ReportBlock[] {
  const steps = reference.steps.map((ref, i) => {
    const mine = learner.steps[i];
    const differs = first !== undefined && i >= first && !sameStep(mine, ref);
    return {
      title: `Step ${i + 1} at ${ref.atSeconds} s: ${ref.label} `,
      differs,
      blocks: [{ kind: 'sides', sides: [stepSide('Your code', mine, ref), stepSide('Reference', ref, mine)] }] satisfies ReportBlock[],
    };
  });
  const events: ReportBlock = {
    kind: 'details',
    summary: 'The ReplicaSet controller\'s events',
    blocks: [{
      kind: 'sides',
      sides: ([['Your code', learner], ['Reference', reference]] as const).map(([title, run]) => ({
        title,
        blocks: [{ kind: 'pre', text: run.events.join('\n') || '(none)' }],
      })),
    }],
  };
  return [{ kind: 'steps', steps }, events];
}

function change(step: ScenarioStep, name: string): string {
  if (step.created.includes(name) && step.deleted.includes(name)) return 'created, then deleted';
  if (step.created.includes(name)) return 'created';
  if (step.deleted.includes(name)) return 'deleted';
  if (step.evicted.includes(name)) return 'evicted';
  return '';
}

function podRows(step: ScenarioStep): { name: string; cells: string[] }[] {
  const gone = step.deleted.filter((n) => !step.pods.some((p) => p.name === n));
  const rows = step.pods.map((p) => ({ name: p.name, cells: [p.name, p.node || '(none)', p.deleting ? `Terminating (${p.phase})` : p.phase, change(step, p.name)] }));
  for (const name of gone) rows.push({ name, cells: [name, '', 'gone', change(step, name)] });
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

function stepSide(title: string, step: ScenarioStep | undefined, other: ScenarioStep | undefined): { title: string; blocks: ReportBlock[] } {
  if (!step) return { title, blocks: [{ kind: 'note', text: 'The run stopped before this step.' }] };
  const active = step.pods.filter((p) => !p.deleting).length;
  const note = `${active} active of ${step.desired} desired${step.converged ? ', all Running' : ', not converged'}. Nodes: ${step.nodes.map((n) => `${n.name} ${n.ready ? 'Ready' : 'NotReady'}`).join(', ')}.`;
  const otherRows = new Map((other ? podRows(other) : []).map((r) => [r.name, JSON.stringify(r.cells)]));
  const rows: ReportRow[] = podRows(step).map((r) => {
    const differs = other !== undefined && otherRows.get(r.name) !== JSON.stringify(r.cells);
    return { cells: differs ? [`≠ ${r.cells[0]}`, ...r.cells.slice(1)] : r.cells, differs };
  });
  return {
    title,
    blocks: [
      { kind: 'note', text: note },
      { kind: 'table', caption: `${title}: pods after step`, head: ['Pod', 'Node', 'Phase', 'What happened'], rows },
    ],
  };
}
