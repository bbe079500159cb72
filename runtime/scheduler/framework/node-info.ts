// framework.NodeInfo: a node with the pods the scheduler believes run on it, and the sums the
// filters and scores read. mirrors pkg/scheduler/framework/types.go (NodeInfo, AddPod, RemovePod,
// SetNode, ImageStateSummary) and pkg/scheduler/backend/cache/snapshot.go (image spread).
import type { Node, Taint } from '../../api/index.ts';
import type { NodeInfo } from './interface.ts';
import type { HostPort, SchedPodInfo } from './pod-info.ts';
import { emptyResource, resourceFromList, type FullResource } from './resources.ts';

/** The parts of a v1 Node the plugins read, with its name hoisted (E1's `{ name }`). */
export interface SchedNode {
  name: string;
  labels: Readonly<Record<string, string>>;
  taints: readonly Taint[];
  unschedulable: boolean;
  object: Node;
}

/** framework.ImageStateSummary: one image's size and on how many nodes it is present. */
export interface ImageStateSummary {
  size: number;
  numNodes: number;
}

/** framework.NodeInfo, a structural superset of the scoring lab's NodeInfo. */
export interface SchedNodeInfo extends NodeInfo {
  node: SchedNode | null;
  allocatable: FullResource;
  requested: FullResource;
  nonZeroRequested: FullResource;
  pods: SchedPodInfo[];
  usedPorts: HostPort[];
  /** Image name (as in node.status.images[].names) to its cluster-wide summary. */
  imageStates: Map<string, ImageStateSummary>;
}

export function schedNodeOf(node: Node): SchedNode {
  return {
    name: node.metadata?.name ?? '',
    labels: node.metadata?.labels ?? {},
    taints: node.spec?.taints ?? [],
    unschedulable: node.spec?.unschedulable ?? false,
    object: node,
  };
}

/** A NodeInfo for `node` with no pods; image summaries start at one node (this one). */
export function newNodeInfo(node: Node | null): SchedNodeInfo {
  const imageStates = new Map<string, ImageStateSummary>();
  for (const image of node?.status?.images ?? []) {
    for (const name of image.names) imageStates.set(name, { size: image.sizeBytes, numNodes: 1 });
  }
  return {
    node: node ? schedNodeOf(node) : null,
    allocatable: resourceFromList(node?.status?.allocatable),
    requested: emptyResource(),
    nonZeroRequested: emptyResource(),
    pods: [],
    usedPorts: [],
    imageStates,
  };
}

function addSigned(into: FullResource, r: FullResource, sign: 1 | -1): void {
  into.milliCPU += sign * r.milliCPU;
  into.memory += sign * r.memory;
  into.ephemeralStorage += sign * r.ephemeralStorage;
}

/** NodeInfo.Snapshot: a copy whose pods, sums and ports can change without touching the original. */
export function cloneNodeInfo(info: SchedNodeInfo): SchedNodeInfo {
  return {
    ...info,
    requested: { ...info.requested },
    nonZeroRequested: { ...info.nonZeroRequested },
    pods: [...info.pods],
    usedPorts: [...info.usedPorts],
  };
}

/** NodeInfo.AddPod: accounts the pod's requests and host ports on the node. */
export function addPod(info: SchedNodeInfo, pod: SchedPodInfo): void {
  info.pods.push(pod);
  addSigned(info.requested, pod.requests, 1);
  addSigned(info.nonZeroRequested, pod.nonZeroRequests, 1);
  info.usedPorts.push(...pod.hostPorts);
}

/** NodeInfo.RemovePod: the inverse of addPod; false when the pod is not on the node. */
export function removePod(info: SchedNodeInfo, namespace: string, name: string): boolean {
  const i = info.pods.findIndex((p) => p.namespace === namespace && p.name === name);
  if (i < 0) return false;
  const [pod] = info.pods.splice(i, 1);
  addSigned(info.requested, pod!.requests, -1);
  addSigned(info.nonZeroRequested, pod!.nonZeroRequests, -1);
  for (const hp of pod!.hostPorts) {
    const j = info.usedPorts.findIndex(
      (u) => u.ip === hp.ip && u.protocol === hp.protocol && u.port === hp.port,
    );
    if (j >= 0) info.usedPorts.splice(j, 1);
  }
  return true;
}
