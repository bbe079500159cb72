// "Run in cluster" for the scheduler-scoring lab: a cluster whose kube-scheduler scores nodes with
// the learner's LeastAllocated and BalancedAllocation plugins (enabled by a KubeSchedulerConfiguration
// in place of the built-in scores, with the default weights), beside a cluster with the built-in
// plugins, on the same seed. Four differently sized workers receive a stream of pods with varied
// requests, one at a time; the result is where each pod landed and the per-node scores the scheduler
// recorded in the kube-scheduler-simulator annotations.
// The lab's other three functions (defaultNormalizeScore, sumWeightedScores, selectHost) are not
// plugged in: kube-scheduler's framework does that arithmetic itself and offers no plugin point for it.
import type { Pod } from '../api/index.ts';
import { createRng, type Rng } from '../kernel/index.ts';
import { FINAL_SCORE_RESULT, SCORE_RESULT, type KubeSchedulerConfiguration } from '../scheduler/index.ts';
import { createCluster, type Cluster } from './cluster.ts';
import {
  LEARNER_BALANCED_ALLOCATION,
  LEARNER_LEAST_ALLOCATED,
  LearnerFaults,
  describeThrown,
  learnerScoreRegistry,
  type LearnerScorePlugins,
} from './learner-pieces.ts';
import type { WorkerSpec } from './options.ts';
import { kubectlJson, mustRun, SimulatedBudget, type ScenarioOptions } from './scenario-kubectl.ts';

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

export interface SchedulerComparison {
  learner: SchedulerRun;
  reference: SchedulerRun;
  /** Per pod (reference order): whether the node and the resource scores match the reference. */
  rows: { pod: string; sameNode: boolean; sameScores: boolean }[];
  /** The first pod whose node or scores differ from the reference's, if any. */
  firstDivergence?: string;
}

export const SCHEDULER_WORKERS: readonly Required<Pick<WorkerSpec, 'name' | 'cpu' | 'memory'>>[] = [
  { name: 'worker-1', cpu: '2', memory: '4Gi' },
  { name: 'worker-2', cpu: '4', memory: '8Gi' },
  { name: 'worker-3', cpu: '8', memory: '4Gi' },
  { name: 'worker-4', cpu: '2', memory: '16Gi' },
];
const POD_COUNT = 12;
const POD_BIND_WAIT_MS = 10_000;
export const SCHEDULER_BUDGET_MS = 5 * 60_000;

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

/** Runs the pod stream with the learner's plugins, or with the built-in ones when `learner` is undefined. */
export async function runSchedulerScenario(
  learner: LearnerScorePlugins | undefined,
  seed = 1,
  { budgetMs = SCHEDULER_BUDGET_MS, onProgress }: ScenarioOptions = {},
): Promise<SchedulerRun> {
  const faults = new LearnerFaults();
  const nodes = SCHEDULER_WORKERS.map((w) => ({ ...w }));
  const placements: Placement[] = [];
  try {
    const cluster = createCluster({
      seed,
      topology: 'managed',
      etcdMembers: 1,
      workers: nodes,
      ...(learner ? { scheduler: learnerSchedulerConfiguration(), plugins: { schedulerRegistry: learnerScoreRegistry(learner, faults) } } : {}),
    });
    const budget = new SimulatedBudget(cluster, budgetMs);
    await budget.advance(10_000); // the scheduler takes its lease, kubelets register
    onProgress?.('the cluster is up');
    for (const pod of podStream(seed)) {
      await mustRun(cluster, 'apply -f -', podYaml(pod));
      placements.push(await placementOf(cluster, budget, faults, pod));
      onProgress?.(`${pod.name} placed`);
    }
    faults.check();
    return { nodes, placements };
  } catch (error) {
    return { nodes, placements, error: describeThrown(faults.first ?? error) };
  }
}

/** The learner's run and the reference run on the same seed, pod by pod. */
export async function compareScorePlugins(learner: LearnerScorePlugins, seed = 1): Promise<SchedulerComparison> {
  const learnerRun = await runSchedulerScenario(learner, seed);
  const reference = await runSchedulerScenario(undefined, seed);
  return compareSchedulerRuns(learnerRun, reference);
}

export function compareSchedulerRuns(learner: SchedulerRun, reference: SchedulerRun): SchedulerComparison {
  const rows = reference.placements.map((ref) => {
    const mine = learner.placements.find((p) => p.pod === ref.pod);
    return {
      pod: ref.pod,
      sameNode: mine !== undefined && mine.node === ref.node,
      sameScores: mine !== undefined && sameScores(mine.scores, ref.scores),
    };
  });
  const first = rows.find((r) => !r.sameNode || !r.sameScores);
  return { learner, reference, rows, ...(first ? { firstDivergence: first.pod } : {}) };
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
async function placementOf(cluster: Cluster, budget: SimulatedBudget, faults: LearnerFaults, pod: StreamPod): Promise<Placement> {
  const requests = describeRequests(pod);
  let waitedMs = 0;
  for (;;) {
    faults.check();
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
    await budget.advance(500);
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
