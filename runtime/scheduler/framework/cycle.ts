// The extension points of one scheduling cycle beyond Score (which E1's interface.ts defines).
// mirrors pkg/scheduler/framework/interface.go: one small interface per extension point. A plugin
// object may implement several (NodeResourcesFit is a PreFilter, a Filter and a Score plugin).
// Every method is synchronous and pure over its arguments and the CycleState it is given.
import type { PodDisruptionBudget } from '../../api/index.ts';
import type { CycleState, Intn, ScorePlugin, Status } from './interface.ts';
import type { SchedNodeInfo } from './node-info.ts';
import type { SchedPodInfo } from './pod-info.ts';

export interface Plugin {
  /** The registry name, e.g. "NodeResourcesFit". */
  readonly name: string;
}

/** framework.PreFilterResult: when non-null, only these nodes are worth filtering. */
export interface PreFilterResult {
  nodeNames: ReadonlySet<string>;
}

/**
 * PreFilterResult.Merge: the nodes both sets allow, where null stands for every node (so merging
 * with null keeps the other set).
 */
export function mergeNodeNames(a: ReadonlySet<string> | null, b: ReadonlySet<string> | null): ReadonlySet<string> | null {
  if (a === null) return b;
  if (b === null) return a;
  const out = new Set<string>();
  for (const n of a) if (b.has(n)) out.add(n);
  return out;
}

/** Everything the cycle knows that a plugin may read: all nodes of the snapshot, and more. */
export interface CycleContext {
  /** All nodes in the snapshot, in snapshot order. */
  readonly allNodes: readonly SchedNodeInfo[];
  /** The PodDisruptionBudgets the scheduler's informer holds (preemption reads them); none when unset. */
  readonly pdbs?: readonly PodDisruptionBudget[];
  /** rand.Intn from the kernel's seeded RNG (preemption's random start among the nodes). */
  readonly intn?: Intn;
  /** The kernel's clock in simulated ms: a pod with no status.startTime started "now". */
  readonly nowMs?: number;
}

/** framework.PreFilterPlugin: runs once per pod; Skip disables this plugin's Filter for the cycle. */
export interface PreFilterPlugin extends Plugin {
  preFilter(
    state: CycleState,
    pod: SchedPodInfo,
    ctx: CycleContext,
  ): [PreFilterResult | null, Status];
  /** The plugin's PreFilterExtensions, when its PreFilter state counts pods on nodes. */
  preFilterExtensions?(): PreFilterExtensions | null;
}

/**
 * framework.PreFilterExtensions: keep a PreFilter state true while the framework tries a node with a
 * pod added (a nominated pod, a reprieved victim) or removed (a preemption victim).
 */
export interface PreFilterExtensions {
  addPod(state: CycleState, podToSchedule: SchedPodInfo, podToAdd: SchedPodInfo, nodeInfo: SchedNodeInfo): Status;
  removePod(state: CycleState, podToSchedule: SchedPodInfo, podToRemove: SchedPodInfo, nodeInfo: SchedNodeInfo): Status;
}

/** framework.StateData: a value in the CycleState that CycleState.Clone must copy deeply. */
export interface StateData {
  clone(): StateData;
}

const isStateData = (v: unknown): v is StateData =>
  typeof v === 'object' && v !== null && typeof (v as { clone?: unknown }).clone === 'function';

/** CycleState.Clone: a copy a dry run may change (values that are StateData are cloned). */
export function cloneCycleState(state: CycleState): CycleState {
  const copy: CycleState = new Map();
  for (const [k, v] of state) copy.set(k, isStateData(v) ? v.clone() : v);
  return copy;
}

/**
 * RunFilterPluginsWithNominatedPods as the framework handle offers it to PostFilter, with
 * RunPreFilterExtensionAddPod/RemovePod (absent: no plugin's PreFilter state needs telling).
 */
export type FilterFn = ((state: CycleState, pod: SchedPodInfo, nodeInfo: SchedNodeInfo) => Status) & Partial<PreFilterExtensions>;

/** framework.FilterPlugin: may this pod run on this node? */
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: SchedPodInfo, nodeInfo: SchedNodeInfo): Status;
}

/** Each rejected node's Status (framework.NodeToStatus). */
export type NodeToStatus = ReadonlyMap<string, Status>;

/** framework.PostFilterResult: a nominated node when preemption found room. */
export interface PostFilterResult {
  nominatedNodeName: string;
  /** Pods that would be evicted from the nominated node to make room. */
  victims: { namespace: string; name: string }[];
}

/** framework.PostFilterPlugin: runs when no node fits (DefaultPreemption). */
export interface PostFilterPlugin extends Plugin {
  postFilter(
    state: CycleState,
    pod: SchedPodInfo,
    statuses: NodeToStatus,
    ctx: CycleContext,
    filter: FilterFn,
  ): [PostFilterResult | null, Status];
}

/** framework.PreScorePlugin: runs once before scoring, over the feasible nodes. */
export interface PreScorePlugin extends Plugin {
  preScore(
    state: CycleState,
    pod: SchedPodInfo,
    nodes: readonly SchedNodeInfo[],
    ctx: CycleContext,
  ): Status;
}

/** framework.ReservePlugin: claims per-node state before binding; Unreserve rolls it back. */
export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: SchedPodInfo, nodeName: string): Status;
  unreserve(state: CycleState, pod: SchedPodInfo, nodeName: string): void;
}

/** framework.PermitPlugin: approve, deny or (code Wait) delay the binding. */
export interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: SchedPodInfo, nodeName: string): [Status, number];
}

/** framework.BindPlugin: writes the binding (later, through the API server). Skip passes to the next. */
export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: SchedPodInfo, nodeName: string): Status;
}

/** framework.EnqueueExtensions, simplified: the cluster events that may make a rejected pod fit. */
export interface EnqueueExtensions extends Plugin {
  eventsToRegister(): readonly ClusterEvent[];
}

/** framework.ClusterEvent: a resource and what happened to it. */
export interface ClusterEvent {
  resource: 'Pod' | 'Node' | '*';
  action:
    | 'Add'
    | 'Delete'
    | 'Update'
    | 'UpdateNodeLabel'
    | 'UpdateNodeTaint'
    | 'UpdateNodeAllocatable'
    | '*';
}

/** Any plugin the profile may hold: the union of the extension points it implements. */
export type AnyPlugin = Plugin &
  Partial<
    Omit<PreFilterPlugin, 'name'> &
      Omit<FilterPlugin, 'name'> &
      Omit<PostFilterPlugin, 'name'> &
      Omit<PreScorePlugin, 'name'> &
      Omit<ScorePlugin, 'name'> &
      Omit<ReservePlugin, 'name'> &
      Omit<PermitPlugin, 'name'> &
      Omit<BindPlugin, 'name'> &
      Omit<EnqueueExtensions, 'name'>
  >;

export const isPreFilter = (p: AnyPlugin): p is PreFilterPlugin =>
  typeof p.preFilter === 'function';
export const isFilter = (p: AnyPlugin): p is FilterPlugin => typeof p.filter === 'function';
export const isPostFilter = (p: AnyPlugin): p is PostFilterPlugin =>
  typeof p.postFilter === 'function';
export const isPreScore = (p: AnyPlugin): p is PreScorePlugin => typeof p.preScore === 'function';
export const isScore = (p: AnyPlugin): p is ScorePlugin => typeof p.score === 'function';
export const isReserve = (p: AnyPlugin): p is ReservePlugin => typeof p.reserve === 'function';
export const isPermit = (p: AnyPlugin): p is PermitPlugin => typeof p.permit === 'function';
export const isBind = (p: AnyPlugin): p is BindPlugin => typeof p.bind === 'function';
