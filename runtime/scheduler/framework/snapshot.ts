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
    const info = newNodeInfo(node);
    const name = info.node!.name;
    if (this.byName.has(name))
      throw new Error(`invariant violated: node ${name} added twice to the snapshot`);
    for (const [image, state] of info.imageStates) {
      const shared = this.images.get(image);
      if (shared) {
        shared.numNodes++;
        info.imageStates.set(image, shared);
      } else {
        this.images.set(image, state);
      }
    }
    this.nodeInfoList.push(info);
    this.byName.set(name, info);
    return info;
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
