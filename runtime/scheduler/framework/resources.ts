// Pod and node resource arithmetic as the scheduler counts it.
// mirrors k8s.io/component-helpers/resource/helpers.go (PodRequests: containers summed, init
// containers as a running max, overhead added), pkg/scheduler/util/pod_resources.go (the non-zero
// defaults for missing CPU and memory requests) and pkg/scheduler/framework/types.go (Resource).
import { Quantity, type Container, type Pod, type ResourceList } from '../../api/index.ts';
import type { Resource } from './interface.ts';

/** 0.1 core: the CPU a container without a CPU request is assumed to use when scoring. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
/** 200 MiB: the memory a container without a memory request is assumed to use when scoring. */
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/** framework.Resource with the fields the Fit filter reads (a superset of E1's Resource). */
export interface FullResource extends Resource {
  ephemeralStorage: number;
  /** Only meaningful for allocatable: node.status.allocatable.pods. */
  allowedPodNumber: number;
}

export function emptyResource(): FullResource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, allowedPodNumber: 0 };
}

/** Parses one quantity; a malformed quantity counts as absent (the API server rejects those). */
function parsed(list: ResourceList | undefined, key: string): Quantity | undefined {
  const text = list?.[key];
  if (text === undefined) return undefined;
  const r = Quantity.parse(text);
  return r.ok ? r.quantity : undefined;
}

/** cpu as MilliValue, memory and ephemeral-storage as Value, pods as Value. */
export function resourceFromList(list: ResourceList | undefined): FullResource {
  return {
    milliCPU: parsed(list, 'cpu')?.milliValue() ?? 0,
    memory: parsed(list, 'memory')?.value() ?? 0,
    ephemeralStorage: parsed(list, 'ephemeral-storage')?.value() ?? 0,
    allowedPodNumber: parsed(list, 'pods')?.value() ?? 0,
  };
}

/** One container's requests, with the non-zero defaults when `nonZero` and a request is missing. */
function containerRequest(c: Container, nonZero: boolean): FullResource {
  const requests = c.resources?.requests;
  const r = resourceFromList(requests);
  if (nonZero) {
    if (requests?.['cpu'] === undefined) r.milliCPU = DEFAULT_MILLI_CPU_REQUEST;
    if (requests?.['memory'] === undefined) r.memory = DEFAULT_MEMORY_REQUEST;
  }
  return r;
}

function addInto(sum: FullResource, r: FullResource): void {
  sum.milliCPU += r.milliCPU;
  sum.memory += r.memory;
  sum.ephemeralStorage += r.ephemeralStorage;
}

function maxInto(acc: FullResource, r: FullResource): void {
  acc.milliCPU = Math.max(acc.milliCPU, r.milliCPU);
  acc.memory = Math.max(acc.memory, r.memory);
  acc.ephemeralStorage = Math.max(acc.ephemeralStorage, r.ephemeralStorage);
}

/**
 * The pod's effective request: the sum over its containers, raised to the largest init
 * container where that is bigger (init containers run one at a time, before the others),
 * plus spec.overhead. With `nonZero`, missing CPU/memory requests count as the defaults.
 */
export function podRequests(pod: Pod, nonZero: boolean): FullResource {
  const sum = emptyResource();
  for (const c of pod.spec.containers) addInto(sum, containerRequest(c, nonZero));
  for (const c of pod.spec.initContainers ?? []) maxInto(sum, containerRequest(c, nonZero));
  const overhead = pod.spec.overhead;
  if (overhead) addInto(sum, resourceFromList(overhead));
  return sum;
}
