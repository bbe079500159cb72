// Mutant "health-no-startup-grace": Gives a node that never posted status the ordinary 50 s grace period instead of the 60 s startup one.
// A plausible wrong solution; the hidden suite must fail it.
import type { Lease, Node, NodeCondition, Taint, Toleration } from '../../../runtime/api/index.ts';
import type { NodeHealth, NodeHealthUpdate, PendingEviction } from '../../../runtime/controllers/index.ts';

const NODE_MONITOR_GRACE_PERIOD_MS = 50_000;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

const readyOf = (conditions: readonly NodeCondition[] | undefined) => conditions?.find((c) => c.type === 'Ready');

// ---------------------------------------------------------------- tryUpdateNodeHealth

export function tryUpdateNodeHealth(
  node: Node,
  saved: NodeHealth | undefined,
  lease: Lease | undefined,
  nowMs: number,
  now: string,
): NodeHealthUpdate {
  const current = readyOf(node.status?.conditions);
  const created = node.metadata.creationTimestamp;
  let graceMs: number;
  let health: NodeHealth | undefined = saved && { ...saved };
  if (!current) {
    // never posted: the startup grace period, counted from the creation time
    graceMs = NODE_MONITOR_GRACE_PERIOD_MS;
    if (health) {
      health.readyHeartbeat = undefined;
      health.readyTransition = undefined;
    } else {
      const createdMs = Date.parse(created ?? '');
      health = { probeTimestampMs: createdMs, readyTransitionTimestampMs: createdMs, readyHeartbeat: undefined, readyTransition: undefined, leaseRenewTime: undefined };
    }
  } else {
    graceMs = NODE_MONITOR_GRACE_PERIOD_MS;
  }

  const savedLease = health?.leaseRenewTime;
  const recordNow = (transitionMs: number): NodeHealth => ({
    probeTimestampMs: nowMs,
    readyTransitionTimestampMs: transitionMs,
    readyHeartbeat: current?.lastHeartbeatTime,
    readyTransition: current?.lastTransitionTime,
    leaseRenewTime: undefined,
  });
  if (!health || (health.readyHeartbeat === undefined && current)) {
    health = recordNow(nowMs);
  } else if (current && health.readyHeartbeat !== current.lastHeartbeatTime) {
    health = recordNow(health.readyTransition !== current.lastTransitionTime ? nowMs : health.readyTransitionTimestampMs);
  }

  const renew = lease?.spec?.renewTime;
  if (lease && (savedLease === undefined || (renew !== undefined && savedLease < renew))) {
    health.leaseRenewTime = renew;
    health.probeTimestampMs = nowMs;
  }

  if (nowMs <= health.probeTimestampMs + graceMs) return { health, conditions: null };

  const conditions = (node.status?.conditions ?? []).map((c) => ({ ...c }));
  for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      conditions.push({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        lastHeartbeatTime: created,
        lastTransitionTime: now,
      });
    } else if (c.status !== 'Unknown') {
      c.status = 'Unknown';
      c.reason = 'NodeStatusUnknown';
      c.message = 'Kubelet stopped posting node status.';
      c.lastTransitionTime = now;
    }
  }
  const ready = readyOf(conditions)!;
  const unchanged = current !== undefined && current.status === 'Unknown';
  if (unchanged) return { health, conditions: null };
  return {
    health: {
      probeTimestampMs: health.probeTimestampMs,
      readyTransitionTimestampMs: nowMs,
      readyHeartbeat: ready.lastHeartbeatTime,
      readyTransition: ready.lastTransitionTime,
      leaseRenewTime: renew,
    },
    conditions,
  };
}

// ---------------------------------------------------------------- taints

const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: NOT_READY, Unknown: UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const NO_SCHEDULE_KEYS = new Set([...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)), UNSCHEDULABLE]);

const ownNoSchedule = (t: Taint) => t.effect === 'NoSchedule' && NO_SCHEDULE_KEYS.has(t.key);
const ownNoExecute = (t: Taint) => t.effect === 'NoExecute' && (t.key === NOT_READY || t.key === UNREACHABLE);

export function reconcileNodeTaints(node: Node, now: string): Taint[] {
  const current = node.spec?.taints ?? [];
  const existing = (key: string, effect: Taint['effect']) => current.find((t) => t.key === key && t.effect === effect);
  const add = (key: string, effect: Taint['effect']): Taint => existing(key, effect) ?? { key, effect, timeAdded: now };

  // doNoScheduleTaintingPass: one NoSchedule taint per condition that calls for it, and cordoning
  const noScheduleKeys: string[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key && !noScheduleKeys.includes(key)) noScheduleKeys.push(key);
  }
  if (node.spec?.unschedulable && !noScheduleKeys.includes(UNSCHEDULABLE)) noScheduleKeys.push(UNSCHEDULABLE);
  const noSchedule = noScheduleKeys.map((key) => add(key, 'NoSchedule'));

  // the NoExecute taint follows Ready: False -> not-ready, Unknown -> unreachable, True -> neither
  const ready = readyOf(node.status?.conditions);
  let noExecute: Taint[];
  if (!ready) noExecute = current.filter(ownNoExecute);
  else if (ready.status === 'False') noExecute = [add(NOT_READY, 'NoExecute')];
  else if (ready.status === 'Unknown') noExecute = [add(UNREACHABLE, 'NoExecute')];
  else noExecute = [];

  return [...current.filter((t) => !ownNoSchedule(t) && !ownNoExecute(t)), ...noExecute, ...noSchedule];
}

// ---------------------------------------------------------------- taint eviction

function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  if (t.operator === undefined || t.operator === 'Equal') return (t.value ?? '') === (taint.value ?? '');
  return false;
}

export function processPodOnNode(
  tolerations: readonly Toleration[],
  taints: readonly Taint[],
  nowMs: number,
  pending: PendingEviction | null,
): PendingEviction | null {
  const noExecute = taints.filter((t) => t.effect === 'NoExecute');
  if (noExecute.length === 0) return null;

  // GetMatchingTolerations: the first toleration that tolerates each taint
  const used: Toleration[] = [];
  for (const taint of noExecute) {
    const match = tolerations.find((t) => tolerates(t, taint));
    if (!match) return { createdAtMs: nowMs, fireAtMs: nowMs }; // not tolerated: delete at once
    used.push(match);
  }

  // getMinTolerationTime: <= 0 means at once, no tolerationSeconds means forever
  let minSeconds = Infinity;
  for (const t of used) {
    if (t.tolerationSeconds === undefined) continue;
    minSeconds = Math.min(minSeconds, Math.max(0, t.tolerationSeconds));
  }
  if (minSeconds === Infinity) return null;

  const delayMs = minSeconds * 1000;
  if (!pending) return { createdAtMs: nowMs, fireAtMs: nowMs + delayMs };
  if (pending.createdAtMs + delayMs < nowMs + delayMs) return pending; // the earlier start stands
  return { createdAtMs: pending.createdAtMs, fireAtMs: nowMs + delayMs };
}
