// runtime/cluster: assembles a whole cluster from the subsystems; the runtime's public entry point.
export { createCluster, COMMAND_TIMEOUT_MS, KUBECTL_WATCH_WINDOW_MS, type Cluster, type ClusterInternals, type CommandResult, type Faults } from './cluster.ts';
export { planCluster, LOAD_BALANCER, type ClusterOptions, type ClusterPlan, type MachinePlan, type Topology, type WorkerSpec } from './options.ts';
export type { RequestTrace, RequestTraceRoot, RequestTraceStep, TraceLane } from './observe-trace.ts';
export type { ClusterSnapshot, NodeSnapshot, PodSnapshot, EtcdMemberSnapshot, RaftEntrySnapshot, ComponentSnapshot, EventSnapshot } from './observe.ts';
export { RAFT_LOG_TAIL } from './observe.ts';
export type { SchedulerAttempt, SchedulerDecision } from './observe-scheduler.ts';
export type { RequestDurations, VerbDurations } from './observe-metrics.ts';
export { ADMIN_CREDENTIALS, type Component, type ControlPlane } from './control-plane.ts';
export { nodeObject, podCIDR, KUBELET_VERSION } from './nodes.ts';
export { startComponents, type ClusterComponents } from './components.ts';
export { ServiceIpAllocator } from './service-ips.ts';
export { runChaosSeed, type ChaosOptions, type ChaosResult } from './chaos.ts';
export { DEFAULT_BUMP_REVISION, type RestoreEtcdOptions } from './restore.ts';
export type { ChaosTopology } from './chaos-schedules.ts';
export { LearnerCodeError, LearnerFaults, describeThrown, guardReplicaSetReconciler, guardScorePlugin } from './learner-pieces.ts';
