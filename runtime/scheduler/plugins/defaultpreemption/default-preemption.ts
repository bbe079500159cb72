// The DefaultPreemption PostFilter. mirrors PostFilter in
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go and Evaluator.Preempt /
// findCandidates in pkg/scheduler/framework/preemption/preemption.go: check the pod may preempt,
// dry-run the nodes the filters rejected as Unschedulable (not UnschedulableAndUnresolvable) from a
// random offset (candidates.ts; victims with reprieve and PDBs in select-victims.ts), pick one
// (pick-node.ts). Nothing is evicted here: the caller deletes the chosen victims (prepareCandidate).
// When nothing fits the FitError is "preemption: 0/N nodes are available: ...".
// When no node helps, the result nominates "" (clear the pod's nomination), as upstream.
// Not modelled: extenders, async preemption (the caller evicts synchronously).
import { aggregateText } from '../../../api/index.ts';
import type { Status } from '../../framework/interface.ts';
import type { CycleContext, NodeToStatus, PostFilterPlugin, PostFilterResult } from '../../framework/cycle.ts';
import { fitErrorMessage } from '../../fit-error.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import { errorStatus, newStatus, success, unresolvable, unschedulable } from '../../framework/status.ts';
import {
  DEFAULT_PREEMPTION_ARGS,
  dryRunPreemption,
  getOffsetAndNumCandidates,
  type DefaultPreemptionArgs,
} from './candidates.ts';
import { ineligibleToPreempt } from './eligibility.ts';
import { selectCandidate } from './pick-node.ts';
import type { FilterFn } from './select-victims.ts';

export { MSG_POLICY_NEVER, MSG_TERMINATING_VICTIM } from './eligibility.ts';
export { MSG_NO_VICTIMS } from './select-victims.ts';

export const NAME = 'DefaultPreemption';
export const MSG_NOT_HELPFUL = 'Preemption is not helpful for scheduling';

/** Evaluator.Preempt after the eligibility check: the nominated node and victims, or why none. */
function preempt(
  pod: SchedPodInfo,
  statuses: NodeToStatus,
  ctx: CycleContext,
  filter: FilterFn,
  state: Parameters<FilterFn>[0],
  args: DefaultPreemptionArgs,
): [PostFilterResult | null, Status] {
  const nowMs = ctx.nowMs ?? 0;
  // NodesForStatusCode(Unschedulable): evicting pods cannot cure UnschedulableAndUnresolvable
  const potentialNodes = ctx.allNodes.filter((n) => statuses.get(n.node?.name ?? '')?.code === 'Unschedulable');
  let nodeStatuses = new Map<string, Status>();
  if (potentialNodes.length > 0) {
    const [offset, numCandidates] = getOffsetAndNumCandidates(potentialNodes.length, ctx.intn ?? (() => 0), args);
    const pdbs = ctx.pdbs ?? [];
    const run = dryRunPreemption({ state, pod, potentialNodes, pdbs, offset, numCandidates, filter, nowMs });
    if (run.candidates.length === 0 && run.errors.length > 0)
      return [null, errorStatus('preemption: ' + aggregateText(run.errors))];
    const best = selectCandidate(run.candidates, nowMs);
    if (best) {
      const victims = best.victims.pods.map((v) => ({ namespace: v.namespace, name: v.name }));
      return [{ nominatedNodeName: best.name, victims }, success()];
    }
    nodeStatuses = run.nodeStatuses;
  }
  // SetAbsentNodesStatus: every node the dry run did not report on
  for (const n of ctx.allNodes) {
    const name = n.node?.name ?? '';
    if (!nodeStatuses.has(name)) nodeStatuses.set(name, unresolvable(MSG_NOT_HELPFUL));
  }
  const message = fitErrorMessage(ctx.allNodes.length, '', nodeStatuses, '');
  // NewPostFilterResultWithNominatedNode(""): no node helps, so a nomination the pod holds is cleared
  return [{ nominatedNodeName: '', victims: [] }, newStatus('Unschedulable', 'preemption: ' + message)];
}

export function newDefaultPreemption(args: DefaultPreemptionArgs = DEFAULT_PREEMPTION_ARGS): PostFilterPlugin {
  return {
    name: NAME,
    postFilter(state, pod, statuses: NodeToStatus, ctx, filter: FilterFn) {
      const why = ineligibleToPreempt(pod, statuses, ctx.allNodes);
      if (why !== '') return [null, unschedulable('preemption: ' + why)];
      return preempt(pod, statuses, ctx, filter, state, args);
    },
  };
}
