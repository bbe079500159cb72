// Pure decisions the scheduler's event handlers and failure handler make about pods and nodes.
// mirrors pkg/scheduler/eventhandlers.go (assignedPod, responsibleForPod, nodeSchedulingPropertiesChange),
// pkg/scheduler/backend/queue/scheduling_queue.go (isPodUpdated), pkg/api/v1/pod/util.go
// (UpdatePodCondition) and pkg/scheduler/schedule_one.go (truncateMessage).
import type { Node, Pod, PodCondition } from '../../api/index.ts';
import { ANNOTATION_PREFIX } from '../annotations.ts';
import type { ClusterEvent } from '../framework/cycle.ts';
import { DEFAULT_SCHEDULER_NAME } from '../profile.ts';

/** A pod that has a node: the scheduler's cache holds it, the queue does not. */
export function assignedPod(pod: Pod): boolean {
  return (pod.spec.nodeName ?? '') !== '';
}

export function responsibleForPod(pod: Pod, schedulerNames: ReadonlySet<string>): boolean {
  return schedulerNames.has(pod.spec.schedulerName ?? DEFAULT_SCHEDULER_NAME);
}

/**
 * isPodUpdated: whether an update could change the pod's scheduling (anything but status,
 * resourceVersion, generation, managedFields, finalizers and TypeMeta). The simulator's own result
 * annotations are stripped too: writing why a pod failed must not requeue it.
 */
export function isPodUpdated(oldPod: Pod, newPod: Pod): boolean {
  const strip = (p: Pod): unknown => {
    const annotations = Object.fromEntries(
      Object.entries(p.metadata.annotations ?? {}).filter(([k]) => !k.startsWith(ANNOTATION_PREFIX)),
    );
    const { resourceVersion: _rv, generation: _g, managedFields: _m, finalizers: _f, ...meta } =
      p.metadata;
    // TypeMeta too: list items come without it, watch events with it
    return { ...p, apiVersion: undefined, kind: undefined, metadata: { ...meta, annotations }, status: undefined };
  };
  return canonicalJSON(strip(oldPod)) !== canonicalJSON(strip(newPod));
}

/** JSON with sorted keys, so two objects differing only in key order compare equal. */
function canonicalJSON(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

const same = (a: unknown, b: unknown): boolean => canonicalJSON(a) === canonicalJSON(b);

/**
 * nodeSchedulingPropertiesChange: the cluster events a node update amounts to. None (an empty
 * list) for a heartbeat, so status-only updates never wake unschedulable pods.
 */
export function nodeUpdateEvents(oldNode: Node, newNode: Node): ClusterEvent[] {
  const events: ClusterEvent[] = [];
  const node = (action: ClusterEvent['action']): ClusterEvent => ({ resource: 'Node', action });
  if (!same(oldNode.status?.allocatable, newNode.status?.allocatable))
    events.push(node('UpdateNodeAllocatable'));
  if (!same(oldNode.metadata.labels, newNode.metadata.labels)) events.push(node('UpdateNodeLabel'));
  const taintsChanged = !same(oldNode.spec?.taints ?? [], newNode.spec?.taints ?? []);
  const unschedulableChanged =
    (oldNode.spec?.unschedulable ?? false) !== (newNode.spec?.unschedulable ?? false);
  if (taintsChanged || unschedulableChanged) events.push(node('UpdateNodeTaint'));
  return events;
}

/**
 * UpdatePodCondition: sets `condition` (its lastTransitionTime is `now`, kept when the status did
 * not change) and says whether anything changed. Returns new conditions; the input is not changed.
 */
export function updatePodCondition(
  conditions: readonly PodCondition[],
  condition: Omit<PodCondition, 'lastTransitionTime'>,
  now: string,
): { changed: boolean; conditions: PodCondition[] } {
  const i = conditions.findIndex((c) => c.type === condition.type);
  const next: PodCondition = { ...condition, lastTransitionTime: now };
  if (i < 0) return { changed: true, conditions: [...conditions, next] };
  const old = conditions[i]!;
  if (old.status === next.status && old.lastTransitionTime !== undefined)
    next.lastTransitionTime = old.lastTransitionTime;
  const equal =
    old.status === next.status &&
    old.reason === next.reason &&
    old.message === next.message &&
    (old.lastProbeTime ?? null) === (next.lastProbeTime ?? null) &&
    old.lastTransitionTime === next.lastTransitionTime;
  const out = [...conditions];
  out[i] = next;
  return { changed: !equal, conditions: out };
}

/** Events carry at most 1024 characters of message (schedule_one.go truncateMessage). */
export const MAX_EVENT_MESSAGE_LENGTH = 1024;

export function truncateMessage(message: string): string {
  if (message.length <= MAX_EVENT_MESSAGE_LENGTH) return message;
  const suffix = ' ...';
  return message.slice(0, MAX_EVENT_MESSAGE_LENGTH - suffix.length) + suffix;
}

/** The Scheduled event's message (schedule_one.go handleBindingCycle... finishSchedulingCycle). */
export function scheduledMessage(pod: Pod, nodeName: string): string {
  return `Successfully assigned ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} to ${nodeName}`;
}
