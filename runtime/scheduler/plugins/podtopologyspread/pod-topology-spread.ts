// mirrors pkg/scheduler/framework/plugins/podtopologyspread/{filtering.go,scoring.go,plugin.go}.
// Filter (whenUnsatisfiable: DoNotSchedule): placing the pod on a node must keep
//   matching pods in the node's domain + 1 if the pod matches itself - global minimum <= maxSkew.
// Score (ScheduleAnyway): each node is charged the matching pods in its domain, weighted by
//   log(number of domains + 2), plus maxSkew - 1; NormalizeScore reverses so the emptiest domain wins.
// Simplification: upstream's system default constraints (applied to pods with no constraints,
// selecting by their Services/ReplicaSets) are not modeled: a pod without constraints is not spread.
import { MAX_NODE_SCORE, type CycleState, type NodeScore, type ScorePlugin } from '../../framework/interface.ts';
import type { FilterPlugin, PreFilterPlugin, PreScorePlugin, StateData } from '../../framework/cycle.ts';
import type { SchedNodeInfo } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import { errorStatus, skip, success, unresolvable, unschedulable } from '../../framework/status.ts';
import {
  countPodsMatchSelector,
  matchNodeInclusionPolicies,
  nodeLabelsMatchSpreadConstraints,
  podConstraints,
  type Constraint,
} from './constraints.ts';

export const NAME = 'PodTopologySpread';
export const ERR_REASON_CONSTRAINTS_NOT_MATCH =
  "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH =
  ERR_REASON_CONSTRAINTS_NOT_MATCH + ' (missing required label)';
const PRE_FILTER_KEY = 'PreFilter' + NAME;
const PRE_SCORE_KEY = 'PreScore' + NAME;
const LABEL_HOSTNAME = 'kubernetes.io/hostname';
const MAX_INT32 = 2147483647;

/** preFilterState; a StateData, so a preemption dry run counts on its own copy. */
class PreFilterState implements StateData {
  constructor(
    readonly constraints: Constraint[],
    /** Per constraint: topology value -> matching pods in that domain. */
    readonly tpValueToMatchNum: Map<string, number>[],
  ) {}

  clone(): PreFilterState {
    return new PreFilterState(this.constraints, this.tpValueToMatchNum.map((m) => new Map(m)));
  }
}

interface PreScoreState {
  constraints: Constraint[];
  ignoredNodes: Set<string>;
  tpValueToPodCounts: Map<string, number>[];
  normalizingWeight: number[];
}

/** calPreFilterState: counts matching pods per domain over every eligible node. */
export function calPreFilterState(
  pod: SchedPodInfo,
  constraints: Constraint[],
  allNodes: readonly SchedNodeInfo[],
): PreFilterState {
  const tpValueToMatchNum = constraints.map(() => new Map<string, number>());
  for (const n of allNodes) {
    const node = n.node;
    if (!node || !nodeLabelsMatchSpreadConstraints(node, constraints)) continue;
    constraints.forEach((c, i) => {
      if (!matchNodeInclusionPolicies(c, pod.pod, node)) return;
      const value = node.labels[c.topologyKey]!;
      const m = tpValueToMatchNum[i]!;
      m.set(value, (m.get(value) ?? 0) + countPodsMatchSelector(n.pods, c.selector, pod.namespace));
    });
  }
  return new PreFilterState(constraints, tpValueToMatchNum);
}

/**
 * updateWithPod (filtering.go, behind AddPod and RemovePod): a pod of the preemptor's namespace
 * added to or removed from a node counts in each domain whose constraint selects it, on nodes the
 * constraints and node inclusion policies admit. Upstream then updates its two "critical paths"
 * (the smallest domains) incrementally, which after several changes can overstate the minimum;
 * here the minimum is recomputed from the counts.
 */
export function updateWithPod(s: PreFilterState, updated: SchedPodInfo, preemptor: SchedPodInfo, nodeInfo: SchedNodeInfo, delta: 1 | -1): void {
  const node = nodeInfo.node;
  if (updated.namespace !== preemptor.namespace || !node) return;
  if (!nodeLabelsMatchSpreadConstraints(node, s.constraints)) return;
  s.constraints.forEach((c, i) => {
    if (!c.selector.matches(updated.labels)) return;
    if (!matchNodeInclusionPolicies(c, preemptor.pod, node)) return;
    const value = node.labels[c.topologyKey]!;
    const m = s.tpValueToMatchNum[i]!;
    m.set(value, (m.get(value) ?? 0) + delta);
  });
}

/** The global minimum for constraint i, or 0 while fewer than minDomains domains exist. */
function minMatchNum(s: PreFilterState, i: number): number {
  const m = s.tpValueToMatchNum[i]!;
  if (m.size < s.constraints[i]!.minDomains) return 0;
  let min = MAX_INT32;
  for (const v of m.values()) if (v < min) min = v;
  return min;
}

export function filterWithState(s: PreFilterState, pod: SchedPodInfo, nodeInfo: SchedNodeInfo) {
  const node = nodeInfo.node;
  if (!node) return errorStatus('node not found');
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    const value = node.labels[c.topologyKey];
    if (value === undefined) return unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
    const selfMatch = c.selector.matches(pod.labels) ? 1 : 0;
    const matchNum = s.tpValueToMatchNum[i]!.get(value) ?? 0;
    if (matchNum + selfMatch - minMatchNum(s, i) > c.maxSkew)
      return unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);
  }
  return success();
}

/** log(size + 2): more domains, more weight per matching pod. */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

export function scoreForCount(cnt: number, maxSkew: number, tpWeight: number): number {
  return cnt * tpWeight + (maxSkew - 1);
}

/** initPreScoreState plus the counting pass over all nodes. */
export function calPreScoreState(
  pod: SchedPodInfo,
  constraints: Constraint[],
  filtered: readonly SchedNodeInfo[],
  allNodes: readonly SchedNodeInfo[],
): PreScoreState {
  const ignoredNodes = new Set<string>();
  const tpValueToPodCounts = constraints.map(() => new Map<string, number>());
  for (const n of filtered) {
    const node = n.node!;
    if (!nodeLabelsMatchSpreadConstraints(node, constraints)) {
      ignoredNodes.add(node.name);
      continue;
    }
    constraints.forEach((c, i) => {
      if (c.topologyKey !== LABEL_HOSTNAME)
        tpValueToPodCounts[i]!.set(node.labels[c.topologyKey]!, 0);
    });
  }
  const normalizingWeight = constraints.map((c, i) =>
    topologyNormalizingWeight(
      c.topologyKey === LABEL_HOSTNAME
        ? filtered.length - ignoredNodes.size
        : tpValueToPodCounts[i]!.size,
    ),
  );
  for (const n of allNodes) {
    const node = n.node;
    if (!node || !nodeLabelsMatchSpreadConstraints(node, constraints)) continue;
    constraints.forEach((c, i) => {
      if (!matchNodeInclusionPolicies(c, pod.pod, node)) return;
      const m = tpValueToPodCounts[i]!;
      const value = node.labels[c.topologyKey]!;
      const current = m.get(value);
      if (current === undefined) return; // not a candidate domain (and never for hostname)
      m.set(value, current + countPodsMatchSelector(n.pods, c.selector, pod.namespace));
    });
  }
  return { constraints, ignoredNodes, tpValueToPodCounts, normalizingWeight };
}

export function scoreWithState(
  s: PreScoreState,
  pod: SchedPodInfo,
  nodeInfo: SchedNodeInfo,
): number {
  const node = nodeInfo.node!;
  if (s.ignoredNodes.has(node.name)) return 0;
  let score = 0;
  s.constraints.forEach((c, i) => {
    const value = node.labels[c.topologyKey];
    if (value === undefined) return;
    const cnt =
      c.topologyKey === LABEL_HOSTNAME
        ? countPodsMatchSelector(nodeInfo.pods, c.selector, pod.namespace)
        : (s.tpValueToPodCounts[i]!.get(value) ?? 0);
    score += scoreForCount(cnt, c.maxSkew, s.normalizingWeight[i]!);
  });
  return Math.round(score);
}

/** NormalizeScore: ignored nodes 0; otherwise 100 * (max + min - score) / max. */
export function normalizeWithState(
  s: PreScoreState | undefined,
  scores: readonly NodeScore[],
): NodeScore[] {
  if (!s) return scores.map((x) => ({ ...x }));
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  for (const x of scores) {
    if (s.ignoredNodes.has(x.name)) continue;
    min = Math.min(min, x.score);
    max = Math.max(max, x.score);
  }
  return scores.map((x) => {
    if (s.ignoredNodes.has(x.name)) return { name: x.name, score: 0 };
    if (max === 0) return { name: x.name, score: MAX_NODE_SCORE };
    return { name: x.name, score: Math.trunc((MAX_NODE_SCORE * (max + min - x.score)) / max) };
  });
}

function updateStateWithPod(state: CycleState, updated: SchedPodInfo, preemptor: SchedPodInfo, nodeInfo: SchedNodeInfo, delta: 1 | -1) {
  const s = state.get(PRE_FILTER_KEY);
  if (!(s instanceof PreFilterState)) return errorStatus(`reading "${PRE_FILTER_KEY}" from cycleState: not found`);
  updateWithPod(s, updated, preemptor, nodeInfo, delta);
  return success();
}

export function newPodTopologySpread(): PreFilterPlugin &
  FilterPlugin &
  PreScorePlugin &
  ScorePlugin {
  return {
    name: NAME,
    preFilter(state, pod, ctx) {
      const parsed = podConstraints(pod.pod, 'DoNotSchedule');
      if (!parsed.ok) return [null, errorStatus(parsed.error)];
      if (parsed.constraints.length === 0) return [null, skip()];
      state.set(PRE_FILTER_KEY, calPreFilterState(pod, parsed.constraints, ctx.allNodes));
      return [null, success()];
    },
    preFilterExtensions: () => ({
      addPod: (state, pod, podToAdd, nodeInfo) => updateStateWithPod(state, podToAdd, pod, nodeInfo, 1),
      removePod: (state, pod, podToRemove, nodeInfo) => updateStateWithPod(state, podToRemove, pod, nodeInfo, -1),
    }),
    filter(state, pod, nodeInfo) {
      const s = state.get(PRE_FILTER_KEY) as PreFilterState | undefined;
      if (!s) return errorStatus(`reading "${PRE_FILTER_KEY}" from cycleState: not found`);
      return filterWithState(s, pod, nodeInfo);
    },
    preScore(state, pod, nodes, ctx) {
      const parsed = podConstraints(pod.pod, 'ScheduleAnyway');
      if (!parsed.ok) return errorStatus(parsed.error);
      if (parsed.constraints.length === 0) return skip();
      state.set(PRE_SCORE_KEY, calPreScoreState(pod, parsed.constraints, nodes, ctx.allNodes));
      return success();
    },
    score(state, pod, nodeInfo) {
      const s = state.get(PRE_SCORE_KEY) as PreScoreState | undefined;
      if (!s) return [0, errorStatus(`reading "${PRE_SCORE_KEY}" from cycleState: not found`)];
      return [scoreWithState(s, pod as SchedPodInfo, nodeInfo as SchedNodeInfo), success()];
    },
    scoreExtensions: () => ({
      normalizeScore: (state, _pod, scores) => [
        normalizeWithState(state.get(PRE_SCORE_KEY) as PreScoreState | undefined, scores),
        success(),
      ],
    }),
  };
}
