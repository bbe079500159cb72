// How the node lifecycle controller decides a node has gone silent. mirrors
// pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth): the probe
// timestamp moves whenever the kubelet's Ready heartbeat or its Lease in kube-node-lease is seen
// to change (on the controller's own clock, never the kubelet's); once it is older than the grace
// period, Ready and the pressure conditions become Unknown.
import { SIMULATION_EPOCH_MS, parseRFC3339, type Lease, type Node, type NodeCondition } from '../../api/index.ts';

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

/**
 * nodeHealthData: what the controller remembers per node (volatile: lost on a restart). Upstream
 * keeps the whole NodeStatus and Lease; only their Ready condition's two timestamps and the
 * Lease's renewTime are ever read.
 */
export interface NodeHealth {
  /** When the controller last saw the kubelet alive (its own clock). */
  probeTimestampMs: number;
  /** When the controller last saw the Ready condition change (its own clock). */
  readyTransitionTimestampMs: number;
  /** lastHeartbeatTime of the recorded status's Ready condition; undefined when that status had no Ready. */
  readyHeartbeat: string | undefined;
  /** lastTransitionTime of the recorded status's Ready condition. */
  readyTransition: string | undefined;
  /** spec.renewTime of the recorded Lease; undefined when no Lease is recorded. */
  leaseRenewTime: string | undefined;
}

/** A health pass's answer: the record to keep, and the node's new conditions to write (null: none). */
export interface NodeHealthUpdate {
  health: NodeHealth;
  conditions: NodeCondition[] | null;
}

export interface HealthResult extends NodeHealthUpdate {
  /**
   * Ready before this pass (the taint decision uses it, as upstream does); when the node has no
   * Ready condition, upstream's stand-in: Unknown, with the node's creationTimestamp as both times.
   */
  observedReady: NodeCondition;
  /** Ready after this pass (undefined when the node has none and nothing was written). */
  currentReady: NodeCondition | undefined;
}

const readyOf = (conds: readonly NodeCondition[] | undefined) => conds?.find((c) => c.type === 'Ready');

/**
 * One tryUpdateNodeHealth pass; pure. `now` is the RFC 3339 form of nowMs; `epochMs` is what time 0
 * of nowMs is (the simulation's epoch by default; 0 when nowMs is already Unix milliseconds), used
 * to read the node's creationTimestamp on the same clock.
 */
export function tryUpdateNodeHealth(
  node: Node,
  saved: NodeHealth | undefined,
  lease: Lease | undefined,
  nowMs: number,
  now: string,
  gracePeriods = { monitorMs: NODE_MONITOR_GRACE_PERIOD_MS, startupMs: NODE_STARTUP_GRACE_PERIOD_MS },
  epochMs: number = SIMULATION_EPOCH_MS,
): HealthResult {
  const current = readyOf(node.status?.conditions);
  const created = node.metadata.creationTimestamp;
  let observedReady: NodeCondition;
  let gracePeriodMs: number;
  let health: NodeHealth | undefined = saved ? { ...saved } : undefined;
  if (!current) {
    // the kubelet never posted status: a stand-in Ready and the (longer) startup grace period
    observedReady = { type: 'Ready', status: 'Unknown', ...(created ? { lastHeartbeatTime: created, lastTransitionTime: created } : {}) };
    gracePeriodMs = gracePeriods.startupMs;
    if (health) {
      // nodeHealth.status = &node.Status: the recorded status has no Ready any more
      health.readyHeartbeat = undefined;
      health.readyTransition = undefined;
    } else {
      const createdMs = (created ? parseRFC3339(created, epochMs) : undefined) ?? 0;
      health = { probeTimestampMs: createdMs, readyTransitionTimestampMs: createdMs, readyHeartbeat: undefined, readyTransition: undefined, leaseRenewTime: undefined };
    }
  } else {
    observedReady = current;
    gracePeriodMs = gracePeriods.monitorMs;
  }
  const savedHasReady = health !== undefined && health.readyHeartbeat !== undefined;
  const savedLease = health?.leaseRenewTime;
  const fresh = (transitionMs: number): NodeHealth => ({
    probeTimestampMs: nowMs,
    readyTransitionTimestampMs: transitionMs,
    readyHeartbeat: current?.lastHeartbeatTime,
    readyTransition: current?.lastTransitionTime,
    leaseRenewTime: undefined, // a new nodeHealthData: the recorded Lease is dropped
  });
  if (!health || (!savedHasReady && current)) {
    // first sight of the node, or of its Ready condition
    health = fresh(nowMs);
  } else if (current && health.readyHeartbeat !== current.lastHeartbeatTime) {
    // the kubelet posted status since we last looked
    health = fresh(health.readyTransition !== current.lastTransitionTime ? nowMs : health.readyTransitionTimestampMs);
  }
  const renew = lease?.spec?.renewTime;
  if (lease && (savedLease === undefined || (renew !== undefined && savedLease < renew))) {
    // "Always update the probe time if node lease is renewed."
    health.leaseRenewTime = renew;
    health.probeTimestampMs = nowMs;
  }
  if (nowMs <= health.probeTimestampMs + gracePeriodMs)
    return { health, observedReady, currentReady: current, conditions: null };
  const conditions = markUnknown(node, now);
  const currentReady = readyOf(conditions);
  if (JSON.stringify(currentReady) === JSON.stringify(observedReady))
    return { health, observedReady, currentReady, conditions: null };
  // written: the recorded status is the new one, the Lease the one observed now
  return {
    health: {
      probeTimestampMs: health.probeTimestampMs,
      readyTransitionTimestampMs: nowMs,
      readyHeartbeat: currentReady?.lastHeartbeatTime,
      readyTransition: currentReady?.lastTransitionTime,
      leaseRenewTime: renew,
    },
    observedReady,
    currentReady,
    conditions,
  };
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
