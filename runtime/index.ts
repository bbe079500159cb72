// The public face of the simulated control plane (see ../shared/DESIGN.md section 2 and
// docs/ARCHITECTURE.md). Labs, the site and tests import the runtime only from here.
export {
  createCluster,
  compareReplicaSetReconciler,
  runReplicaSetScenario,
  type Cluster,
  type ScenarioRun,
  type ScenarioStep,
  type ClusterOptions,
  type CommandResult,
  type Faults,
  type Topology,
  type WorkerSpec,
} from './cluster/index.ts';
export type { TraceEvent } from './kernel/index.ts';
