// mirrors pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go: Filter rejects a
// node with a NoSchedule/NoExecute taint the pod does not tolerate (the first one, in node order,
// is named in the reason); Score counts PreferNoSchedule taints the pod does not tolerate, and
// NormalizeScore reverses it so the node with the fewest wins.
import type { Taint, Toleration } from '../../../api/index.ts';
import { MAX_NODE_SCORE, type ScorePlugin } from '../../framework/interface.ts';
import type { FilterPlugin, PreScorePlugin } from '../../framework/cycle.ts';
import type { SchedNodeInfo } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import { errorStatus, success, unresolvable } from '../../framework/status.ts';
import { defaultNormalizeScore } from '../helper/normalize-score.ts';
import { findMatchingUntoleratedTaint, tolerationsTolerateTaint } from '../helper/taints.ts';

export const NAME = 'TaintToleration';
const PRE_SCORE_KEY = 'PreScore' + NAME;

/** The Filter reason for an untolerated taint, e.g. "node(s) had untolerated taint {dedicated: gpu}". */
export function untoleratedTaintReason(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

const isHardEffect = (t: Taint): boolean => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

/** Tolerations with an empty effect or PreferNoSchedule (getAllTolerationPreferNoSchedule). */
export function tolerationsPreferNoSchedule(tolerations: readonly Toleration[]): Toleration[] {
  return tolerations.filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
}

export function countIntolerableTaintsPreferNoSchedule(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): number {
  return taints.filter(
    (t) => t.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, t),
  ).length;
}

export function newTaintToleration(): FilterPlugin & PreScorePlugin & ScorePlugin {
  return {
    name: NAME,
    filter(_state, pod, nodeInfo) {
      if (!nodeInfo.node) return errorStatus('invalid nodeInfo');
      const taint = findMatchingUntoleratedTaint(
        nodeInfo.node.taints,
        pod.pod.spec.tolerations ?? [],
        isHardEffect,
      );
      return taint ? unresolvable(untoleratedTaintReason(taint)) : success();
    },
    preScore(state, pod) {
      state.set(PRE_SCORE_KEY, tolerationsPreferNoSchedule(pod.pod.spec.tolerations ?? []));
      return success();
    },
    score(state, pod, nodeInfo) {
      const node = (nodeInfo as SchedNodeInfo).node;
      if (!node) return [0, errorStatus('node not found')];
      const tolerations =
        (state.get(PRE_SCORE_KEY) as Toleration[] | undefined) ??
        tolerationsPreferNoSchedule((pod as SchedPodInfo).pod.spec.tolerations ?? []);
      return [countIntolerableTaintsPreferNoSchedule(node.taints, tolerations), success()];
    },
    scoreExtensions: () => ({
      normalizeScore: (_state, _pod, scores) => [
        defaultNormalizeScore(MAX_NODE_SCORE, true, scores),
        success(),
      ],
    }),
  };
}
