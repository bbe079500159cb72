// "Run in cluster" for the scheduler-scoring lab (see ../lab-scenario.ts): a cluster whose
// kube-scheduler scores nodes with the learner's LeastAllocated and BalancedAllocation plugins (an
// out-of-tree registry in plugins.schedulerRegistry, enabled by a KubeSchedulerConfiguration in
// place of the built-in scores, with the default weights), beside a cluster with the built-in
// plugins, on the same seed. Four differently sized workers receive a stream of pods with varied
// requests, one at a time; the result is where each pod landed and the per-node scores the scheduler
// recorded in the kube-scheduler-simulator annotations.
// The lab's other three functions (defaultNormalizeScore, sumWeightedScores, selectHost) are not
// plugged in: kube-scheduler's framework does that arithmetic itself and offers no plugin point for it.
import type { Pod } from '../../runtime/api/index.ts';
import { FINAL_SCORE_RESULT, SCORE_RESULT, type KubeSchedulerConfiguration, type ResourceSpec, type ScorePlugin } from '../../runtime/scheduler/index.ts';
import { createRng, guardScorePlugin, type Cluster, type Rng, type WorkerSpec } from '../../runtime/index.ts';
import { kubectlJson, mustRun, type LabComparison, type LabScenario, type ReportBlock, type StoryContext } from '../lab-scenario.ts';

/** The lab's two plugin constructors (its exports newLeastAllocated and newBalancedAllocation). */
export interface LearnerScorePlugins {
  newLeastAllocated: (resources?: ResourceSpec[]) => ScorePlugin;
  newBalancedAllocation: (resources?: ResourceSpec[]) => ScorePlugin;
}

/** One node's scores for one pod: each resource plugin's raw Score and the weighted total of all plugins. */
export interface NodeScores {
  node: string;
  /** LeastAllocated's raw score as recorded (a string, as in the annotation); undefined if not scored. */
  leastAllocated?: string;
  balancedAllocation?: string;
  /** Sum over every Score plugin (taints, affinity, spreading, images too) of score x weight. */
  total: number;
}

export interface Placement {
  pod: string;
  /** What the pod asks for, e.g. "cpu 250m, memory 512Mi" or "nothing (best-effort)". */
  requests: string;
  /** Where it landed ('' while Pending). */
  node: string;
  /** Per feasible node, in node-name order; empty when only one node fitted (no scoring). */
  scores: NodeScores[];
  /** Why it is still Pending (the PodScheduled condition's message), if it is. */
  pending?: string;
}

export interface SchedulerRun {
  nodes: { name: string; cpu: string; memory: string }[];
  placements: Placement[];
  /** What stopped the run early: the learner's code failing, or a budget. */
  error?: string;
}

/** Per pod (reference order): whether the node and the resource scores match the reference. */
export interface PlacementRow {
  pod: string;
  sameNode: boolean;
  sameScores: boolean;
}

export const SCHEDULER_WORKERS: readonly Required<Pick<WorkerSpec, 'name' | 'cpu' | 'memory'>>[] = [
  { name: 'worker-1', cpu: '2', memory: '4Gi' },
  { name: 'worker-2', cpu: '4', memory: '8Gi' },
  { name: 'worker-3', cpu: '8', memory: '4Gi' },
  { name: 'worker-4', cpu: '2', memory: '16Gi' },
];
const POD_COUNT = 12;
const POD_BIND_WAIT_MS = 10_000;

/** Registry names of the learner's plugins in the "Run in cluster" scheduler profile. */
export const LEARNER_LEAST_ALLOCATED = 'YourLeastAllocated';
export const LEARNER_BALANCED_ALLOCATION = 'YourBalancedAllocation';
/** NodeResourcesFitArgs' default scoring resources (SetDefaults_NodeResourcesFitArgs). */
const DEFAULT_SCORING_RESOURCES: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

/** The learner's plugins replace the two resource scores; everything else stays the default profile. */
export function learnerSchedulerConfiguration(): KubeSchedulerConfiguration {
  return {
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    profiles: [{
      schedulerName: 'default-scheduler',
      plugins: {
        score: {
          disabled: [{ name: 'NodeResourcesFit' }, { name: 'NodeResourcesBalancedAllocation' }],
          enabled: [{ name: LEARNER_LEAST_ALLOCATED, weight: 1 }, { name: LEARNER_BALANCED_ALLOCATION, weight: 1 }],
        },
      },
    }],
  };
}

const scenario: LabScenario<SchedulerRun> = {
  exports: ['newLeastAllocated', 'newBalancedAllocation'],
  budgetMs: 5 * 60_000,
  visibleMutant: 'least-no-defaults.ts',
  cluster: (seed) => ({ seed, topology: 'managed', etcdMembers: 1, workers: SCHEDULER_WORKERS.map((w) => ({ ...w })) }),
  plug: (exports, faults) => {
    const learner = exports as unknown as LearnerScorePlugins;
    const copyResources = () => DEFAULT_SCORING_RESOURCES.map((r) => ({ ...r }));
    return {
      scheduler: learnerSchedulerConfiguration(),
      plugins: {
        // an out-of-tree registry holding the learner's two Score plugins under their own names, so the
        // configuration can enable them in place of the built-in scores while the built-in
        // NodeResourcesFit keeps filtering ("Insufficient cpu")
        schedulerRegistry: {
          [LEARNER_LEAST_ALLOCATED]: () => guardScorePlugin(LEARNER_LEAST_ALLOCATED, 'newLeastAllocated', () => learner.newLeastAllocated(copyResources()), faults),
          [LEARNER_BALANCED_ALLOCATION]: () => guardScorePlugin(LEARNER_BALANCED_ALLOCATION, 'newBalancedAllocation', () => learner.newBalancedAllocation(copyResources()), faults),
        },
      },
    };
  },
  start: () => ({ nodes: SCHEDULER_WORKERS.map((w) => ({ ...w })), placements: [] }),
  story: playStory,
  compare: compareRuns,
};
export default scenario;

async function playStory(cluster: Cluster, run: SchedulerRun, ctx: StoryContext): Promise<void> {
  await ctx.advance(10_000); // the scheduler takes its lease, kubelets register
  ctx.progress('the cluster is up');
  for (const pod of podStream(ctx.seed)) {
    await mustRun(cluster, 'apply -f -', podYaml(pod));
    run.placements.push(await placementOf(cluster, ctx, pod));
    ctx.progress(`${pod.name} placed`);
  }
}

export interface StreamPod {
  name: string;
  /** Per container: requests as Kubernetes quantities (a missing key is a missing request). */
  containers: { cpu?: string; memory?: string }[];
}

const CPU_CHOICES = ['100m', '250m', '500m', '750m', '1'];
const MEMORY_CHOICES = ['128Mi', '256Mi', '512Mi', '1Gi', '1536Mi'];

/**
 * A deterministic stream: the first four pods cover the shapes the lab's rules treat specially (no
 * requests at all, CPU only, memory only, two containers of which one asks for nothing), the rest
 * draw CPU and memory requests from the seed.
 */
export function podStream(seed: number): StreamPod[] {
  const rng = createRng(seed).fork('run-in-cluster/pod-stream');
  const pick = (choices: string[]) => choices[rng.nextInt(choices.length)]!;
  const shapes: ((r: Rng) => StreamPod['containers'])[] = [
    () => [{}],
    () => [{ cpu: pick(CPU_CHOICES) }],
    () => [{ memory: pick(MEMORY_CHOICES) }],
    () => [{ cpu: pick(CPU_CHOICES), memory: pick(MEMORY_CHOICES) }, {}],
  ];
  return Array.from({ length: POD_COUNT }, (_, i) => ({
    name: `pod-${String(i + 1).padStart(2, '0')}`,
    containers: shapes[i]?.(rng) ?? [{ cpu: pick(CPU_CHOICES), memory: pick(MEMORY_CHOICES) }],
  }));
}

function podYaml(pod: StreamPod): string {
  const containers = pod.containers.map((c, i) => {
    const requests = Object.entries(c).map(([k, v]) => `${k}: "${v}"`).join(', ');
    return `  - name: c${i}\n    image: registry.k8s.io/pause:3.10\n${requests ? `    resources:\n      requests: { ${requests} }\n` : ''}`;
  });
  return `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${pod.name}\n  labels: { app: stream }\nspec:\n  containers:\n${containers.join('')}`;
}

export function describeRequests(pod: StreamPod): string {
  const parts = pod.containers.map((c) => {
    const asked = Object.entries(c).map(([k, v]) => `${k} ${v}`);
    return asked.length > 0 ? asked.join(', ') : 'nothing';
  });
  if (parts.every((p) => p === 'nothing')) return 'nothing (best-effort)';
  return parts.length === 1 ? parts[0]! : parts.map((p, i) => `c${i}: ${p}`).join('; ');
}

/** Waits until the pod is bound and its scores are recorded, or it is reported unschedulable. */
async function placementOf(cluster: Cluster, ctx: StoryContext, pod: StreamPod): Promise<Placement> {
  const requests = describeRequests(pod);
  let waitedMs = 0;
  for (;;) {
    ctx.checkFaults();
    const live = await kubectlJson<Pod>(cluster, `get pod ${pod.name}`);
    const annotations = live?.metadata.annotations ?? {};
    const scored = annotations[SCORE_RESULT] !== undefined;
    const unschedulable = live?.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    if (live?.spec.nodeName && scored) {
      return { pod: pod.name, requests, node: live.spec.nodeName, scores: scoresOf(annotations) };
    }
    if (waitedMs >= POD_BIND_WAIT_MS) {
      return { pod: pod.name, requests, node: live?.spec.nodeName ?? '', scores: scoresOf(annotations), pending: unschedulable?.message ?? 'not scheduled yet' };
    }
    await ctx.advance(500);
    waitedMs += 500;
  }
}

type PerNode = Record<string, Record<string, string>>;

function scoresOf(annotations: Record<string, string>): NodeScores[] {
  const raw = parse(annotations[SCORE_RESULT]);
  const final = parse(annotations[FINAL_SCORE_RESULT]);
  return Object.keys(final).sort().map((node) => {
    const r = raw[node] ?? {};
    const least = r[LEARNER_LEAST_ALLOCATED] ?? r['NodeResourcesFit'];
    const balanced = r[LEARNER_BALANCED_ALLOCATION] ?? r['NodeResourcesBalancedAllocation'];
    return {
      node,
      ...(least === undefined ? {} : { leastAllocated: least }),
      ...(balanced === undefined ? {} : { balancedAllocation: balanced }),
      total: Object.values(final[node] ?? {}).reduce((sum, v) => sum + Number(v), 0),
    };
  });
}

function parse(json: string | undefined): PerNode {
  if (!json) return {};
  return JSON.parse(json) as PerNode;
}

// ---- the comparison and what the page shows ----

/** Pod by pod, in the reference's order: the same node, the same resource scores? */
export function placementRows(learner: SchedulerRun, reference: SchedulerRun): PlacementRow[] {
  return reference.placements.map((ref) => {
    const mine = learner.placements.find((p) => p.pod === ref.pod);
    return {
      pod: ref.pod,
      sameNode: mine !== undefined && mine.node === ref.node,
      sameScores: mine !== undefined && sameScores(mine.scores, ref.scores),
    };
  });
}

/** A plugin the profile skipped for this pod (PreScore said Skip) counts as 0, as it adds nothing. */
function sameScores(a: readonly NodeScores[], b: readonly NodeScores[]): boolean {
  const num = (s: string | undefined) => (s === undefined ? 0 : Number(s));
  return a.length === b.length && a.every((x, i) => {
    const y = b[i]!;
    return x.node === y.node && x.total === y.total &&
      num(x.leastAllocated) === num(y.leastAllocated) && num(x.balancedAllocation) === num(y.balancedAllocation);
  });
}

function compareRuns(learner: SchedulerRun, reference: SchedulerRun): LabComparison {
  const rows = placementRows(learner, reference);
  const first = rows.find((r) => !r.sameNode || !r.sameScores)?.pod;
  const moved = rows.filter((r) => !r.sameNode).length;
  let summary: string;
  if (learner.error) summary = `Your code stopped the run after ${learner.placements.length} of ${reference.placements.length} pods.`;
  else if (first === undefined) summary = `Your plugins placed all ${rows.length} pods where the built-in ones did, with the same scores.`;
  else summary = `Your plugins first differ from the built-in ones at ${first}; ${moved} of ${rows.length} pods landed on another node.`;
  return {
    summary,
    ...(first === undefined ? {} : { firstDifference: first }),
    ...(learner.error ? { learnerError: learner.error } : {}),
    report: report(learner, reference, rows, first),
  };
}

function report(learner: SchedulerRun, reference: SchedulerRun, rows: PlacementRow[], first: string | undefined): ReportBlock[] {
  const byPod = (run: SchedulerRun) => new Map(run.placements.map((p) => [p.pod, p]));
  const mine = byPod(learner);
  const ref = byPod(reference);
  const where = (p: Placement | undefined) => (!p ? '(not run)' : p.node || `Pending: ${p.pending ?? ''}`);
  const placed = rows.map((r) => {
    const verdict = r.sameNode && r.sameScores ? 'same' : !r.sameNode ? '≠ node differs' : '≠ scores differ';
    return { cells: [r.pod, ref.get(r.pod)?.requests ?? '', where(mine.get(r.pod)), where(ref.get(r.pod)), verdict], differs: !r.sameNode || !r.sameScores };
  });
  const perPod: ReportBlock[] = rows.map((r) => {
    const differs = !r.sameNode || !r.sameScores;
    return {
      kind: 'details',
      summary: `${differs ? '≠ ' : ''}${r.pod}: yours ${where(mine.get(r.pod))}, reference ${where(ref.get(r.pod))}`,
      open: r.pod === first,
      blocks: [scoreTable(r.pod, mine.get(r.pod)?.scores ?? [], ref.get(r.pod)?.scores ?? [])],
    };
  });
  return [
    { kind: 'note', text: `Workers: ${reference.nodes.map((n) => `${n.name} (${n.cpu} CPU, ${n.memory})`).join(', ')}.` },
    { kind: 'table', caption: 'Where each pod landed', head: ['Pod', 'Requests', 'Your plugins', 'Built-in plugins', 'Match'], rows: placed },
    {
      kind: 'section',
      title: 'Scores per node',
      blocks: [
        { kind: 'note', text: 'LeastAllocated and BalancedAllocation are the raw scores (yours / reference); the total adds every Score plugin times its weight. "skipped": the plugin\'s PreScore skipped this pod.' },
        ...perPod,
      ],
    },
  ];
}

function scoreTable(pod: string, mine: NodeScores[], ref: NodeScores[]): ReportBlock {
  const nodes = [...new Set([...ref, ...mine].map((s) => s.node))].sort();
  const show = (v: string | number | undefined) => (v === undefined ? 'skipped' : String(v));
  const rows = nodes.map((node) => {
    const a = mine.find((s) => s.node === node);
    const b = ref.find((s) => s.node === node);
    const pair = (x: string | number | undefined, y: string | number | undefined) => `${show(x)} / ${show(y)}`;
    const cells = [node, pair(a?.leastAllocated, b?.leastAllocated), pair(a?.balancedAllocation, b?.balancedAllocation), pair(a?.total, b?.total)];
    const num = (v: string | undefined) => Number(v ?? 0);
    const differs = !a || !b || a.total !== b.total || num(a.leastAllocated) !== num(b.leastAllocated) || num(a.balancedAllocation) !== num(b.balancedAllocation);
    return { cells: differs ? [`≠ ${node}`, ...cells.slice(1)] : cells, differs };
  });
  return { kind: 'table', caption: `Scores for ${pod}, yours / reference`, head: ['Node', 'LeastAllocated', 'BalancedAllocation', 'Total'], rows };
}
