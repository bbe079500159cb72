// Mutant "first-owner-is-controller": assumes the controller ownerReference is the first one, so a pod whose controller reference comes after another reference is not counted.
// A plausible wrong solution; the hidden suite must fail it.
// mirrors pkg/controller/replicaset/replica_set.go (syncReplicaSet, manageReplicas,
// getPodsToDelete, getPodsRankedByRelatedPodsOnSameNode) and pkg/controller/controller_utils.go
// (IsPodActive, ActivePodsWithRanks.Less with LogarithmicScaleDown and PodDeletionCost off, though
// both are on by default in real clusters).
import type { LabelSelector, Pod, ReplicaSet } from '../../../runtime/api/index.ts';
import type { ReplicaSetDecision, ReplicaSetSyncContext } from '../../../runtime/controllers/index.ts';

export function reconcileReplicaSet(
  rs: ReplicaSet,
  pods: readonly Pod[],
  context: ReplicaSetSyncContext,
): ReplicaSetDecision {
  if (rs.metadata.deletionTimestamp) return { podsToCreate: 0, podsToDelete: [] };
  const mine = pods.filter((pod) => isPodActive(pod) && isControlledBy(pod, rs) && matches(rs.spec.selector, pod));
  const desired = rs.spec.replicas ?? 1;
  const diff = mine.length - desired;
  if (diff < 0) return { podsToCreate: Math.min(-diff, context.burstReplicas), podsToDelete: [] };
  if (diff === 0) return { podsToCreate: 0, podsToDelete: [] };
  const count = Math.min(diff, context.burstReplicas);
  return { podsToCreate: 0, podsToDelete: rankForDeletion(mine, context.relatedPods).slice(0, count).map((pod) => pod.metadata.name ?? '') };
}

function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

function isControlledBy(pod: Pod, rs: ReplicaSet): boolean {
  const first = (pod.metadata.ownerReferences ?? [])[0];
  return first !== undefined && first.controller === true && first.uid === rs.metadata.uid;
}

function matches(selector: LabelSelector, pod: Pod): boolean {
  const labels = pod.metadata.labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== value) return false;
  }
  for (const req of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, req.key);
    const value = labels[req.key];
    const inValues = has && (req.values ?? []).includes(value ?? '');
    if (req.operator === 'In' && !inValues) return false;
    if (req.operator === 'NotIn' && inValues) return false;
    if (req.operator === 'Exists' && !has) return false;
    if (req.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

interface Ranked {
  pod: Pod;
  /** Active related pods on the same node (getPodsRankedByRelatedPodsOnSameNode). */
  onSameNode: number;
}

function rankForDeletion(pods: Pod[], relatedPods: readonly Pod[]): Pod[] {
  const perNode = new Map<string, number>();
  for (const pod of relatedPods) if (isPodActive(pod)) perNode.set(nodeOf(pod), (perNode.get(nodeOf(pod)) ?? 0) + 1);
  const ranked: Ranked[] = pods.map((pod) => ({ pod, onSameNode: perNode.get(nodeOf(pod)) ?? 0 }));
  return ranked.sort(compareForDeletion).map((r) => r.pod);
}

/** Negative when a should be deleted before b. */
function compareForDeletion(a: Ranked, b: Ranked): number {
  const nodeA = nodeOf(a.pod);
  const nodeB = nodeOf(b.pod);
  if (nodeA !== nodeB && (nodeA === '' || nodeB === '')) return nodeA === '' ? -1 : 1;
  const phaseA = PHASE_ORDINAL[a.pod.status?.phase ?? ''] ?? 0;
  const phaseB = PHASE_ORDINAL[b.pod.status?.phase ?? ''] ?? 0;
  if (phaseA !== phaseB) return phaseA - phaseB;
  const readyA = isReady(a.pod);
  const readyB = isReady(b.pod);
  if (readyA !== readyB) return readyA ? 1 : -1;
  if (a.onSameNode !== b.onSameNode) return b.onSameNode - a.onSameNode;
  if (readyA && readyB) {
    const byReadyTime = newerOrZeroFirst(readyTime(a.pod), readyTime(b.pod));
    if (byReadyTime !== 0) return byReadyTime;
  }
  const restarts = maxRestarts(b.pod) - maxRestarts(a.pod);
  if (restarts !== 0) return restarts;
  return newerOrZeroFirst(a.pod.metadata.creationTimestamp ?? '', b.pod.metadata.creationTimestamp ?? '');
}

function nodeOf(pod: Pod): string {
  return pod.spec.nodeName ?? '';
}

function isReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function readyTime(pod: Pod): string {
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready' && c.status === 'True');
  return ready?.lastTransitionTime ?? '';
}

function maxRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((s) => s.restartCount));
}

/** upstream afterOrZero: an empty time first, then the later time first. RFC 3339 UTC sorts as text. */
function newerOrZeroFirst(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '' || b === '') return a === '' ? -1 : 1;
  return a > b ? -1 : 1;
}
