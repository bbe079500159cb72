// mirrors pkg/scheduler/framework/plugins/nodeports/node_ports.go (PreFilter computes the pod's
// host ports, Skip when none; Filter checks them against the node's used ports) and
// pkg/scheduler/framework/types.go HostPortInfo.CheckConflict: same protocol and port conflict when
// either IP is 0.0.0.0 or the IPs are equal.
import type { FilterPlugin, PreFilterPlugin } from '../../framework/cycle.ts';
import type { HostPort } from '../../framework/pod-info.ts';
import { errorStatus, skip, success, unschedulable } from '../../framework/status.ts';

export const NAME = 'NodePorts';
export const ERR_REASON = "node(s) didn't have free ports for the requested pod ports";
const PRE_FILTER_KEY = 'PreFilter' + NAME;

function conflicts(a: HostPort, b: HostPort): boolean {
  if (a.port !== b.port || a.protocol !== b.protocol) return false;
  return a.ip === '0.0.0.0' || b.ip === '0.0.0.0' || a.ip === b.ip;
}

export function fitsPorts(wanted: readonly HostPort[], used: readonly HostPort[]): boolean {
  return !wanted.some((w) => used.some((u) => conflicts(w, u)));
}

export function newNodePorts(): PreFilterPlugin & FilterPlugin {
  return {
    name: NAME,
    preFilter(state, pod) {
      if (pod.hostPorts.length === 0) return [null, skip()];
      state.set(PRE_FILTER_KEY, pod.hostPorts);
      return [null, success()];
    },
    filter(state, _pod, nodeInfo) {
      const wanted = state.get(PRE_FILTER_KEY) as HostPort[] | undefined;
      if (!wanted) return errorStatus(`reading "${PRE_FILTER_KEY}" from cycleState: not found`);
      return fitsPorts(wanted, nodeInfo.usedPorts) ? success() : unschedulable(ERR_REASON);
    },
  };
}
