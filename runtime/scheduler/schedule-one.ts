// One scheduling cycle as a pure function. mirrors pkg/scheduler/schedule_one.go (schedulePod,
// findNodesThatFitPod, findNodesThatPassFilters, prioritizeNodes, selectHost) and
// pkg/scheduler/framework/runtime/framework.go (RunPreFilterPlugins, RunFilterPlugins,
// RunPostFilterPlugins, RunPreScorePlugins, RunScorePlugins). Filters run sequentially from the
// rotating start index (upstream runs them in parallel; the set found can differ there).
// The snapshot is read, never changed: the caller assumes the pod on the chosen node.
import type { Pod, PodDisruptionBudget } from '../api/index.ts';
import {
  MAX_NODE_SCORE,
  MIN_NODE_SCORE,
  type CycleState,
  type Intn,
  type NodeScore,
  type Status,
} from './framework/interface.ts';
import { cloneCycleState, mergeNodeNames, type CycleContext, type FilterFn, type PostFilterResult } from './framework/cycle.ts';
import { addPod, cloneNodeInfo, type SchedNodeInfo } from './framework/node-info.ts';
import { newPodInfo, type SchedPodInfo } from './framework/pod-info.ts';
import type { Snapshot } from './framework/snapshot.ts';
import { errorStatus, isRejected, isSuccess, statusMessage, success, unresolvable } from './framework/status.ts';
import {
  PASSED_FILTER_MESSAGE,
  POST_FILTER_NOMINATED_MESSAGE,
  SUCCESS_MESSAGE,
  newCycleRecord,
  put,
  toAnnotations,
  type CycleRecord,
} from './annotations.ts';
import { fitErrorMessage } from './fit-error.ts';
import type { Profile } from './profile.ts';
import {
  NUMBER_OF_HIGHEST_SCORED_NODES_TO_REPORT,
  numFeasibleNodesToFind,
  selectHost,
} from './select-host.ts';

export interface ScheduleInput {
  profile: Profile;
  snapshot: Snapshot;
  pod: Pod | SchedPodInfo;
  /** rand.Intn from the kernel's seeded RNG (tie breaking). */
  intn: Intn;
  /** Where the previous cycle stopped filtering (Scheduler.nextStartNodeIndex). */
  nextStartNodeIndex: number;
  /** The configuration's global percentageOfNodesToScore (a profile value wins). */
  percentageOfNodesToScore?: number;
  /**
   * False: skip the per-node filter and score entries of the simulator's record (nobody will write
   * them as annotations: the scheduler on a big cluster); decisions are the same. Default true.
   */
  recordPerNode?: boolean;
  /** Pods preemption nominated to a node (the queue's nominator); none when undefined. */
  nominatedPods?: (nodeName: string) => readonly SchedPodInfo[];
  /** The PodDisruptionBudgets preemption respects (the scheduler's PDB lister); none when undefined. */
  pdbs?: readonly PodDisruptionBudget[];
  /** The kernel's clock in simulated ms (preemption orders victims by start time); 0 when undefined. */
  nowMs?: number;
}

/** framework.FitError, with the message formatted as upstream. */
export interface FitError {
  numAllNodes: number;
  nodeToStatus: ReadonlyMap<string, Status>;
  preFilterMsg: string;
  postFilterMsg: string;
  unschedulablePlugins: ReadonlySet<string>;
  message: string;
}

interface Common {
  /** Value for the next cycle's nextStartNodeIndex. */
  nextStartNodeIndex: number;
  /** The kube-scheduler-simulator annotations for this attempt. */
  annotations: Record<string, string>;
  record: CycleRecord;
}

export type ScheduleOutcome =
  | (Common & {
      kind: 'Scheduled';
      suggestedHost: string;
      evaluatedNodes: number;
      feasibleNodes: number;
      /** Top nodes by total score, the chosen one first (empty when one node was feasible). */
      topNodes: NodeScore[];
    })
  | (Common & { kind: 'Unschedulable'; fitError: FitError; nominated: PostFilterResult | null })
  | (Common & { kind: 'Error'; message: string });

interface Cycle {
  input: ScheduleInput;
  pod: SchedPodInfo;
  state: CycleState;
  ctx: CycleContext;
  record: CycleRecord;
  skipFilter: Set<string>;
  skipScore: Set<string>;
}

/** RunFilterPlugins: stops at the first plugin that does not return Success. */
function runFilters(
  c: Cycle,
  state: CycleState,
  pod: SchedPodInfo,
  info: SchedNodeInfo,
  record: boolean,
): [Status, string] {
  const name = info.node?.name ?? '';
  for (const pl of c.input.profile.filter) {
    if (c.skipFilter.has(pl.name)) continue;
    const s = pl.filter(state, pod, info);
    if (record)
      put(c.record.filter, name, pl.name, isSuccess(s) ? PASSED_FILTER_MESSAGE : statusMessage(s));
    if (!isSuccess(s)) return [s, pl.name];
  }
  return [success(), ''];
}

/**
 * RunFilterPluginsWithNominatedPods: when pods of equal or higher priority are nominated to the
 * node, filter first as if they ran there (addGENominatedPods, on copies of the node and of the
 * CycleState whose PreFilter states are told of each pod; the room preemption freed is theirs),
 * then, if that passes, as the node is.
 */
function runFiltersWithNominatedPods(
  c: Cycle,
  state: CycleState,
  pod: SchedPodInfo,
  info: SchedNodeInfo,
  record: boolean,
): [Status, string] {
  const nominated = (c.input.nominatedPods?.(info.node?.name ?? '') ?? []).filter(
    (p) => p.priority >= pod.priority && !samePod(p, pod),
  );
  if (nominated.length > 0) {
    const withNominated = cloneNodeInfo(info);
    const stateOut = cloneCycleState(state);
    for (const p of nominated) {
      addPod(withNominated, p);
      const added = runPreFilterExtension(c, 'addPod', stateOut, pod, p, withNominated);
      if (!isSuccess(added)) return [added, ''];
    }
    const first = runFilters(c, stateOut, pod, withNominated, record);
    if (!isSuccess(first[0])) return first;
  }
  return runFilters(c, state, pod, info, record);
}

/**
 * RunPreFilterExtensionAddPod / RemovePod: each PreFilter plugin that did not skip this cycle and
 * has extensions is told of the pod; the first failure is an Error naming the plugin.
 */
function runPreFilterExtension(
  c: Cycle,
  which: 'addPod' | 'removePod',
  state: CycleState,
  pod: SchedPodInfo,
  other: SchedPodInfo,
  info: SchedNodeInfo,
): Status {
  for (const pl of c.input.profile.preFilter) {
    if (c.skipFilter.has(pl.name)) continue;
    const ext = pl.preFilterExtensions?.();
    if (!ext) continue;
    const s = ext[which](state, pod, other, info);
    if (!isSuccess(s)) {
      const verb = which === 'addPod' ? 'AddPod' : 'RemovePod';
      return errorStatus(`running ${verb} on PreFilter plugin "${pl.name}": ${statusMessage(s)}`);
    }
  }
  return success();
}

function samePod(a: SchedPodInfo, b: SchedPodInfo): boolean {
  const ua = a.pod.metadata.uid;
  return ua !== undefined && ua !== '' ? ua === b.pod.metadata.uid : a.namespace === b.namespace && a.name === b.name;
}

type Step<T> = { ok: true; value: T } | { ok: false; outcome: ScheduleOutcome };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function finish(
  c: Cycle,
  nextStart: number,
  rest: DistributiveOmit<ScheduleOutcome, keyof Common>,
): ScheduleOutcome {
  const outcome = { ...rest, nextStartNodeIndex: nextStart, record: c.record } as ScheduleOutcome;
  // The annotations are rendered on first read (once per pod, by whoever writes them to the pod):
  // serializing thousands of per-node entries is the costliest step of a cycle on big clusters.
  let rendered: Record<string, string> | undefined;
  Object.defineProperty(outcome, 'annotations', {
    enumerable: true,
    get: () => (rendered ??= toAnnotations(c.record)),
  });
  return outcome;
}

/** What RunPreFilterPlugins returns: the status, the merged node set, the plugins behind both. */
interface PreFilterOutcome {
  status: Status;
  /** Only these nodes are worth filtering (PreFilterResult); null: all nodes. */
  nodeNames: ReadonlySet<string> | null;
  /** Plugins that narrowed the nodes, and the one that rejected the pod (diagnosis.UnschedulablePlugins). */
  plugins: Set<string>;
}

/**
 * RunPreFilterPlugins: an UnschedulableAndUnresolvable plugin ends the cycle at once; after an
 * Unschedulable one the others still run (preemption may need their state, kubernetes#119770).
 * Node sets returned by plugins are intersected (PreFilterResult.Merge); an empty intersection
 * rejects the pod, naming the plugins that returned sets.
 */
function runPreFilter(c: Cycle): Step<PreFilterOutcome> {
  let nodeNames: ReadonlySet<string> | null = null;
  const withNodes = new Set<string>();
  let rejected: { status: Status; plugin: string } | undefined;
  for (const pl of c.input.profile.preFilter) {
    const [result, s] = pl.preFilter(c.state, c.pod, c.ctx);
    c.record.preFilterStatus.set(pl.name, isSuccess(s) ? SUCCESS_MESSAGE : statusMessage(s));
    if (s.code === 'Skip') {
      c.skipFilter.add(pl.name);
      continue;
    }
    if (s.code === 'UnschedulableAndUnresolvable') {
      return { ok: true, value: { status: { code: s.code, reasons: s.reasons }, nodeNames: null, plugins: new Set([pl.name]) } };
    }
    if (s.code === 'Unschedulable') {
      rejected = { status: { code: s.code, reasons: s.reasons }, plugin: pl.name };
      continue;
    }
    if (!isSuccess(s)) {
      const msg = `running PreFilter plugin "${pl.name}": ${statusMessage(s)}`;
      return {
        ok: false,
        outcome: finish(c, c.input.nextStartNodeIndex, { kind: 'Error', message: msg }),
      };
    }
    if (!result) continue;
    withNodes.add(pl.name);
    c.record.preFilterResult.set(pl.name, [...result.nodeNames].sort());
    nodeNames = mergeNodeNames(nodeNames, result.nodeNames);
    if (nodeNames?.size === 0) {
      const names = [...withNodes].sort();
      const msg = names.length === 1 ? `node(s) didn't satisfy plugin ${names[0]}` : `node(s) didn't satisfy plugin(s) [${names.join(' ')}] simultaneously`;
      return { ok: true, value: { status: unresolvable(msg), nodeNames, plugins: withNodes } };
    }
  }
  const plugins = new Set(withNodes);
  if (rejected) plugins.add(rejected.plugin);
  return { ok: true, value: { status: rejected?.status ?? success(), nodeNames, plugins } };
}

function unschedulableOutcome(
  c: Cycle,
  nextStart: number,
  nodeToStatus: Map<string, Status>,
  preFilterMsg: string,
  plugins: Set<string>,
  absentStatus?: Status,
): ScheduleOutcome {
  let nominated: PostFilterResult | null = null;
  let postFilterMsg = '';
  const filterFn: FilterFn = Object.assign(
    (st: CycleState, p: SchedPodInfo, info: SchedNodeInfo) => runFiltersWithNominatedPods(c, st, p, info, false)[0],
    {
      addPod: (st: CycleState, p: SchedPodInfo, added: SchedPodInfo, info: SchedNodeInfo) => runPreFilterExtension(c, 'addPod', st, p, added, info),
      removePod: (st: CycleState, p: SchedPodInfo, removed: SchedPodInfo, info: SchedNodeInfo) => runPreFilterExtension(c, 'removePod', st, p, removed, info),
    },
  );
  for (const pl of c.input.profile.postFilter) {
    const [result, s] = pl.postFilter(c.state, c.pod, nodeToStatus, c.ctx, filterFn);
    for (const node of nodeToStatus.keys())
      if (!c.record.postFilter.has(node)) c.record.postFilter.set(node, new Map());
    if (isSuccess(s) && result) {
      nominated = result;
      put(c.record.postFilter, result.nominatedNodeName, pl.name, POST_FILTER_NOMINATED_MESSAGE);
      break;
    }
    postFilterMsg = statusMessage(s);
    if (s.code !== 'Unschedulable') break;
    // RunPostFilterPlugins: a rejecting plugin's result still counts (a nomination to clear, "")
    if (result) nominated = result;
  }
  const numAllNodes = c.ctx.allNodes.length;
  const message = fitErrorMessage(numAllNodes, preFilterMsg, nodeToStatus, postFilterMsg, absentStatus);
  const fitError: FitError = {
    numAllNodes,
    nodeToStatus,
    preFilterMsg,
    postFilterMsg,
    unschedulablePlugins: plugins,
    message,
  };
  return finish(c, nextStart, { kind: 'Unschedulable', fitError, nominated });
}

/**
 * findNodesThatPassFilters: walks the candidate nodes from the start index until enough are
 * feasible (how many: numFeasibleNodesToFind over the candidates). The next cycle starts further
 * on by the nodes this one processed, counted over all nodes (findNodesThatFitPod).
 */
function findFeasible(
  c: Cycle,
  nodes: readonly SchedNodeInfo[],
): Step<{
  feasible: SchedNodeInfo[];
  statuses: Map<string, Status>;
  plugins: Set<string>;
  nextStart: number;
}> {
  const n = nodes.length;
  const numAll = c.ctx.allNodes.length;
  const percentage = c.input.profile.percentageOfNodesToScore ?? c.input.percentageOfNodesToScore;
  const toFind = numFeasibleNodesToFind(percentage, n);
  const feasible: SchedNodeInfo[] = [];
  const statuses = new Map<string, Status>();
  const plugins = new Set<string>();
  const from = c.input.nextStartNodeIndex;
  for (let i = 0; i < n && feasible.length < toFind; i++) {
    const info = nodes[(from + i) % n]!;
    const [s, plugin] = runFiltersWithNominatedPods(c, c.state, c.pod, info, c.input.recordPerNode !== false);
    if (isSuccess(s)) feasible.push(info);
    else if (isRejected(s)) {
      statuses.set(info.node?.name ?? '', s);
      plugins.add(plugin);
    } else {
      const msg = `running "${plugin}" filter plugin: ${statusMessage(s)}`;
      const processed = feasible.length + statuses.size;
      return { ok: false, outcome: finish(c, (from + processed) % numAll, { kind: 'Error', message: msg }) };
    }
  }
  const processed = feasible.length + statuses.size;
  return {
    ok: true,
    value: { feasible, statuses, plugins, nextStart: (from + processed) % numAll },
  };
}

function runPreScore(c: Cycle, nodes: SchedNodeInfo[]): Status {
  for (const pl of c.input.profile.preScore) {
    const s = pl.preScore(c.state, c.pod, nodes, c.ctx);
    c.record.preScore.set(pl.name, isSuccess(s) ? SUCCESS_MESSAGE : statusMessage(s));
    if (s.code === 'Skip') c.skipScore.add(pl.name);
    else if (!isSuccess(s))
      return errorStatus(`running PreScore plugin "${pl.name}": ${statusMessage(s)}`);
  }
  return success();
}

/** prioritizeNodes + RunScorePlugins: raw scores, NormalizeScore, weights, totals. */
function prioritize(c: Cycle, nodes: SchedNodeInfo[]): Step<NodeScore[]> {
  const totals = nodes.map((n) => ({ name: n.node!.name, score: 0 }));
  const plugins = c.input.profile.score.filter((s) => !c.skipScore.has(s.plugin.name));
  if (c.input.profile.score.length === 0)
    return { ok: true, value: totals.map((t) => ({ ...t, score: 1 })) };
  const record = c.input.recordPerNode !== false;
  for (const { plugin, weight } of plugins) {
    let scores: NodeScore[] = [];
    for (const info of nodes) {
      const [score, s] = plugin.score(c.state, c.pod, info);
      if (!isSuccess(s))
        return fail(c, `running Score plugin "${plugin.name}": ${statusMessage(s)}`);
      scores.push({ name: info.node!.name, score });
      if (!record) continue;
      put(c.record.score, info.node!.name, plugin.name, String(score));
      put(c.record.finalScore, info.node!.name, plugin.name, String(score * weight));
    }
    const ext = plugin.scoreExtensions();
    if (ext) {
      const [normalized, s] = ext.normalizeScore(c.state, c.pod, scores);
      if (!isSuccess(s)) return fail(c, `running Normalize on Score plugins: ${statusMessage(s)}`);
      scores = normalized;
      if (record) for (const ns of scores) put(c.record.finalScore, ns.name, plugin.name, String(ns.score * weight));
    }
    for (let i = 0; i < scores.length; i++) {
      const ns = scores[i]!;
      if (ns.score < MIN_NODE_SCORE || ns.score > MAX_NODE_SCORE) {
        return fail(
          c,
          `plugin "${plugin.name}" returns an invalid score ${ns.score}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`,
        );
      }
      totals[i]!.score += ns.score * weight;
    }
  }
  return { ok: true, value: totals };
}

function fail(c: Cycle, message: string): { ok: false; outcome: ScheduleOutcome } {
  return { ok: false, outcome: finish(c, c.input.nextStartNodeIndex, { kind: 'Error', message }) };
}

/** Reserve then Permit on the chosen node; Unreserve everything on failure. */
function reserveAndPermit(c: Cycle, host: string): Status {
  const reserved: typeof c.input.profile.reserve = [];
  for (const pl of c.input.profile.reserve) {
    const s = pl.reserve(c.state, c.pod, host);
    c.record.reserve.set(pl.name, isSuccess(s) ? SUCCESS_MESSAGE : statusMessage(s));
    if (!isSuccess(s)) {
      for (const r of [...reserved, pl].reverse()) r.unreserve(c.state, c.pod, host);
      return s;
    }
    reserved.push(pl);
  }
  for (const pl of c.input.profile.permit) {
    const [s, timeoutMs] = pl.permit(c.state, c.pod, host);
    c.record.permit.set(
      pl.name,
      isSuccess(s) ? SUCCESS_MESSAGE : s.code === 'Wait' ? 'wait' : statusMessage(s),
    );
    c.record.permitTimeout.set(pl.name, `${timeoutMs / 1000}s`);
    if (!isSuccess(s) && s.code !== 'Wait') {
      for (const r of [...reserved].reverse()) r.unreserve(c.state, c.pod, host);
      return s;
    }
  }
  return success();
}

/** schedulePod for one pod: the chosen node, or why none fits (with the simulator's annotations). */
/** The snapshot's nodes named in a PreFilterResult, in snapshot (name) order. */
function candidateNodes(snapshot: Snapshot, names: ReadonlySet<string>): SchedNodeInfo[] {
  const out: SchedNodeInfo[] = [];
  for (const name of names) {
    const info = snapshot.get(name);
    if (info) out.push(info);
  }
  return out.sort((a, b) => (a.node!.name < b.node!.name ? -1 : a.node!.name > b.node!.name ? 1 : 0));
}

export function scheduleOne(input: ScheduleInput): ScheduleOutcome {
  const pod =
    'pod' in input.pod && 'requests' in input.pod ? input.pod : newPodInfo(input.pod as Pod);
  const c: Cycle = {
    input,
    pod,
    state: new Map(),
    ctx: {
      allNodes: input.snapshot.nodeInfoList,
      intn: input.intn,
      ...(input.pdbs ? { pdbs: input.pdbs } : {}),
      ...(input.nowMs === undefined ? {} : { nowMs: input.nowMs }),
    },
    record: newCycleRecord(),
    skipFilter: new Set(),
    skipScore: new Set(),
  };
  const all = c.ctx.allNodes;
  if (all.length === 0)
    return finish(c, 0, { kind: 'Error', message: 'no nodes available to schedule pods' });
  const pre = runPreFilter(c);
  if (!pre.ok) return pre.outcome;
  const { status: preStatus, nodeNames, plugins: prePlugins } = pre.value;
  if (!isSuccess(preStatus)) {
    const statuses = new Map(all.map((n) => [n.node?.name ?? '', preStatus]));
    return unschedulableOutcome(c, input.nextStartNodeIndex, statuses, statusMessage(preStatus), prePlugins);
  }
  // evaluateNominatedNode: a pod that preempted for a node tries that node first, alone
  const nominatedNode = pod.pod.status?.nominatedNodeName;
  const onNominated = nominatedNode ? all.find((n) => n.node?.name === nominatedNode) : undefined;
  if (onNominated && isSuccess(runFiltersWithNominatedPods(c, c.state, c.pod, onNominated, c.input.recordPerNode !== false)[0])) {
    return scheduled(c, input.nextStartNodeIndex, nominatedNode!, 1, 1, []);
  }
  // A PreFilterResult narrows the nodes (a DaemonSet pod names its one node): only those that exist
  // are filtered, in snapshot order; the others count as rejected by the plugins that narrowed.
  const candidates = nodeNames === null ? all : candidateNodes(input.snapshot, nodeNames);
  const found = findFeasible(c, candidates);
  if (!found.ok) return found.outcome;
  const { feasible, statuses, plugins, nextStart } = found.value;
  if (feasible.length === 0) {
    const absent = nodeNames === null ? undefined : unresolvable(`node(s) didn't satisfy plugin(s) [${[...prePlugins].sort().join(' ')}]`);
    for (const p of prePlugins) plugins.add(p);
    return unschedulableOutcome(c, nextStart, statuses, '', plugins, absent);
  }
  if (feasible.length === 1) {
    const host = feasible[0]!.node!.name;
    return scheduled(c, nextStart, host, 1 + statuses.size, 1, []);
  }
  const preScore = runPreScore(c, feasible);
  if (!isSuccess(preScore))
    return finish(c, nextStart, { kind: 'Error', message: statusMessage(preScore) });
  const totals = prioritize(c, feasible);
  if (!totals.ok) return { ...totals.outcome, nextStartNodeIndex: nextStart };
  const chosen = selectHost(totals.value, NUMBER_OF_HIGHEST_SCORED_NODES_TO_REPORT, input.intn)!;
  return scheduled(
    c,
    nextStart,
    chosen.host,
    feasible.length + statuses.size,
    feasible.length,
    chosen.top,
  );
}

function scheduled(
  c: Cycle,
  nextStart: number,
  host: string,
  evaluated: number,
  feasibleCount: number,
  top: NodeScore[],
): ScheduleOutcome {
  const s = reserveAndPermit(c, host);
  if (!isSuccess(s)) return finish(c, nextStart, { kind: 'Error', message: statusMessage(s) });
  c.record.selectedNode = host;
  return finish(c, nextStart, {
    kind: 'Scheduled',
    suggestedHost: host,
    evaluatedNodes: evaluated,
    feasibleNodes: feasibleCount,
    topNodes: top,
  });
}
