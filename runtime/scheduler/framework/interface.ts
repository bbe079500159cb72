// The scheduling framework's extension-point contracts used by Score plugins.
// mirrors pkg/scheduler/framework/interface.go (ScorePlugin, ScoreExtensions, Status, Code,
// NodeScore, MaxNodeScore) and pkg/scheduler/framework/types.go (NodeInfo, Resource).

/** The highest score a Score plugin may return after normalization (framework.MaxNodeScore). */
export const MAX_NODE_SCORE = 100;
/** The lowest score a Score plugin may return after normalization (framework.MinNodeScore). */
export const MIN_NODE_SCORE = 0;

/** framework.Code, as strings so results read well in traces and test output. */
export type StatusCode =
  | 'Success'
  | 'Error'
  | 'Unschedulable'
  | 'UnschedulableAndUnresolvable'
  | 'Wait'
  | 'Skip'
  | 'Pending';

/** framework.Status: the outcome of a plugin call. Errors are values, never thrown. */
export interface Status {
  code: StatusCode;
  /** Human-readable reasons ("node not found", "Insufficient cpu"). Empty on success. */
  reasons: string[];
}

/**
 * Resource amounts as the scheduler counts them (framework.Resource): CPU in millicores,
 * memory in bytes, both already parsed from Kubernetes quantities ("250m" -> 250, "1Gi" -> 1073741824).
 */
export interface Resource {
  milliCPU: number;
  memory: number;
}

/** The resources a plugin scores on, with their weights (config.ResourceSpec). */
export interface ResourceSpec {
  name: 'cpu' | 'memory';
  /** 1..100; the default configuration uses cpu 1 and memory 1. */
  weight: number;
}

/**
 * One container's resource requests, already parsed. A missing key means the container did
 * not set that request at all, which is not the same as an explicit 0 (the non-zero defaults
 * of pkg/scheduler/util/pod_resources.go apply only to missing requests).
 */
export interface ContainerRequests {
  name: string;
  requests: Partial<Resource>;
}

/** The pod being scheduled, reduced to what scoring reads (framework.PodInfo). */
export interface PodInfo {
  name: string;
  namespace: string;
  containers: ContainerRequests[];
}

/**
 * What the scheduler's snapshot knows about one node (framework.NodeInfo).
 * requested and nonZeroRequested are sums over the pods already on the node.
 */
export interface NodeInfo {
  /** The node itself; null when the snapshot lost it (upstream then returns "node not found"). */
  node: { name: string } | null;
  /** node.status.allocatable. */
  allocatable: Resource;
  /** Sum of the pods' requests as written (missing requests count as 0). */
  requested: Resource;
  /** Sum of the pods' requests with missing CPU/memory requests replaced by the non-zero defaults. */
  nonZeroRequested: Resource;
  /** The pods already placed on the node. */
  pods: PodInfo[];
}

/** framework.NodeScore. */
export interface NodeScore {
  name: string;
  score: number;
}

/** framework.CycleState: data shared by the plugins during one scheduling cycle. */
export type CycleState = Map<string, unknown>;

/** framework.ScoreExtensions: the optional NormalizeScore step. */
export interface ScoreExtensions {
  /** Rescales one plugin's scores for all nodes into [MIN_NODE_SCORE, MAX_NODE_SCORE]; returns a new list. */
  normalizeScore(state: CycleState, pod: PodInfo, scores: readonly NodeScore[]): [NodeScore[], Status];
}

/** framework.ScorePlugin: ranks the nodes that passed filtering. */
export interface ScorePlugin {
  /** The plugin's registry name, e.g. "NodeResourcesFit". */
  readonly name: string;
  /** Scores one node for the pod; higher is better. Must not modify its arguments. */
  score(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): [number, Status];
  /** The NormalizeScore step, or null when the plugin's scores are already in range. */
  scoreExtensions(): ScoreExtensions | null;
}

/** One plugin's scores for every node, with the plugin's weight from the scheduler profile. */
export interface WeightedPluginScores {
  plugin: string;
  weight: number;
  scores: readonly NodeScore[];
}

/** rand.Intn: returns an integer in [0, n), from the kernel's seeded RNG in the runtime. */
export type Intn = (n: number) => number;
