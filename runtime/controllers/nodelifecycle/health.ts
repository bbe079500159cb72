// How the node lifecycle controller decides a node has gone silent. mirrors
// pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth): the probe
// timestamp moves whenever the kubelet's Ready heartbeat or its Lease in kube-node-lease is seen
// to change (on the controller's own clock, never the kubelet's); once it is older than the grace
// period, Ready and the pressure conditions become Unknown.
import type { Lease, Node, NodeCondition } from '../../api/index.ts';

/** --node-monitor-period (how often the controller looks). */
export const NODE_MONITOR_PERIOD_MS = 5_000;
/** --node-monitor-grace-period: 50 s since Kubernetes 1.32 (40 s before; kubernetes#126287). */
export const NODE_MONITOR_GRACE_PERIOD_MS = 50_000;
/** --node-startup-grace-period: a node that never posted Ready gets this long. */
export const NODE_STARTUP_GRACE_PERIOD_MS = 60_000;

export const NODE_STATUS_UNKNOWN = 'NodeStatusUnknown';
export const STOPPED_POSTING_MESSAGE = 'Kubelet stopped posting node status.';
export const NEVER_UPDATED_REASON = 'NodeStatusNeverUpdated';
export const NEVER_POSTED_MESSAGE = 'Kubelet never posted node status.';

const WATCHED_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/** nodeHealthData: what the controller remembers per node (volatile: lost on a restart). */
export interface NodeHealth {
  probeTimestampMs: number;
  readyTransitionTimestampMs: number;
  readyHeartbeat: string | undefined;
  readyTransition: string | undefined;
  leaseRenewTime: string | undefined;
}

export interface HealthResult {
  health: NodeHealth;
  /** Ready before this pass (the taint decision uses it, as upstream does). */
  observedReady: NodeCondition | undefined;
  /** Ready after this pass. */
  currentReady: NodeCondition | undefined;
  /** The node's new status conditions when they must be written (UpdateStatus), else null. */
  conditions: NodeCondition[] | null;
}

const readyOf = (conds: readonly NodeCondition[] | undefined) => conds?.find((c) => c.type === 'Ready');

/** One tryUpdateNodeHealth pass; pure. `now` is the RFC 3339 form of nowMs. */
export function tryUpdateNodeHealth(
  node: Node,
  saved: NodeHealth | undefined,
  lease: Lease | undefined,
  nowMs: number,
  now: string,
  gracePeriods = { monitorMs: NODE_MONITOR_GRACE_PERIOD_MS, startupMs: NODE_STARTUP_GRACE_PERIOD_MS },
): HealthResult {
  const observedReady = readyOf(node.status?.conditions);
  const gracePeriodMs = observedReady ? gracePeriods.monitorMs : gracePeriods.startupMs;
  const health: NodeHealth = saved
    ? { ...saved }
    : {
        probeTimestampMs: nowMs,
        readyTransitionTimestampMs: nowMs,
        readyHeartbeat: observedReady?.lastHeartbeatTime,
        readyTransition: observedReady?.lastTransitionTime,
        leaseRenewTime: undefined,
      };
  if (saved && observedReady && saved.readyHeartbeat !== observedReady.lastHeartbeatTime) {
    // the kubelet posted status since we last looked
    if (saved.readyTransition !== observedReady.lastTransitionTime)
      health.readyTransitionTimestampMs = nowMs;
    health.probeTimestampMs = nowMs;
    health.readyHeartbeat = observedReady.lastHeartbeatTime;
    health.readyTransition = observedReady.lastTransitionTime;
  }
  const renew = lease?.spec?.renewTime;
  if (renew !== undefined && (health.leaseRenewTime === undefined || health.leaseRenewTime < renew)) {
    // "Always update the probe time if node lease is renewed."
    health.leaseRenewTime = renew;
    health.probeTimestampMs = nowMs;
  }
  if (nowMs <= health.probeTimestampMs + gracePeriodMs)
    return { health, observedReady, currentReady: observedReady, conditions: null };
  const conditions = markUnknown(node, now);
  const currentReady = readyOf(conditions);
  if (JSON.stringify(currentReady) === JSON.stringify(observedReady))
    return { health, observedReady, currentReady, conditions: null };
  health.readyTransitionTimestampMs = nowMs;
  return { health, observedReady, currentReady, conditions };
}

/** Ready and the pressure conditions become Unknown (added when the kubelet never posted them). */
function markUnknown(node: Node, now: string): NodeCondition[] {
  const conditions = (node.status?.conditions ?? []).map((c) => ({ ...c }));
  for (const type of WATCHED_CONDITIONS) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      conditions.push({
        type,
        status: 'Unknown',
        reason: NEVER_UPDATED_REASON,
        message: NEVER_POSTED_MESSAGE,
        ...(node.metadata.creationTimestamp ? { lastHeartbeatTime: node.metadata.creationTimestamp } : {}),
        lastTransitionTime: now,
      });
    } else if (c.status !== 'Unknown') {
      c.status = 'Unknown';
      c.reason = NODE_STATUS_UNKNOWN;
      c.message = STOPPED_POSTING_MESSAGE;
      c.lastTransitionTime = now;
    }
  }
  return conditions;
}
