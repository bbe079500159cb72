// runtime/scheduler: kube-scheduler, its public face. The framework's extension points live in
// framework/; plugins and the scheduling queue will live beside it.
export * from './framework/index.ts';

// The full framework (helper H): NodeInfo from v1 objects, the other extension points, the
// in-tree plugins, the scheduling cycle as a pure function, the profile and the queue.
export type {
  AnyPlugin,
  BindPlugin,
  ClusterEvent,
  CycleContext,
  EnqueueExtensions,
  FilterPlugin,
  NodeToStatus,
  PermitPlugin,
  Plugin,
  PostFilterPlugin,
  PostFilterResult,
  PreFilterPlugin,
  PreFilterResult,
  PreScorePlugin,
  ReservePlugin,
} from './framework/cycle.ts';
export { newNodeInfo, addPod, removePod } from './framework/node-info.ts';
export type { ImageStateSummary, SchedNode, SchedNodeInfo } from './framework/node-info.ts';
export { newPodInfo } from './framework/pod-info.ts';
export type { HostPort, SchedPodInfo } from './framework/pod-info.ts';
export {
  DEFAULT_MEMORY_REQUEST,
  DEFAULT_MILLI_CPU_REQUEST,
  podRequests,
} from './framework/resources.ts';
export type { FullResource } from './framework/resources.ts';
export { Snapshot } from './framework/snapshot.ts';
export { isRejected, isSuccess, newStatus, statusMessage, success } from './framework/status.ts';
export * from './annotations.ts';
export { fitErrorMessage } from './fit-error.ts';
export { scheduleOne } from './schedule-one.ts';
export type { FitError, ScheduleInput, ScheduleOutcome } from './schedule-one.ts';
export { numFeasibleNodesToFind, selectHost } from './select-host.ts';
export {
  buildSchedulerConfig,
  defaultPlugins,
  defaultProfile,
  DEFAULT_SCHEDULER_NAME,
} from './profile.ts';
export type {
  KubeSchedulerConfiguration,
  Profile,
  ProfileConfig,
  SchedulerConfig,
} from './profile.ts';
export { IN_TREE_REGISTRY } from './plugins/registry.ts';
export type { PluginFactory } from './plugins/registry.ts';
export { defaultNormalizeScore } from './plugins/helper/normalize-score.ts';
export { SchedulingQueue, podKey } from './queue/scheduling-queue.ts';
export type { QueuedPodInfo, QueueOptions } from './queue/scheduling-queue.ts';

// The kube-scheduler component (helper L): informers, queue driving, binding, events, leader election.
export { startScheduler, RESTART_AFTER_LEASE_LOSS_MS } from './component/start.ts';
export type { SchedulerHandle, SchedulerOptions } from './component/start.ts';
export type { RunningScheduler } from './component/scheduler.ts';
