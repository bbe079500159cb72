// A simplified DefaultPreemption PostFilter. mirrors the decision and the messages of
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go and
// pkg/scheduler/framework/preemption/preemption.go (Preempt, PodEligibleToPreemptOthers,
// nodesWherePreemptionMightHelp, dryRunPreemption): nodes rejected as UnschedulableAndUnresolvable cannot be helped; on the
// others, evicting every lower-priority pod is tried; when nothing fits the FitError is
// "preemption: 0/N nodes are available: ...". The dry run filters with the pods other preemptors
// were nominated to a node (the caller's filter). Simplified: victims are all lower-priority pods of
// the first node that would fit (upstream reprieves as many as it can, honours PodDisruptionBudgets
// and picks the node by six criteria), and nothing is evicted here: the caller decides.
import type { CycleState, Status } from '../../framework/interface.ts';
import type { NodeToStatus, PostFilterPlugin } from '../../framework/cycle.ts';
import { fitErrorMessage } from '../../fit-error.ts';
import { addPod, type SchedNodeInfo } from '../../framework/node-info.ts';
import { emptyResource } from '../../framework/resources.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import {
  isSuccess,
  newStatus,
  success,
  unresolvable,
  unschedulable,
} from '../../framework/status.ts';

export const NAME = 'DefaultPreemption';
export const MSG_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const MSG_NO_VICTIMS = 'No preemption victims found for incoming pod';
export const MSG_POLICY_NEVER = 'not eligible due to preemptionPolicy=Never.';
export const MSG_TERMINATING_VICTIM = 'not eligible due to a terminating pod on the nominated node.';

/** podTerminatingByPreemption: deleted, with the DisruptionTarget condition preemption gave it. */
function terminatingByPreemption(p: SchedPodInfo): boolean {
  if (!p.pod.metadata.deletionTimestamp) return false;
  return (p.pod.status?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === 'PreemptionByScheduler');
}

/**
 * PodEligibleToPreemptOthers: a pod already nominated to a node where a lower-priority victim is
 * still terminating waits for it instead of preempting again (unless that node can no longer take it).
 */
function waitingForVictims(pod: SchedPodInfo, statuses: NodeToStatus, nodes: readonly SchedNodeInfo[]): boolean {
  const nominated = pod.pod.status?.nominatedNodeName ?? '';
  if (nominated === '' || statuses.get(nominated)?.code === 'UnschedulableAndUnresolvable') return false;
  const info = nodes.find((n) => n.node?.name === nominated);
  return info !== undefined && info.pods.some((p) => p.priority < pod.priority && terminatingByPreemption(p));
}

/** A copy of the node without the pods of lower priority than `pod` (the dry run's victims). */
function withoutLowerPriority(
  info: SchedNodeInfo,
  pod: SchedPodInfo,
): [SchedNodeInfo, SchedPodInfo[]] {
  const copy: SchedNodeInfo = {
    ...info,
    requested: emptyResource(),
    nonZeroRequested: emptyResource(),
    pods: [],
    usedPorts: [],
  };
  const victims: SchedPodInfo[] = [];
  for (const p of info.pods) {
    if (p.priority < pod.priority) victims.push(p);
    else addPod(copy, p);
  }
  return [copy, victims];
}

type Filter = (state: CycleState, pod: SchedPodInfo, nodeInfo: SchedNodeInfo) => Status;

export function newDefaultPreemption(): PostFilterPlugin {
  return {
    name: NAME,
    postFilter(state, pod, statuses: NodeToStatus, ctx, filter: Filter) {
      if (pod.pod.spec.preemptionPolicy === 'Never')
        return [null, unschedulable('preemption: ' + MSG_POLICY_NEVER)];
      if (waitingForVictims(pod, statuses, ctx.allNodes))
        return [null, unschedulable('preemption: ' + MSG_TERMINATING_VICTIM)];
      const preemptionStatuses = new Map<string, Status>();
      for (const info of ctx.allNodes) {
        const name = info.node?.name ?? '';
        const status = statuses.get(name);
        if (!status || status.code === 'UnschedulableAndUnresolvable') {
          preemptionStatuses.set(name, unresolvable(MSG_NOT_HELPFUL));
          continue;
        }
        const [trimmed, victims] = withoutLowerPriority(info, pod);
        if (victims.length > 0 && isSuccess(filter(state, pod, trimmed))) {
          const nominated = {
            nominatedNodeName: name,
            victims: victims.map((v) => ({ namespace: v.namespace, name: v.name })),
          };
          return [nominated, success()];
        }
        preemptionStatuses.set(name, unschedulable(MSG_NO_VICTIMS));
      }
      const message = fitErrorMessage(ctx.allNodes.length, '', preemptionStatuses, '');
      return [null, newStatus('Unschedulable', 'preemption: ' + message)];
    },
  };
}
