// The public face of the simulated control plane (see ../shared/DESIGN.md section 2 and
// docs/ARCHITECTURE.md). Labs, the site and tests import the runtime only from here.
export {
  createCluster,
  LearnerCodeError,
  LearnerFaults,
  describeThrown,
  guardReplicaSetReconciler,
  guardScorePlugin,
  type Cluster,
  type SchedulerAttempt,
  type SchedulerDecision,
  type RequestDurations,
  type VerbDurations,
  type ClusterOptions,
  type CommandResult,
  type ClusterSnapshot,
  type NodeSnapshot,
  type PodSnapshot,
  type EtcdMemberSnapshot,
  type RaftEntrySnapshot,
  RAFT_LOG_TAIL,
  type ComponentSnapshot,
  type EventSnapshot,
  type RequestTrace,
  type RequestTraceRoot,
  type RequestTraceStep,
  type TraceLane,
  type Faults,
  type Topology,
  type WorkerSpec,
} from './cluster/index.ts';
export { createRng, type Rng, type TraceEvent } from './kernel/index.ts';
export type { CloudInstance, CloudLoadBalancer, SimulatedCloud } from './cloud/index.ts';
