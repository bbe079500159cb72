// runtime/controllers/nodelifecycle: the node lifecycle controller (silent nodes become Unknown
// and tainted) and taint-based eviction (pods leave once their tolerationSeconds run out).
export { NodeLifecycleController, type NodeLifecycleDeps } from './controller.ts';
export {
  EVICTION_LIMITER_QPS, LARGE_CLUSTER_SIZE_THRESHOLD, NODE_EVICTION_PERIOD_MS, SECONDARY_EVICTION_LIMITER_QPS,
  UNHEALTHY_ZONE_THRESHOLD, computeZoneState, zoneKeyOf, type ZoneState,
} from './zones.ts';
export { startNodeLifecycleController, type NodeLifecycleOptions } from './start.ts';
export {
  NODE_MONITOR_GRACE_PERIOD_MS,
  NODE_MONITOR_PERIOD_MS,
  NODE_STARTUP_GRACE_PERIOD_MS,
  tryUpdateNodeHealth,
  type NodeHealth,
} from './health.ts';
export { TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE, desiredNoScheduleTaints, desiredNoExecuteTaints, reconcileTaints } from './taints.ts';
export { planEviction, TAINT_EVICTION_REASON, type EvictionPlan } from './eviction.ts';
export { notReadyConditions, NODE_NOT_READY_POD_EVENT } from './pods-not-ready.ts';
