// The node-lifecycle lab: when a silent node becomes Unknown, which taints follow from its
// conditions, and when the taint eviction controller deletes a pod from a NoExecute-tainted node.
// Read lab.mdx first. Run the visible examples with `npm run grade -- node-lifecycle --examples`;
// grade with `npm run grade -- node-lifecycle`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { Lease, Node, Taint, Toleration } from '../../runtime/api/index.ts';
import type { NodeHealth, NodeHealthUpdate, PendingEviction } from '../../runtime/controllers/index.ts';

/** One tryUpdateNodeHealth pass: the record to keep, and the conditions to write (null: none). */
export function tryUpdateNodeHealth(
  node: Node,
  saved: NodeHealth | undefined,
  lease: Lease | undefined,
  nowMs: number,
  now: string,
): NodeHealthUpdate {
  // TODO 1: the Ready condition (or the stand-in when there is none) and the grace period.
  // TODO 2: update the record: first sight, a new Ready heartbeat, a renewed Lease.
  // TODO 3: past the grace period, turn Ready and the pressure conditions Unknown; write only if Ready changed.
  void saved;
  void lease;
  void now;
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  return {
    health: { probeTimestampMs: nowMs, readyTransitionTimestampMs: nowMs, readyHeartbeat: ready?.lastHeartbeatTime, readyTransition: ready?.lastTransitionTime, leaseRenewTime: undefined },
    conditions: null,
  };
}

/** The node's taints once the NoSchedule and NoExecute tainting passes have acted on its conditions. */
export function reconcileNodeTaints(node: Node, now: string): Taint[] {
  // TODO 1: one NoSchedule taint per condition that calls for one, and for spec.unschedulable.
  // TODO 2: the NoExecute taint that follows the Ready condition (not-ready or unreachable, never both).
  // TODO 3: keep the taints the controller does not own, and the ones already there with their timeAdded.
  void now;
  return [...(node.spec?.taints ?? [])];
}

/** processPodOnNode: the deletion scheduled for the pod after this update (null: none). */
export function processPodOnNode(
  tolerations: readonly Toleration[],
  taints: readonly Taint[],
  nowMs: number,
  pending: PendingEviction | null,
): PendingEviction | null {
  // TODO 1: the NoExecute taints; for each, the first toleration that tolerates it (none: delete now).
  // TODO 2: the smallest tolerationSeconds among those (<= 0: at once; none at all: never).
  // TODO 3: schedule from now, unless a deletion is already pending.
  void tolerations;
  void taints;
  void nowMs;
  return pending;
}
