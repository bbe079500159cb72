// mirrors pkg/scheduler/framework/plugins/noderesources/fit.go: PreFilter computes the pod's
// requests once; Filter rejects a node without room ("Too many pods", "Insufficient cpu",
// "Insufficient memory", "Insufficient ephemeral-storage", all reported together); Score ranks
// nodes by the configured strategy (LeastAllocated by default).
import type { ScorePlugin, Status } from '../../framework/interface.ts';
import type { FilterPlugin, PreFilterPlugin, PreScorePlugin } from '../../framework/cycle.ts';
import type { SchedNodeInfo } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import type { FullResource } from '../../framework/resources.ts';
import { errorStatus, success, unschedulable } from '../../framework/status.ts';
import {
  DEFAULT_RESOURCES,
  podRequestList,
  requestedAndAllocatable,
  type ScoredResource,
} from './resource-allocation.ts';
import {
  leastAllocatedScorer,
  mostAllocatedScorer,
  requestedToCapacityRatioScorer,
  type Scorer,
} from './scorers.ts';

export const NAME = 'NodeResourcesFit';
const PRE_FILTER_KEY = 'PreFilter' + NAME;
const PRE_SCORE_KEY = 'PreScore' + NAME;

export type ScoringStrategyType = 'LeastAllocated' | 'MostAllocated' | 'RequestedToCapacityRatio';

/** config.NodeResourcesFitArgs (the parts this simulation models). */
export interface NodeResourcesFitArgs {
  scoringStrategy: {
    type: ScoringStrategyType;
    resources: ScoredResource[];
    requestedToCapacityRatio?: { shape: { utilization: number; score: number }[] };
  };
}

export const DEFAULT_FIT_ARGS: NodeResourcesFitArgs = {
  scoringStrategy: { type: 'LeastAllocated', resources: [...DEFAULT_RESOURCES] },
};

/** framework.InsufficientResource. */
export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
}

/** fitsRequest: every resource the node lacks for this pod, pods count first. */
export function fitsRequest(
  podRequest: FullResource,
  nodeInfo: SchedNodeInfo,
): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const { allocatable, requested } = nodeInfo;
  if (nodeInfo.pods.length + 1 > allocatable.allowedPodNumber) {
    out.push({
      resourceName: 'pods',
      reason: 'Too many pods',
      requested: 1,
      used: nodeInfo.pods.length,
      capacity: allocatable.allowedPodNumber,
    });
  }
  if (podRequest.milliCPU === 0 && podRequest.memory === 0 && podRequest.ephemeralStorage === 0)
    return out;
  const check = (name: string, want: number, cap: number, used: number): void => {
    if (want > 0 && want > cap - used) {
      out.push({
        resourceName: name,
        reason: `Insufficient ${name}`,
        requested: want,
        used,
        capacity: cap,
      });
    }
  };
  check('cpu', podRequest.milliCPU, allocatable.milliCPU, requested.milliCPU);
  check('memory', podRequest.memory, allocatable.memory, requested.memory);
  check(
    'ephemeral-storage',
    podRequest.ephemeralStorage,
    allocatable.ephemeralStorage,
    requested.ephemeralStorage,
  );
  return out;
}

function scorerFor(args: NodeResourcesFitArgs): Scorer {
  const { type, resources, requestedToCapacityRatio } = args.scoringStrategy;
  if (type === 'MostAllocated') return mostAllocatedScorer(resources);
  if (type === 'RequestedToCapacityRatio') {
    return requestedToCapacityRatioScorer(resources, requestedToCapacityRatio?.shape ?? []);
  }
  return leastAllocatedScorer(resources);
}

export function newNodeResourcesFit(
  args: NodeResourcesFitArgs = DEFAULT_FIT_ARGS,
): PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin {
  const resources = args.scoringStrategy.resources;
  const scorer = scorerFor(args);
  return {
    name: NAME,
    preFilter(state, pod) {
      state.set(PRE_FILTER_KEY, pod.requests);
      return [null, success()];
    },
    filter(state, _pod, nodeInfo): Status {
      const podRequest = state.get(PRE_FILTER_KEY) as FullResource | undefined;
      if (!podRequest) return errorStatus(`reading "${PRE_FILTER_KEY}" from cycleState: not found`);
      const insufficient = fitsRequest(podRequest, nodeInfo);
      if (insufficient.length === 0) return success();
      return unschedulable(...insufficient.map((r) => r.reason));
    },
    preScore(state, pod) {
      state.set(PRE_SCORE_KEY, podRequestList(pod, resources, false));
      return success();
    },
    score(state, pod, nodeInfo) {
      const info = nodeInfo as SchedNodeInfo;
      if (!info.node) return [0, errorStatus('node not found')];
      const podRequests =
        (state.get(PRE_SCORE_KEY) as number[] | undefined) ??
        podRequestList(pod as SchedPodInfo, resources, false);
      const [requested, allocatable] = requestedAndAllocatable(info, resources, podRequests, false);
      return [scorer(requested, allocatable), success()];
    },
    scoreExtensions: () => null,
  };
}
