// runtime/controllers: the controller-manager's controllers, its public face.
// Each controller is a folder; its decision step is a pure Reconciler (reconciler.ts) that labs
// can replace with a learner's implementation.
export type { Reconciler } from './reconciler.ts';
export { BURST_REPLICAS } from './replicaset/index.ts';
export type { ReplicaSetDecision, ReplicaSetReconciler, ReplicaSetSyncContext } from './replicaset/index.ts';
export {
  ALL_CONTROLLERS,
  CONTROLLER_SERVICE_ACCOUNTS,
  controllerManagerClientSuffixes,
  startControllerManager,
  type ControllerManagerOptions,
  type ControllerName,
} from './manager.ts';
export { ReplicaSetController, reconcileReplicaSet, rankPodsForDeletion, calculateStatus as calculateReplicaSetStatus, podFromTemplate } from './replicaset/index.ts';
export type { ReplicaSetControllerOptions } from './replicaset/index.ts';
export { DeploymentController, type DeploymentControllerOptions } from './deployment/controller.ts';
export { getScaledValueFromIntOrPercent, resolveFenceposts, newRSNewReplicas, computeHash } from './deployment/util.ts';
export { rollingUpdateArithmetic } from './deployment/rolling.ts';
export type { Fenceposts, ReplicaSetScale, RollingUpdateArithmetic } from './deployment/rolling.ts';
export { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS } from './expectations.ts';
export { slowStartBatch, SLOW_START_INITIAL_BATCH_SIZE } from './slow-start.ts';
export {
  NodeLifecycleController, startNodeLifecycleController, planEviction, processPodOnNode, reconcileNodeTaints, tryUpdateNodeHealth,
  NODE_MONITOR_GRACE_PERIOD_MS, NODE_MONITOR_PERIOD_MS, NODE_STARTUP_GRACE_PERIOD_MS, TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE,
} from './nodelifecycle/index.ts';
export type {
  NodeLifecycleDeps, NodeLifecycleOptions, EvictionPlan, HealthResult, NodeHealth, NodeHealthUpdate, NodeLifecycleDecisions, PendingEviction,
} from './nodelifecycle/index.ts';
export { PodGCController, startPodGCController, missingNodes, terminatedPodsToDelete, GC_CHECK_PERIOD_MS, QUARANTINE_MS, TERMINATED_POD_GC_THRESHOLD, type PodGCControllerOptions } from './podgc/index.ts';
export { EndpointSliceController, reconcileEndpointSlices, MAX_ENDPOINTS_PER_SLICE, type EndpointSliceControllerOptions, type SliceChanges } from './endpointslice/index.ts';
export { GarbageCollector, DependencyGraph, decideAttemptToDelete, type GarbageCollectorOptions, type GcDecision } from './garbagecollector/index.ts';
export { NamespaceController, type NamespaceControllerOptions } from './namespace/index.ts';
export { ServiceAccountController, MANAGED_SERVICE_ACCOUNTS, missingServiceAccounts, type ServiceAccountControllerOptions } from './serviceaccount/controller.ts';
export { DaemonSetController, nodeShouldRunDaemonPod, daemonPodTolerations, planManage, planRollingUpdate, calculateDaemonSetStatus, startDaemonSetController, type DaemonSetControllerOptions, type DaemonPlacement } from './daemonset/index.ts';
export { DisruptionController, startDisruptionController, DELETION_TIMEOUT_MS, type DisruptionControllerOptions } from './disruption/index.ts';
// The work queue every controller here runs on (client-go util/workqueue), re-exported so the
// work-queue lab can compare a learner's queue with it through this public face.
export { WorkQueue, RateLimitingQueue, ItemExponentialFailureRateLimiter, defaultControllerRateLimiter, runWorkers } from '../client/index.ts';
export type { QueueClock, RateLimiter, SyncFn, WorkerPool } from '../client/index.ts';
