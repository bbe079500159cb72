// framework.PodInfo built from a v1 Pod: what the filters and scores read, computed once.
// mirrors pkg/scheduler/framework/types.go (NewPodInfo) and pkg/scheduler/util (GetPodPriority).
import { Quantity, type Pod, type Protocol } from '../../api/index.ts';
import type { ContainerRequests, PodInfo } from './interface.ts';
import { podRequests, type FullResource } from './resources.ts';

/** One host port a container asks for (framework.HostPortInfo's key). */
export interface HostPort {
  ip: string;
  protocol: Protocol;
  port: number;
}

/** framework.PodInfo, a structural superset of the scoring lab's PodInfo. */
export interface SchedPodInfo extends PodInfo {
  pod: Pod;
  labels: Readonly<Record<string, string>>;
  /** spec.priority, 0 when unset (upstream corev1helpers.PodPriority). */
  priority: number;
  /** Requests as written (missing counts as 0): what the Fit filter and node accounting add. */
  requests: FullResource;
  /** Requests with the non-zero CPU/memory defaults: what LeastAllocated and friends add. */
  nonZeroRequests: FullResource;
  /** Host ports with hostPort > 0, defaults applied (ip 0.0.0.0, protocol TCP). */
  hostPorts: HostPort[];
}

const DEFAULT_HOST_IP = '0.0.0.0';

function containerRequests(pod: Pod): ContainerRequests[] {
  return pod.spec.containers.map((c) => {
    const req = c.resources?.requests ?? {};
    const requests: ContainerRequests['requests'] = {};
    const cpu = req['cpu'] === undefined ? undefined : Quantity.parse(req['cpu']);
    const mem = req['memory'] === undefined ? undefined : Quantity.parse(req['memory']);
    if (cpu?.ok) requests.milliCPU = cpu.quantity.milliValue();
    if (mem?.ok) requests.memory = mem.quantity.value();
    return { name: c.name, requests };
  });
}

/** mirrors pkg/scheduler/framework/plugins/nodeports/node_ports.go getContainerPorts. */
export function hostPortsOf(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  for (const c of pod.spec.containers) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out.push({
        ip: p.hostIP && p.hostIP !== '' ? p.hostIP : DEFAULT_HOST_IP,
        protocol: p.protocol ?? 'TCP',
        port: p.hostPort,
      });
    }
  }
  return out;
}

export function newPodInfo(pod: Pod): SchedPodInfo {
  return {
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? 'default',
    containers: containerRequests(pod),
    pod,
    labels: pod.metadata?.labels ?? {},
    priority: pod.spec.priority ?? 0,
    requests: podRequests(pod, false),
    nonZeroRequests: podRequests(pod, true),
    hostPorts: hostPortsOf(pod),
  };
}
