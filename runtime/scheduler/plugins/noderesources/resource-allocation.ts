// mirrors pkg/scheduler/framework/plugins/noderesources/resource_allocation.go: gathers, per
// configured resource, the node's allocatable and what would be requested with this pod on it.
// Fit scores on nonZeroRequested (a pod without requests still "uses" 100m / 200Mi);
// BalancedAllocation scores on the requests as written (useRequested).
import type { ResourceSpec } from '../../framework/interface.ts';
import type { SchedNodeInfo } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import type { FullResource } from '../../framework/resources.ts';

/** Resource names this simulation scores on (config.ResourceSpec.name). */
export type ScoredResourceName = 'cpu' | 'memory' | 'ephemeral-storage';

export interface ScoredResource {
  name: ScoredResourceName | ResourceSpec['name'];
  weight: number;
}

export const DEFAULT_RESOURCES: readonly ScoredResource[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

export function amountOf(r: FullResource, name: ScoredResource['name']): number {
  if (name === 'cpu') return r.milliCPU;
  if (name === 'memory') return r.memory;
  return r.ephemeralStorage;
}

/** The pod's request per resource: non-zero defaults unless useRequested. */
export function podRequestList(
  pod: SchedPodInfo,
  resources: readonly ScoredResource[],
  useRequested: boolean,
): number[] {
  const r = useRequested ? pod.requests : pod.nonZeroRequests;
  return resources.map((res) => amountOf(r, res.name));
}

/** Parallel arrays (requested with the pod, allocatable) for one node; 0/0 where allocatable is 0. */
export function requestedAndAllocatable(
  nodeInfo: SchedNodeInfo,
  resources: readonly ScoredResource[],
  podRequests: readonly number[],
  useRequested: boolean,
): [number[], number[]] {
  const base = useRequested ? nodeInfo.requested : nodeInfo.nonZeroRequested;
  const requested: number[] = [];
  const allocatable: number[] = [];
  resources.forEach((res, i) => {
    const alloc = amountOf(nodeInfo.allocatable, res.name);
    requested.push(alloc === 0 ? 0 : amountOf(base, res.name) + (podRequests[i] ?? 0));
    allocatable.push(alloc);
  });
  return [requested, allocatable];
}
