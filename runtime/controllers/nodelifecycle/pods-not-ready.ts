// MarkPodsNotReady: when the node lifecycle controller finds a node's kubelet silent (Ready turns
// Unknown), nobody else will tell the API server that the pods there may be gone, so it sets each
// pod's Ready condition to False itself; the EndpointSlice controller then marks their endpoints
// not ready and Services stop sending them traffic. Pure decision, the writes are the controller's.
// mirrors pkg/controller/util/node/controller_utils.go MarkPodsNotReady and
// pkg/api/v1/pod/util.go UpdatePodCondition (the transition time moves only when the status does).
import type { Pod, PodCondition } from '../../api/index.ts';

export const NODE_NOT_READY_POD_EVENT = { type: 'Warning', reason: 'NodeNotReady', message: 'Node is not ready' } as const;

/**
 * The pod's conditions with Ready set to False, or null when there is nothing to write: the pod is
 * on another node, has no Ready condition yet, or is already not ready.
 */
export function notReadyConditions(pod: Pod, nodeName: string, now: string): PodCondition[] | null {
  if (pod.spec.nodeName !== nodeName) return null;
  const conditions = pod.status?.conditions ?? [];
  const ready = conditions.find((c) => c.type === 'Ready');
  if (!ready || ready.status === 'False') return null;
  return conditions.map((c) => (c === ready ? { ...c, status: 'False' as const, lastTransitionTime: now } : c));
}
