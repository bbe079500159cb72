// runtime/controllers/nodelifecycle: the node lifecycle controller (silent nodes become Unknown
// and tainted) and taint-based eviction (pods leave once their tolerationSeconds run out).
import type { Lease, Node, Taint, Toleration } from '../../api/index.ts';
import type { NodeHealth, NodeHealthUpdate } from './health.ts';
import type { PendingEviction } from './eviction.ts';

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
  type HealthResult,
  type NodeHealth,
  type NodeHealthUpdate,
} from './health.ts';
export { TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE, desiredNoScheduleTaints, desiredNoExecuteTaints, reconcileTaints, reconcileNodeTaints } from './taints.ts';
export { noExecuteTaints, planEviction, processPodOnNode, TAINT_EVICTION_REASON, type EvictionPlan, type PendingEviction } from './eviction.ts';
export { notReadyConditions, NODE_NOT_READY_POD_EVENT } from './pods-not-ready.ts';

/**
 * The node lifecycle and taint eviction controllers' decisions, as the node-lifecycle lab
 * reimplements them (the runtime's own are tryUpdateNodeHealth, reconcileNodeTaints and
 * processPodOnNode above): one health pass over a node (NotReady/Unknown from its Lease and Ready
 * heartbeat, node_lifecycle_controller.go tryUpdateNodeHealth), the taints that follow from its
 * conditions (doNoScheduleTaintingPass, doNoExecuteTaintingPass), and the deletion scheduled for a
 * pod on a NoExecute-tainted node (taint_eviction.go processPodOnNode). Times are milliseconds on
 * one clock; `now` is nowMs as RFC 3339.
 */
export interface NodeLifecycleDecisions {
  tryUpdateNodeHealth(
    node: Node,
    saved: NodeHealth | undefined,
    lease: Lease | undefined,
    nowMs: number,
    now: string,
  ): NodeHealthUpdate;
  reconcileNodeTaints(node: Node, now: string): Taint[];
  processPodOnNode(tolerations: readonly Toleration[], taints: readonly Taint[], nowMs: number, pending: PendingEviction | null): PendingEviction | null;
}
