// May this pod preempt at all? mirrors PodEligibleToPreemptOthers and podTerminatingByPreemption in
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go.
import type { NodeToStatus } from '../../framework/cycle.ts';
import type { SchedNodeInfo } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import { isPreemptionAllowed } from './select-victims.ts';

export const MSG_POLICY_NEVER = 'not eligible due to preemptionPolicy=Never.';
export const MSG_TERMINATING_VICTIM = 'not eligible due to a terminating pod on the nominated node.';

/** Deleted, with the DisruptionTarget condition preemption gave it (the first such condition decides). */
export function terminatingByPreemption(p: SchedPodInfo): boolean {
  if (!p.pod.metadata.deletionTimestamp) return false;
  const c = (p.pod.status?.conditions ?? []).find((x) => x.type === 'DisruptionTarget');
  return c !== undefined && c.status === 'True' && c.reason === 'PreemptionByScheduler';
}

/**
 * '' when the pod may preempt, else why not: preemptionPolicy Never, or it already preempted on
 * its nominated node and a lower-priority victim there is still terminating (it waits for that
 * room rather than evicting more), unless the filters now reject that node outright.
 */
export function ineligibleToPreempt(
  pod: SchedPodInfo,
  statuses: NodeToStatus,
  nodes: readonly SchedNodeInfo[],
): string {
  if (pod.pod.spec.preemptionPolicy === 'Never') return MSG_POLICY_NEVER;
  const nominated = pod.pod.status?.nominatedNodeName ?? '';
  if (nominated === '') return '';
  // a node absent from the statuses counts as UnschedulableAndUnresolvable (NodeToStatus.Get)
  if ((statuses.get(nominated)?.code ?? 'UnschedulableAndUnresolvable') === 'UnschedulableAndUnresolvable') return '';
  const info = nodes.find((n) => n.node?.name === nominated);
  const waiting = info?.pods.some((p) => isPreemptionAllowed(p, pod) && terminatingByPreemption(p));
  return waiting ? MSG_TERMINATING_VICTIM : '';
}
