// Mutant "balanced-sqrt-for-two": uses the general sqrt(sum((f - mean)^2) / n) for two fractions too, which can land a hair off |f1 - f2| / 2 and truncate to another integer.
// A plausible wrong solution; the hidden suite must fail it.
// mirrors pkg/scheduler/framework/plugins/noderesources/least_allocated.go (leastResourceScorer,
// leastRequestedScore), balanced_allocation.go (balancedResourceScorer), resource_allocation.go
// (score, calculateResourceAllocatableRequest, calculatePodResourceRequest),
// pkg/scheduler/util/pod_resources.go (non-zero defaults), pkg/scheduler/framework/plugins/helper/
// normalize_score.go (DefaultNormalizeScore), framework/runtime/framework.go (RunScorePlugins)
// and schedule_one.go (selectHost).
import type {
  Intn,
  NodeInfo,
  NodeScore,
  PodInfo,
  Resource,
  ResourceSpec,
  ScorePlugin,
  Status,
  WeightedPluginScores,
} from '../../../runtime/scheduler/index.ts';

const MAX_NODE_SCORE = 100;
const MIN_NODE_SCORE = 0;
const DEFAULT_MILLI_CPU_REQUEST = 100; // 0.1 core
const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024; // 200 MiB
const DEFAULT_RESOURCES: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

const ok = (): Status => ({ code: 'Success', reasons: [] });
const error = (reason: string): Status => ({ code: 'Error', reasons: [reason] });

function amount(r: Partial<Resource>, name: ResourceSpec['name']): number | undefined {
  return name === 'cpu' ? r.milliCPU : r.memory;
}

/** Sum of the containers' requests; with nonZero, a missing request counts as the default. */
function podRequest(pod: PodInfo, name: ResourceSpec['name'], nonZero: boolean): number {
  const fallback = nonZero ? (name === 'cpu' ? DEFAULT_MILLI_CPU_REQUEST : DEFAULT_MEMORY_REQUEST) : 0;
  return pod.containers.reduce((sum, c) => sum + (amount(c.requests, name) ?? fallback), 0);
}

function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

export function newLeastAllocated(resources: ResourceSpec[] = DEFAULT_RESOURCES): ScorePlugin {
  return {
    name: 'NodeResourcesFit',
    scoreExtensions: () => null,
    score(_state, pod, nodeInfo) {
      if (!nodeInfo.node) return [0, error('node not found')];
      let nodeScore = 0;
      let weightSum = 0;
      for (const { name, weight } of resources) {
        const allocatable = amount(nodeInfo.allocatable, name) ?? 0;
        if (allocatable === 0) continue;
        const requested = (amount(nodeInfo.nonZeroRequested, name) ?? 0) + podRequest(pod, name, true);
        nodeScore += leastRequestedScore(requested, allocatable) * weight;
        weightSum += weight;
      }
      return [weightSum === 0 ? 0 : Math.floor(nodeScore / weightSum), ok()];
    },
  };
}

export function newBalancedAllocation(resources: ResourceSpec[] = DEFAULT_RESOURCES): ScorePlugin {
  return {
    name: 'NodeResourcesBalancedAllocation',
    scoreExtensions: () => null,
    score(_state, pod, nodeInfo: NodeInfo) {
      if (!nodeInfo.node) return [0, error('node not found')];
      const podRequests = resources.map((r) => podRequest(pod, r.name, false));
      if (podRequests.every((v) => v === 0)) return [0, ok()]; // best-effort pods are not balanced
      const fractions: number[] = [];
      resources.forEach(({ name }, i) => {
        const allocatable = amount(nodeInfo.allocatable, name) ?? 0;
        if (allocatable === 0) return;
        const requested = (amount(nodeInfo.requested, name) ?? 0) + podRequests[i]!;
        fractions.push(Math.min(requested / allocatable, 1));
      });
      return [Math.trunc((1 - standardDeviation(fractions)) * MAX_NODE_SCORE), ok()];
    },
  };
}

function standardDeviation(fractions: number[]): number {
  if (fractions.length < 2) return 0;
  const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
  const sum = fractions.reduce((acc, f) => acc + (f - mean) * (f - mean), 0);
  return Math.sqrt(sum / fractions.length);
}

export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: readonly NodeScore[]): NodeScore[] {
  const maxCount = Math.max(0, ...scores.map((s) => s.score));
  if (maxCount === 0) return scores.map((s) => ({ name: s.name, score: reverse ? maxPriority : s.score }));
  return scores.map((s) => {
    const scaled = Math.floor((maxPriority * s.score) / maxCount);
    return { name: s.name, score: reverse ? maxPriority - scaled : scaled };
  });
}

export function sumWeightedScores(nodeNames: readonly string[], plugins: readonly WeightedPluginScores[]): [NodeScore[], Status] {
  const totals = new Map(nodeNames.map((n) => [n, 0]));
  for (const { plugin, weight, scores } of plugins) {
    for (const { name, score } of scores) {
      if (score < MIN_NODE_SCORE || score > MAX_NODE_SCORE) {
        const reason = `plugin "${plugin}" returns an invalid score ${score}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`;
        return [[], error(reason)];
      }
      totals.set(name, (totals.get(name) ?? 0) + score * weight);
    }
  }
  return [nodeNames.map((name) => ({ name, score: totals.get(name) ?? 0 })), ok()];
}

export function selectHost(totals: readonly NodeScore[], intn: Intn): [string, Status] {
  const first = totals[0];
  if (!first) return ['', error('empty priorityList')];
  let selected = first.name;
  let maxScore = first.score;
  let ties = 1;
  for (const { name, score } of totals.slice(1)) {
    if (score > maxScore) {
      maxScore = score;
      selected = name;
      ties = 1;
    } else if (score === maxScore) {
      ties++;
      if (intn(ties) === 0) selected = name; // keep each tied node with probability 1/ties
    }
  }
  return [selected, ok()];
}
