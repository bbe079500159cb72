// The scheduler's snapshot of the cluster: one NodeInfo per node, in a stable order, with the
// image spread counted across nodes. mirrors pkg/scheduler/backend/cache/snapshot.go and the
// cache's assume step (cache.go AssumePod): after choosing a node the scheduler accounts the pod
// there at once, before the binding is confirmed.
import type { Node, Pod } from '../../api/index.ts';
import {
  addPod,
  newNodeInfo,
  removePod,
  type ImageStateSummary,
  type SchedNodeInfo,
} from './node-info.ts';
import { newPodInfo, type SchedPodInfo } from './pod-info.ts';

function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export class Snapshot {
  /** Nodes in the order they were given (the order the filters walk them in). */
  readonly nodeInfoList: SchedNodeInfo[] = [];
  private readonly byName = new Map<string, SchedNodeInfo>();
  /** One summary per image name, shared by every NodeInfo holding that image. */
  private readonly images = new Map<string, ImageStateSummary>();

  /** Builds a snapshot from nodes and pods; pods bound to unknown nodes or finished are ignored. */
  static build(nodes: readonly Node[], pods: readonly Pod[] = []): Snapshot {
    const snap = new Snapshot();
    for (const node of nodes) snap.addNode(node);
    for (const pod of pods) {
      const nodeName = pod.spec.nodeName;
      if (nodeName && !isTerminal(pod)) snap.assume(newPodInfo(pod), nodeName);
    }
    return snap;
  }

  get(name: string): SchedNodeInfo | undefined {
    return this.byName.get(name);
  }

  get numNodes(): number {
    return this.nodeInfoList.length;
  }

  /** Adds a node; images it shares with earlier nodes share one summary, so numNodes grows. */
  addNode(node: Node): SchedNodeInfo {
    const info = this.newInfo(node);
    this.nodeInfoList.push(info);
    return info;
  }

  /**
   * Adds a node at its place in name order (the scheduler cache's snapshots are in name order), so
   * the snapshot equals one rebuilt with the node (cache.go AddNode).
   */
  insertNode(node: Node): SchedNodeInfo {
    const info = this.newInfo(node);
    const name = info.node!.name;
    let lo = 0;
    let hi = this.nodeInfoList.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.nodeInfoList[mid]!.node!.name < name) lo = mid + 1;
      else hi = mid;
    }
    this.nodeInfoList.splice(lo, 0, info);
    return info;
  }

  /** cache.go RemoveNode: the node and the pods accounted on it leave the snapshot. */
  removeNode(name: string): boolean {
    const info = this.byName.get(name);
    if (!info) return false;
    this.releaseImages(info);
    this.byName.delete(name);
    this.nodeInfoList.splice(this.nodeInfoList.indexOf(info), 1);
    return true;
  }

  /**
   * NodeInfo.SetNode for a node already in the snapshot: its object, allocatable and images change,
   * its pods and their sums stay (cache.go UpdateNode). The snapshot then equals one rebuilt with the
   * new node, without walking every node and pod. False when the node is unknown.
   */
  updateNode(node: Node): boolean {
    const info = this.byName.get(node.metadata?.name ?? '');
    if (!info) return false;
    this.releaseImages(info);
    const fresh = newNodeInfo(node);
    this.shareImages(fresh);
    info.node = fresh.node;
    info.allocatable = fresh.allocatable;
    info.imageStates = fresh.imageStates;
    return true;
  }

  private newInfo(node: Node): SchedNodeInfo {
    const info = newNodeInfo(node);
    const name = info.node!.name;
    if (this.byName.has(name))
      throw new Error(`invariant violated: node ${name} added twice to the snapshot`);
    this.shareImages(info);
    this.byName.set(name, info);
    return info;
  }

  /** The node's images join the cluster-wide summaries (one per image name). */
  private shareImages(info: SchedNodeInfo): void {
    for (const [image, state] of info.imageStates) {
      const shared = this.images.get(image);
      if (shared) {
        shared.numNodes++;
        info.imageStates.set(image, shared);
      } else {
        this.images.set(image, state);
      }
    }
  }

  /** The node's images leave the summaries; a summary no node counts any more is dropped. */
  private releaseImages(info: SchedNodeInfo): void {
    for (const [image, state] of info.imageStates) {
      if (--state.numNodes === 0 && this.images.get(image) === state) this.images.delete(image);
    }
  }

  /** Accounts `pod` on `nodeName` (the cache's AssumePod); false when the node is unknown. */
  assume(pod: SchedPodInfo, nodeName: string): boolean {
    const info = this.byName.get(nodeName);
    if (!info) return false;
    addPod(info, pod);
    return true;
  }

  /** Forgets a pod (deleted, or its binding failed); false when it was not on `nodeName`. */
  forget(namespace: string, name: string, nodeName: string): boolean {
    const info = this.byName.get(nodeName);
    return info ? removePod(info, namespace, name) : false;
  }
}
