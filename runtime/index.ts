// The public face of the simulated control plane (see ../shared/DESIGN.md section 2 and
// docs/ARCHITECTURE.md). Labs, the site and tests import the runtime only from here.
export {
  createCluster,
  compareReplicaSetReconciler,
  compareReplicaSetRuns,
  runReplicaSetScenario,
  compareSchedulerRuns,
  compareScorePlugins,
  runSchedulerScenario,
  LearnerCodeError,
  type Cluster,
  type LearnerScorePlugins,
  type NodeScores,
  type Placement,
  type ReplicaSetComparison,
  type SchedulerComparison,
  type SchedulerRun,
  type ScenarioRun,
  type ScenarioStep,
  type PodView,
  type ScenarioOptions,
  type ClusterOptions,
  type CommandResult,
  type Faults,
  type Topology,
  type WorkerSpec,
} from './cluster/index.ts';
export type { TraceEvent } from './kernel/index.ts';
export type { CloudInstance, CloudLoadBalancer, SimulatedCloud } from './cloud/index.ts';
