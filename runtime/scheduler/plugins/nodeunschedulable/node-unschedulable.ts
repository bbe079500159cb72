// mirrors pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go: a cordoned node
// (spec.unschedulable) rejects pods unless they tolerate the node.kubernetes.io/unschedulable
// NoSchedule taint (DaemonSet pods do).
import type { Taint } from '../../../api/index.ts';
import type { FilterPlugin } from '../../framework/cycle.ts';
import { errorStatus, success, unresolvable } from '../../framework/status.ts';
import { tolerationsTolerateTaint } from '../helper/taints.ts';

export const NAME = 'NodeUnschedulable';
export const ERR_REASON_UNKNOWN_CONDITION = 'node(s) had unknown conditions';
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';

const UNSCHEDULABLE_TAINT: Taint = {
  key: 'node.kubernetes.io/unschedulable',
  effect: 'NoSchedule',
};

export function newNodeUnschedulable(): FilterPlugin {
  return {
    name: NAME,
    filter(_state, pod, nodeInfo) {
      const node = nodeInfo.node;
      if (!node) return errorStatus('node not found');
      if (!node.unschedulable) return success();
      if (tolerationsTolerateTaint(pod.pod.spec.tolerations ?? [], UNSCHEDULABLE_TAINT))
        return success();
      return unresolvable(ERR_REASON_UNSCHEDULABLE);
    },
  };
}
