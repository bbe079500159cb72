// mirrors pkg/scheduler/framework/plugins/nodename/node_name.go: a pod that names a node
// (spec.nodeName) fits only that node.
import type { FilterPlugin } from '../../framework/cycle.ts';
import { errorStatus, success, unresolvable } from '../../framework/status.ts';

export const NAME = 'NodeName';
export const ERR_REASON = "node(s) didn't match the requested node name";

export function newNodeName(): FilterPlugin {
  return {
    name: NAME,
    filter(_state, pod, nodeInfo) {
      if (!nodeInfo.node) return errorStatus('node not found');
      const wanted = pod.pod.spec.nodeName;
      if (!wanted || wanted === nodeInfo.node.name) return success();
      return unresolvable(ERR_REASON);
    },
  };
}
