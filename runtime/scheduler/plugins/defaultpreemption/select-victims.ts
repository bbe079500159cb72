// The fewest pods to evict from one node so the preemptor fits. mirrors SelectVictimsOnNode in
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go: remove every pod of lower
// priority, check the preemptor fits, then add them back one at a time ("reprieve"), most important
// first, PDB-violating pods before the others; a pod that cannot come back is a victim.
// Each removed and re-added pod is also told to the PreFilter states that count pods
// (RunPreFilterExtensionRemovePod/AddPod: PodTopologySpread's domain counts), on the dry run's own
// copy of the CycleState.
import type { PodDisruptionBudget } from '../../../api/index.ts';
import type { FilterFn } from '../../framework/cycle.ts';
import type { CycleState, Status } from '../../framework/interface.ts';
import { addPod, removePod, type SchedNodeInfo } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import { isSuccess, success, unresolvable } from '../../framework/status.ts';
import { filterPodsWithPDBViolation } from './pdb.ts';
import { byImportance } from './pod-order.ts';

export const MSG_NO_VICTIMS = 'No preemption victims found for incoming pod';

export type { FilterFn } from '../../framework/cycle.ts';

export interface VictimSelection {
  /** The pods to evict, most important first. Empty unless status is Success. */
  victims: SchedPodInfo[];
  /** How many of the victims break a PodDisruptionBudget. */
  numPDBViolations: number;
  status: Status;
}

/** isPreemptionAllowed with the default IsEligiblePod: only pods of lower priority may go. */
export function isPreemptionAllowed(victim: SchedPodInfo, preemptor: SchedPodInfo): boolean {
  return victim.priority < preemptor.priority;
}

/**
 * Works on `nodeInfo` in place: pass a copy (cloneNodeInfo), as upstream's DryRunPreemption passes
 * NodeInfo.Snapshot().
 */
export function selectVictimsOnNode(
  state: CycleState,
  pod: SchedPodInfo,
  nodeInfo: SchedNodeInfo,
  pdbs: readonly PodDisruptionBudget[],
  filter: FilterFn,
  nowMs: number,
): VictimSelection {
  const potential = nodeInfo.pods.filter((p) => isPreemptionAllowed(p, pod));
  for (const p of potential) {
    removePod(nodeInfo, p.namespace, p.name);
    const s = filter.removePod?.(state, pod, p, nodeInfo) ?? success();
    if (!isSuccess(s)) return { victims: [], numPDBViolations: 0, status: s };
  }
  if (potential.length === 0)
    return { victims: [], numPDBViolations: 0, status: unresolvable(MSG_NO_VICTIMS) };
  // the pod does not fit even on the emptied node: this node cannot help
  const emptied = filter(state, pod, nodeInfo);
  if (!isSuccess(emptied)) return { victims: [], numPDBViolations: 0, status: emptied };

  const order = byImportance(nowMs);
  potential.sort(order);
  const [violating, nonViolating] = filterPodsWithPDBViolation(potential, pdbs);
  const victims: SchedPodInfo[] = [];
  // reprieve: put the pod back; if the preemptor no longer fits, take it out again for good
  let failed: Status | undefined;
  const reprieve = (p: SchedPodInfo): boolean => {
    addPod(nodeInfo, p);
    const added = filter.addPod?.(state, pod, p, nodeInfo) ?? success();
    if (!isSuccess(added)) failed ??= added;
    if (isSuccess(filter(state, pod, nodeInfo))) return true;
    removePod(nodeInfo, p.namespace, p.name);
    const removed = filter.removePod?.(state, pod, p, nodeInfo) ?? success();
    if (!isSuccess(removed)) failed ??= removed;
    victims.push(p);
    return false;
  };
  let numPDBViolations = 0;
  for (const p of violating) if (!reprieve(p)) numPDBViolations++;
  for (const p of nonViolating) reprieve(p);
  // upstream stops at the first extension error and returns it as the node's status
  if (failed) return { victims: [], numPDBViolations: 0, status: failed };
  // victims came from two sorted runs: merge them back into importance order
  if (violating.length > 0 && nonViolating.length > 0) victims.sort(order);
  return { victims, numPDBViolations, status: success() };
}
