// Finding the nodes where preemption would help. mirrors pkg/scheduler/framework/preemption/
// preemption.go (findCandidates, DryRunPreemption, candidateList) and GetOffsetAndNumCandidates /
// calculateNumCandidates in .../plugins/defaultpreemption/default_preemption.go. Upstream dry-runs
// the nodes in parallel and stops early once enough candidates are found; here the nodes are tried
// one at a time from the random offset, which is what upstream's tests see with parallelism 1.
import type { PodDisruptionBudget } from '../../../api/index.ts';
import { cloneCycleState } from '../../framework/cycle.ts';
import type { CycleState, Intn, Status } from '../../framework/interface.ts';
import { cloneNodeInfo, type SchedNodeInfo } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import { errorStatus, isSuccess, statusMessage } from '../../framework/status.ts';
import { selectVictimsOnNode, type FilterFn } from './select-victims.ts';

/** config.DefaultPreemptionArgs, with its v1 defaults (SetDefaults_DefaultPreemptionArgs). */
export interface DefaultPreemptionArgs {
  minCandidateNodesPercentage: number;
  minCandidateNodesAbsolute: number;
}

export const DEFAULT_PREEMPTION_ARGS: DefaultPreemptionArgs = Object.freeze({
  minCandidateNodesPercentage: 10,
  minCandidateNodesAbsolute: 100,
});

/** extenderv1.Victims: the pods to evict (most important first) and how many break a PDB. */
export interface Victims {
  pods: SchedPodInfo[];
  numPDBViolations: number;
}

/** preemption.Candidate: a node where the preemptor fits once its victims are gone. */
export interface Candidate {
  name: string;
  victims: Victims;
}

/** calculateNumCandidates: a percentage of the nodes, at least the absolute minimum, at most all. */
export function calculateNumCandidates(
  numNodes: number,
  args: DefaultPreemptionArgs = DEFAULT_PREEMPTION_ARGS,
): number {
  // int32 arithmetic: the product is truncated towards zero
  const n = Math.trunc((numNodes * args.minCandidateNodesPercentage) / 100);
  return Math.min(Math.max(n, args.minCandidateNodesAbsolute), numNodes);
}

/** GetOffsetAndNumCandidates: a random start among the nodes (rand.Int31n) and how many to find. */
export function getOffsetAndNumCandidates(
  numNodes: number,
  intn: Intn,
  args: DefaultPreemptionArgs = DEFAULT_PREEMPTION_ARGS,
): [offset: number, numCandidates: number] {
  return [numNodes > 0 ? intn(numNodes) : 0, calculateNumCandidates(numNodes, args)];
}

export interface DryRunResult {
  /** Candidates that break no PDB first, then the others, each in the order they were found. */
  candidates: Candidate[];
  /** Why each node tried and not kept failed. */
  nodeStatuses: Map<string, Status>;
  /** Messages of the Error statuses (upstream aggregates them). */
  errors: string[];
}

export interface DryRunInput {
  state: CycleState;
  pod: SchedPodInfo;
  potentialNodes: readonly SchedNodeInfo[];
  pdbs: readonly PodDisruptionBudget[];
  offset: number;
  numCandidates: number;
  filter: FilterFn;
  nowMs: number;
}

/**
 * DryRunPreemption: tries each potential node from the offset, wrapping around, and stops once it
 * holds a PDB-respecting candidate and numCandidates in all. Each list keeps at most numCandidates
 * (upstream's candidateList drops what does not fit), so it may look past violating nodes.
 */
export function dryRunPreemption(input: DryRunInput): DryRunResult {
  const { potentialNodes, numCandidates } = input;
  const nonViolating: Candidate[] = [];
  const violating: Candidate[] = [];
  const nodeStatuses = new Map<string, Status>();
  const errors: string[] = [];
  const n = potentialNodes.length;
  for (let i = 0; i < n; i++) {
    const copy = cloneNodeInfo(potentialNodes[(input.offset + i) % n]!);
    const name = copy.node?.name ?? '';
    const { victims, numPDBViolations, status } = selectVictimsOnNode(
      cloneCycleState(input.state), input.pod, copy, input.pdbs, input.filter, input.nowMs,
    );
    if (isSuccess(status) && victims.length > 0) {
      const list = numPDBViolations === 0 ? nonViolating : violating;
      if (list.length < numCandidates) list.push({ name, victims: { pods: victims, numPDBViolations } });
      if (nonViolating.length > 0 && nonViolating.length + violating.length >= numCandidates) break;
      continue;
    }
    const failed = isSuccess(status)
      ? errorStatus(`expected at least one victim pod on node "${name}"`)
      : status;
    if (failed.code === 'Error') errors.push(statusMessage(failed));
    nodeStatuses.set(name, failed);
  }
  return { candidates: [...nonViolating, ...violating], nodeStatuses, errors };
}
