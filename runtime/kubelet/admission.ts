// Kubelet admission of a pod by resources, mirroring pkg/kubelet/lifecycle/predicate.go
// (the scheduler's Fit check rerun on the node): a pod that does not fit fails with reason
// OutOf<resource> and "Node didn't have enough resource: cpu, requested: 5000, used: 200,
// capacity: 4000" (cpu in millicores, memory in bytes, as upstream prints them).
import { parseQuantity, type Pod } from '../api/index.ts';

export type AdmitResult = { ok: true } | { ok: false; reason: string; message: string };

function amount(resource: string, value: string | undefined): number {
  if (value === undefined) return 0;
  const q = parseQuantity(value);
  if (!q.ok) return 0;
  return resource === 'cpu' ? q.quantity.milliValue() : q.quantity.value();
}

/** The pod's effective request: sum over containers (init containers: max), plus overhead. */
export function podRequest(pod: Pod, resource: string): number {
  const sum = pod.spec.containers.reduce((n, c) => n + amount(resource, c.resources?.requests?.[resource] ?? c.resources?.limits?.[resource]), 0);
  const init = Math.max(0, ...(pod.spec.initContainers ?? []).map((c) => amount(resource, c.resources?.requests?.[resource] ?? c.resources?.limits?.[resource])));
  return Math.max(sum, init) + amount(resource, pod.spec.overhead?.[resource]);
}

export function admitPod(pod: Pod, admitted: readonly Pod[], allocatable: Record<string, string> | undefined): AdmitResult {
  if (!allocatable) return { ok: true };
  const maxPods = amount('pods', allocatable.pods);
  if (allocatable.pods !== undefined && admitted.length + 1 > maxPods) {
    return { ok: false, reason: 'OutOfpods', message: `Node didn't have enough resource: pods, requested: 1, used: ${admitted.length}, capacity: ${maxPods}` };
  }
  for (const resource of ['cpu', 'memory', 'ephemeral-storage']) {
    const requested = podRequest(pod, resource);
    if (requested === 0 || allocatable[resource] === undefined) continue;
    const capacity = amount(resource, allocatable[resource]);
    const used = admitted.reduce((n, p) => n + podRequest(p, resource), 0);
    if (used + requested > capacity) {
      return { ok: false, reason: `OutOf${resource}`, message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}` };
    }
  }
  return { ok: true };
}
