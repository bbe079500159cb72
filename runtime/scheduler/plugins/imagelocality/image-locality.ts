// mirrors pkg/scheduler/framework/plugins/imagelocality/image_locality.go: favours nodes that
// already hold the pod's images, each image's size scaled by the fraction of nodes that have it
// (so an image present everywhere does not sway the choice), the sum clamped between 23 MiB and
// 1000 MiB per container and mapped linearly to 0..100.
import { MAX_NODE_SCORE, type ScorePlugin } from '../../framework/interface.ts';
import type { PreScorePlugin } from '../../framework/cycle.ts';
import type { ImageStateSummary, SchedNodeInfo } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import { errorStatus, success } from '../../framework/status.ts';

export const NAME = 'ImageLocality';
const MB = 1024 * 1024;
export const MIN_THRESHOLD = 23 * MB;
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;
const TOTAL_NODES_KEY = 'PreScore' + NAME;

/** Adds ":latest" when the name has no tag (a ":" after the last "/"). */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? name + ':latest' : name;
}

/** int64(float64(size) * numNodes/totalNumNodes). */
export function scaledImageScore(state: ImageStateSummary, totalNumNodes: number): number {
  const spread = state.numNodes / totalNumNodes;
  return Math.trunc(state.size * spread);
}

export function sumImageScores(
  nodeInfo: SchedNodeInfo,
  pod: SchedPodInfo,
  totalNumNodes: number,
): number {
  let sum = 0;
  const spec = pod.pod.spec;
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    const state = nodeInfo.imageStates.get(normalizedImageName(c.image ?? ''));
    if (state) sum += scaledImageScore(state, totalNumNodes);
  }
  return sum;
}

export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  const clamped = Math.min(Math.max(sumScores, MIN_THRESHOLD), maxThreshold);
  return Math.trunc((MAX_NODE_SCORE * (clamped - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

export function newImageLocality(): PreScorePlugin & ScorePlugin {
  return {
    name: NAME,
    preScore(state, _pod, _nodes, ctx) {
      state.set(TOTAL_NODES_KEY, ctx.allNodes.length);
      return success();
    },
    score(state, pod, nodeInfo) {
      const info = nodeInfo as SchedNodeInfo;
      if (!info.node) return [0, errorStatus('node not found')];
      const total = (state.get(TOTAL_NODES_KEY) as number | undefined) ?? 1;
      const p = pod as SchedPodInfo;
      const numContainers = (p.pod.spec.initContainers?.length ?? 0) + p.pod.spec.containers.length;
      return [calculatePriority(sumImageScores(info, p, total), numContainers), success()];
    },
    scoreExtensions: () => null,
  };
}
