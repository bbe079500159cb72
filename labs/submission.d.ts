// Types for the fixed specifier every lab suite imports the learner's module from.
// At run time it resolves to the graded file (scripts/lib/labs/submission-plugin.ts in Node,
// a virtual module in the browser). One module for all labs: each suite uses its lab's names.
declare module '@lab/submission' {

  type ScorePlugin = import('../runtime/scheduler/index.ts').ScorePlugin;
  type ResourceSpec = import('../runtime/scheduler/index.ts').ResourceSpec;
  type NodeScore = import('../runtime/scheduler/index.ts').NodeScore;
  type Status = import('../runtime/scheduler/index.ts').Status;

  // replicaset-reconcile
  export const reconcileReplicaSet: import('../runtime/controllers/index.ts').ReplicaSetReconciler;

  // scheduler-scoring
  export function newLeastAllocated(resources?: ResourceSpec[]): ScorePlugin;
  export function newBalancedAllocation(resources?: ResourceSpec[]): ScorePlugin;
  export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: readonly NodeScore[]): NodeScore[];
  export function sumWeightedScores(
    nodeNames: readonly string[],
    plugins: readonly import('../runtime/scheduler/index.ts').WeightedPluginScores[],
  ): [NodeScore[], Status];
  export function selectHost(totals: readonly NodeScore[], intn: import('../runtime/scheduler/index.ts').Intn): [string, Status];

  // rbac-authorizer
  export function newRbacAuthorizer(lister: import('../runtime/apiserver/index.ts').RbacLister): import('../runtime/apiserver/index.ts').Authorizer;
  export function ruleAllows(a: import('../runtime/apiserver/index.ts').Attributes, rule: import('../runtime/api/index.ts').PolicyRule): boolean;
  export function subjectMatches(
    user: import('../runtime/apiserver/index.ts').UserInfo,
    subject: import('../runtime/api/index.ts').Subject,
    bindingNamespace: string,
  ): boolean;
  export function forbiddenStatusMessage(a: import('../runtime/apiserver/index.ts').Attributes, reason: string): string;

  // admission-limitrange
  export function podMutateLimitFunc(limitRange: import('../runtime/api/index.ts').LimitRange, pod: import('../runtime/api/index.ts').Pod): void;
  export function podValidateLimitFunc(limitRange: import('../runtime/api/index.ts').LimitRange, pod: import('../runtime/api/index.ts').Pod): string;
  export function newLimitRanger(): import('../runtime/apiserver/index.ts').AdmissionPlugin;

  // kubelet-restarts
  export function getPhase(
    pod: import('../runtime/api/index.ts').Pod,
    statuses: readonly import('../runtime/api/index.ts').ContainerStatus[],
    podIsTerminal: boolean,
  ): import('../runtime/api/index.ts').PodPhase;
  export function restartDecision(
    history: import('../runtime/kubelet/index.ts').ContainerHistory,
    nowMs: number,
  ): import('../runtime/kubelet/index.ts').RestartDecision;

  // kube-proxy
  export interface EndpointPick {
    endpoint: string;
    probability: string | null;
  }
  export interface ServicePortRules {
    servicePortName: string;
    protocol: string;
    clusterIP: string;
    port: number;
    nodePort: number;
    action: 'DNAT' | 'REJECT';
    endpoints: EndpointPick[];
  }
  export function endpointsFor(
    service: import('../runtime/api/index.ts').Service,
    port: import('../runtime/api/index.ts').ServicePort,
    slices: readonly import('../runtime/api/index.ts').EndpointSlice[],
  ): string[];
  export function syncProxyRules(
    services: readonly import('../runtime/api/index.ts').Service[],
    slices: readonly import('../runtime/api/index.ts').EndpointSlice[],
  ): ServicePortRules[];

  // node-lifecycle
  export function tryUpdateNodeHealth(
    node: import('../runtime/api/index.ts').Node,
    saved: import('../runtime/controllers/index.ts').NodeHealth | undefined,
    lease: import('../runtime/api/index.ts').Lease | undefined,
    nowMs: number,
    now: string,
  ): import('../runtime/controllers/index.ts').NodeHealthUpdate;
  export function reconcileNodeTaints(node: import('../runtime/api/index.ts').Node, now: string): import('../runtime/api/index.ts').Taint[];
  export function processPodOnNode(
    tolerations: readonly import('../runtime/api/index.ts').Toleration[],
    taints: readonly import('../runtime/api/index.ts').Taint[],
    nowMs: number,
    pending: import('../runtime/controllers/index.ts').PendingEviction | null,
  ): import('../runtime/controllers/index.ts').PendingEviction | null;

  // rolling-update
  type Deployment = import('../runtime/api/index.ts').Deployment;
  type ReplicaSet = import('../runtime/api/index.ts').ReplicaSet;
  type IntOrString = import('../runtime/api/index.ts').IntOrString;
  export function resolveFenceposts(maxSurge: IntOrString, maxUnavailable: IntOrString, desired: number): import('../runtime/controllers/index.ts').Fenceposts;
  export function maxSurge(deployment: Deployment): number;
  export function maxUnavailable(deployment: Deployment): number;
  export function newRSNewReplicas(deployment: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number;
  export function reconcileNewReplicaSet(deployment: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number;
  export function reconcileOldReplicaSets(
    deployment: Deployment,
    oldRSs: readonly ReplicaSet[],
    newRS: ReplicaSet,
  ): import('../runtime/controllers/index.ts').ReplicaSetScale[];

  // scheduler-filters
  type FilterPlugin = import('../runtime/scheduler/index.ts').FilterPlugin;
  export function newNodeResourcesFit(): FilterPlugin;
  export function newNodeUnschedulable(): FilterPlugin;
  export function newTaintToleration(): FilterPlugin;
  export function newNodeAffinity(): FilterPlugin;
  export function fitErrorMessage(numAllNodes: number, nodeToStatus: import('../runtime/scheduler/index.ts').NodeToStatus, postFilterMsg: string): string;
  export function preemptionMessage(numAllNodes: number, nodeToStatus: import('../runtime/scheduler/index.ts').NodeToStatus): string;

  // work-queue
  type QueueClock = import('../runtime/controllers/index.ts').QueueClock;
  type RateLimiter<T> = import('../runtime/controllers/index.ts').RateLimiter<T>;
  export interface GetResult {
    item: string | undefined;
    shutdown: boolean;
  }
  export interface WorkQueue {
    add(item: string): void;
    len(): number;
    get(): GetResult;
    done(item: string): void;
    shutDown(): void;
    shuttingDown(): boolean;
    addAfter(item: string, delayMs: number): void;
    addRateLimited(item: string): void;
    forget(item: string): void;
    numRequeues(item: string): number;
  }
  export function createWorkQueue(clock: QueueClock, rateLimiter?: RateLimiter<string>): WorkQueue;
  export function createItemExponentialFailureRateLimiter(baseDelayMs: number, maxDelayMs: number): RateLimiter<string>;

  // raft-commit
  export function leaderCommitIndex(state: import('../runtime/raft/index.ts').CommitState): number;

  // raft-vote
  export function voteDecision(
    state: import('../runtime/raft/index.ts').VoteState,
    request: import('../runtime/raft/index.ts').VoteRequest,
  ): import('../runtime/raft/index.ts').VoteDecision;
}
