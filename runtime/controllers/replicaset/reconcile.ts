// The reference ReplicaSetReconciler (see types.ts): the decision step of syncReplicaSet and
// manageReplicas, with upstream's ranking of which pods to delete first.
// mirrors pkg/controller/replicaset/replica_set.go (manageReplicas, getPodsToDelete,
// getPodsRankedByRelatedPodsOnSameNode) and pkg/controller/controller_utils.go
// (ActivePodsWithRanks.Less, with LogarithmicScaleDown and PodDeletionCost not applied; both
// feature gates are on by default in real clusters since 1.22).
import type { Pod } from '../../api/index.ts';
import { controllerOf, isPodActive, isPodReady, selectorMatches } from '../controller-utils.ts';
import type { ReplicaSetDecision, ReplicaSetReconciler } from './types.ts';

export const reconcileReplicaSet: ReplicaSetReconciler = (rs, pods, context): ReplicaSetDecision => {
  const none = { podsToCreate: 0, podsToDelete: [] };
  if (rs.metadata.deletionTimestamp) return none;
  const mine = pods.filter((p) => isPodActive(p) && controllerOf(p)?.uid === rs.metadata.uid && selectorMatches(rs.spec.selector, p.metadata.labels));
  const diff = mine.length - (rs.spec.replicas ?? 1);
  if (diff < 0) return { podsToCreate: Math.min(-diff, context.burstReplicas), podsToDelete: [] };
  if (diff === 0) return none;
  const doomed = rankPodsForDeletion(mine, context.relatedPods).slice(0, Math.min(diff, context.burstReplicas));
  return { podsToCreate: 0, podsToDelete: doomed.map((p) => p.metadata.name ?? '') };
};

/**
 * Pods sorted most deletable first (getPodsRankedByRelatedPodsOnSameNode, then sort): a pod's rank
 * is the number of active related pods on its node, and more goes first among otherwise equal pods.
 */
export function rankPodsForDeletion(pods: readonly Pod[], relatedPods: readonly Pod[]): Pod[] {
  const perNode = new Map<string, number>();
  for (const p of relatedPods) if (isPodActive(p)) perNode.set(nodeOf(p), (perNode.get(nodeOf(p)) ?? 0) + 1);
  return pods
    .map((pod) => ({ pod, rank: perNode.get(nodeOf(pod)) ?? 0 }))
    .sort((a, b) => lessForDeletion(a.pod, a.rank, b.pod, b.rank))
    .map((r) => r.pod);
}

const PHASE_ORDER: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** ActivePodsWithRanks.Less as a comparator: negative when a goes first. */
function lessForDeletion(a: Pod, rankA: number, b: Pod, rankB: number): number {
  const nodeA = nodeOf(a);
  const nodeB = nodeOf(b);
  // 1. unassigned < assigned
  if (nodeA !== nodeB && (nodeA === '' || nodeB === '')) return nodeA === '' ? -1 : 1;
  // 2. PodPending < PodUnknown < PodRunning
  const phase = (PHASE_ORDER[a.status?.phase ?? ''] ?? 0) - (PHASE_ORDER[b.status?.phase ?? ''] ?? 0);
  if (phase !== 0) return phase;
  // 3. not ready < ready
  const readyA = isPodReady(a);
  const readyB = isPodReady(b);
  if (readyA !== readyB) return readyA ? 1 : -1;
  // 4. more related pods on the same node first (doubled-up pods go first; PodDeletionCost, which
  // upstream checks just before this when its feature gate is on, is not simulated)
  if (rankA !== rankB) return rankB - rankA;
  // 5. ready for less time first (an empty time counts as newest)
  if (readyA && readyB) {
    const t = newerFirst(readyTime(a), readyTime(b));
    if (t !== 0) return t;
  }
  // 6. more container restarts first
  const restarts = maxRestarts(b) - maxRestarts(a);
  if (restarts !== 0) return restarts;
  // 7. newer first
  return newerFirst(a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? '');
}

function nodeOf(pod: Pod): string {
  return pod.spec.nodeName ?? '';
}

function readyTime(pod: Pod): string {
  return (pod.status?.conditions ?? []).find((c) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime ?? '';
}

function maxRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((s) => s.restartCount));
}

/** afterOrZero: an empty time first, then the later one. RFC 3339 UTC sorts as text. */
function newerFirst(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '' || b === '') return a === '' ? -1 : 1;
  return a > b ? -1 : 1;
}

