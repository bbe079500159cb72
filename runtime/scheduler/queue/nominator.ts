// Pods nominated to a node by preemption, waiting for the room their victims leave. Lower-priority
// pods must not take that room meanwhile, so filtering a pod on a node counts the node's nominated
// pods of equal or higher priority as if they ran there (schedule-one.ts runFiltersWithNominatedPods).
// mirrors pkg/scheduler/backend/queue/nominator.go (AddNominatedPod with ModeOverride / ModeNoop,
// DeleteNominatedPodIfExists, UpdateNominatedPod, NominatedPodsForNode).
import type { Pod } from '../../api/index.ts';
import { newPodInfo, type SchedPodInfo } from '../framework/pod-info.ts';

const keyOf = (pod: Pod): string => pod.metadata.uid ?? `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;

export class Nominator {
  private readonly nodeOfPod = new Map<string, string>();
  private readonly podsOfNode = new Map<string, Map<string, SchedPodInfo>>();

  /**
   * AddNominatedPod: nodeName overrides (a preemption's result, ModeOverride); without it the pod's
   * own status.nominatedNodeName counts (ModeNoop). A bound pod is never nominated.
   */
  add(pod: Pod, nodeName?: string): void {
    this.delete(pod);
    const node = nodeName ?? pod.status?.nominatedNodeName ?? '';
    if (node === '' || (pod.spec.nodeName ?? '') !== '') return;
    const key = keyOf(pod);
    this.nodeOfPod.set(key, node);
    let pods = this.podsOfNode.get(node);
    if (!pods) this.podsOfNode.set(node, (pods = new Map()));
    pods.set(key, newPodInfo(pod));
  }

  /** DeleteNominatedPodIfExists: the pod was assumed, bound or deleted. */
  delete(pod: Pod): void {
    const key = keyOf(pod);
    const node = this.nodeOfPod.get(key);
    if (node === undefined) return;
    this.nodeOfPod.delete(key);
    const pods = this.podsOfNode.get(node);
    pods?.delete(key);
    if (pods?.size === 0) this.podsOfNode.delete(node);
  }

  /**
   * UpdateNominatedPod: an update that does not name a node keeps the nomination this scheduler
   * made (the status write may not have landed yet); one that names a node replaces it.
   */
  update(oldPod: Pod, newPod: Pod): void {
    const key = keyOf(newPod);
    const known = this.nodeOfPod.get(key);
    const named = newPod.status?.nominatedNodeName ?? '';
    if (known !== undefined && named === '' && (oldPod.status?.nominatedNodeName ?? '') === '') return this.add(newPod, known);
    this.add(newPod);
  }

  /** NominatedPodsForNode. */
  forNode(nodeName: string): readonly SchedPodInfo[] {
    const pods = this.podsOfNode.get(nodeName);
    return pods ? [...pods.values()] : [];
  }

  nodeOf(pod: Pod): string | undefined {
    return this.nodeOfPod.get(keyOf(pod));
  }
}
