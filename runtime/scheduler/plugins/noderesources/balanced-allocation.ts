// mirrors pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go: favours nodes whose
// CPU and memory would be used in equal proportions. Best-effort pods (no requests at all) are
// skipped at PreScore, so the plugin gives them no score.
import type { ScorePlugin } from '../../framework/interface.ts';
import type { PreScorePlugin } from '../../framework/cycle.ts';
import type { SchedNodeInfo } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import { errorStatus, skip, success } from '../../framework/status.ts';
import {
  DEFAULT_RESOURCES,
  podRequestList,
  requestedAndAllocatable,
  type ScoredResource,
} from './resource-allocation.ts';
import { balancedResourceScorer } from './scorers.ts';

export const NAME = 'NodeResourcesBalancedAllocation';
const PRE_SCORE_KEY = 'PreScore' + NAME;

export interface BalancedAllocationArgs {
  resources: ScoredResource[];
}

export function newBalancedAllocation(
  args: BalancedAllocationArgs = { resources: [...DEFAULT_RESOURCES] },
): PreScorePlugin & ScorePlugin {
  const { resources } = args;
  return {
    name: NAME,
    preScore(state, pod) {
      const requests = podRequestList(pod, resources, true);
      if (requests.every((r) => r === 0)) return skip();
      state.set(PRE_SCORE_KEY, requests);
      return success();
    },
    score(state, pod, nodeInfo) {
      const info = nodeInfo as SchedNodeInfo;
      if (!info.node) return [0, errorStatus('node not found')];
      const podRequests =
        (state.get(PRE_SCORE_KEY) as number[] | undefined) ??
        podRequestList(pod as SchedPodInfo, resources, true);
      const [requested, allocatable] = requestedAndAllocatable(info, resources, podRequests, true);
      return [balancedResourceScorer(requested, allocatable), success()];
    },
    scoreExtensions: () => null,
  };
}
