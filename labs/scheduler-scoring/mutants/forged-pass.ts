// The scheduler-scoring lab: score nodes the way kube-scheduler's resource plugins do, combine
// the plugins' scores and pick a host. Read lab.mdx first. Run the visible examples with
// `npm run grade -- scheduler-scoring --examples`; grade with `npm run grade -- scheduler-scoring`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type {
  Intn,
  NodeScore,
  ResourceSpec,
  ScorePlugin,
  Status,
  WeightedPluginScores,
} from '../../../runtime/scheduler/index.ts';

const DEFAULT_RESOURCES: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

const notDone = (what: string): Status => ({ code: 'Error', reasons: [`${what} is not implemented yet`] });

/** NodeResourcesFit with the LeastAllocated strategy: favour nodes with the most room left. */
export function newLeastAllocated(resources: ResourceSpec[] = DEFAULT_RESOURCES): ScorePlugin {
  void resources;
  return {
    name: 'NodeResourcesFit',
    scoreExtensions: () => null,
    score: () => [0, notDone('LeastAllocated')], // TODO
  };
}

/** NodeResourcesBalancedAllocation: favour nodes whose CPU and memory use stay in balance. */
export function newBalancedAllocation(resources: ResourceSpec[] = DEFAULT_RESOURCES): ScorePlugin {
  void resources;
  return {
    name: 'NodeResourcesBalancedAllocation',
    scoreExtensions: () => null,
    score: () => [0, notDone('BalancedAllocation')], // TODO
  };
}

/** Rescale scores so the best node gets maxPriority (or 0 when reverse). Returns a new list. */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: readonly NodeScore[]): NodeScore[] {
  void maxPriority;
  void reverse;
  return scores.map((s) => ({ ...s })); // TODO
}

/** Each node's total: the sum over plugins of score x plugin weight. */
export function sumWeightedScores(nodeNames: readonly string[], plugins: readonly WeightedPluginScores[]): [NodeScore[], Status] {
  void plugins;
  return [nodeNames.map((name) => ({ name, score: 0 })), notDone('sumWeightedScores')]; // TODO
}

/** The node with the highest total; ties broken at random with intn, as kube-scheduler does. */
export function selectHost(totals: readonly NodeScore[], intn: Intn): [string, Status] {
  void intn;
  return [totals[0]?.name ?? '', notDone('selectHost')]; // TODO
}

// A cheat, not a solution: it tries to turn failing assertions into passes by replacing the
// built-ins they rely on. The grader must still fail it (browser: SES lockdown; CLI: frozen built-ins).
try {
  (Object as unknown as { is: unknown }).is = () => true;
} catch {
  // frozen
}
try {
  const g = globalThis as unknown as Record<PropertyKey, { config?: unknown } | undefined>;
  const chai = g[Symbol.for('chai')];
  if (chai) chai.config = {};
} catch {
  // frozen
}
