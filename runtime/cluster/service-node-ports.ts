// Service node ports, allocated from the RangeAllocation bitmap the API server keeps in etcd
// (/registry/ranges/servicenodeports). This file is the policy: which ports a Service gets on a
// create or an update, computed against one snapshot of the bitmap; service-allocation.ts runs it
// inside a GuaranteedUpdate so the replicas never hand out the same port.
// mirrors pkg/registry/core/service/storage/alloc.go (initNodePorts, updateNodePorts,
// allocHealthCheckNodePort, updateHealthCheckNodePort, releaseAllocatedResources) and
// storage.go (patchAllocatedValues, dropTypeDependentFields):
// - NodePort Services, and LoadBalancer Services unless allocateLoadBalancerNodePorts is false,
//   get a node port per service port; ports with the same port number share one; a requested
//   port is honoured when free ("provided port is already allocated" otherwise, and "provided port
//   is not in the valid range..." outside 30000-32767), both as spec.ports[i].nodePort errors.
// - LoadBalancer Services with externalTrafficPolicy Local also get spec.healthCheckNodePort.
// - An update keeps the ports the Service has (a client that left nodePort out gets the old one
//   back, matched by port name) and allocates new ones; the ports it no longer uses (all of them
//   when the type goes back to ClusterIP) are released once the update is stored, and a deleted
//   Service's once it is gone (service-allocation.ts settles both after the etcd write).
import type { FieldError, ServicePort, ServiceSpec } from '../api/index.ts';
import { newInternalError, newInvalid, type Status } from '../api/index.ts';
import type { NodePortBitmap } from '../network/index.ts';

const SERVICE_KIND = { group: '', kind: 'Service' };
type Rng = { nextInt(n: number): number };

const hasNodePorts = (spec: ServiceSpec | undefined): boolean => spec?.type === 'NodePort' || spec?.type === 'LoadBalancer';
/** shouldAllocateNodePorts: NodePort, or LoadBalancer unless allocateLoadBalancerNodePorts is false. */
const shouldAllocate = (spec: ServiceSpec): boolean =>
  spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
/** apiservice.NeedsHealthCheck: a LoadBalancer that keeps external traffic on the node it arrives at. */
export const needsHealthCheck = (spec: ServiceSpec | undefined): boolean =>
  spec?.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';

/** Every node port a Service holds: its ports' nodePorts and its healthCheckNodePort. */
export function nodePortsOf(spec: ServiceSpec | undefined): number[] {
  const ports = (spec?.ports ?? []).map((p) => p.nodePort ?? 0);
  if (needsHealthCheck(spec)) ports.push(spec?.healthCheckNodePort ?? 0);
  return [...new Set(ports.filter((p) => p > 0))].sort((a, b) => a - b);
}

/**
 * The node port part of a create (old undefined) or an update, against one snapshot of the bitmap:
 * fills spec's nodePorts and healthCheckNodePort and takes the new ones in the bitmap; the ports
 * the old spec held stay taken (alloc.go's ReleaseDeferred: they go back when the update commits).
 * Returns the refusal, if any (the caller then throws the bitmap copy away: nothing was taken).
 */
export function applyNodePorts(bitmap: NodePortBitmap, rng: Rng, spec: ServiceSpec, old: ServiceSpec | undefined, name: string): Status | undefined {
  const error = allocatePorts(bitmap, rng, spec, old) ?? allocateHealthCheck(bitmap, rng, spec, old);
  if (error) return error.kind === 'invalid' ? newInvalid(SERVICE_KIND, name, [error.cause]) : newInternalError(error.message);
  return undefined;
}

/** The mutating part of an update (before validation): values the client left out come back. */
export function patchUpdatedNodePorts(spec: ServiceSpec, old: ServiceSpec): void {
  dropTypeDependentFields(spec, old);
  patchAllocatedValues(spec, old);
}

/**
 * dropTypeDependentFields: a Service leaving NodePort/LoadBalancer (or leaving the need for a
 * health check) loses the values the server filled in (node ports, healthCheckNodePort,
 * allocateLoadBalancerNodePorts, externalTrafficPolicy), unless the client asked for new ones.
 */
function dropTypeDependentFields(spec: ServiceSpec, old: ServiceSpec): void {
  const oldPorts = new Set((old.ports ?? []).map((p) => p.nodePort ?? 0));
  const asksNew = (spec.ports ?? []).some((p) => (p.nodePort ?? 0) !== 0 && !oldPorts.has(p.nodePort ?? 0));
  if (hasNodePorts(old) && !hasNodePorts(spec) && !asksNew) for (const p of spec.ports ?? []) delete p.nodePort;
  if (needsHealthCheck(old) && !needsHealthCheck(spec) && (spec.healthCheckNodePort ?? 0) === (old.healthCheckNodePort ?? 0)) delete spec.healthCheckNodePort;
  if (old.type === 'LoadBalancer' && spec.type !== 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === old.allocateLoadBalancerNodePorts) delete spec.allocateLoadBalancerNodePorts;
  if (hasNodePorts(old) && !hasNodePorts(spec) && spec.externalTrafficPolicy === old.externalTrafficPolicy) delete spec.externalTrafficPolicy;
}

/**
 * patchAllocatedValues: a client that sent the ports without their nodePort (a replace, an apply
 * of a manifest that never named one) keeps the old port of the same name, unless another port
 * of the new spec already uses it.
 */
function patchAllocatedValues(spec: ServiceSpec, old: ServiceSpec): void {
  if (hasNodePorts(old) && hasNodePorts(spec)) {
    const used = new Set((spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0));
    const byName = new Map((old.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0]));
    for (const p of spec.ports ?? []) {
      const was = byName.get(p.name ?? '') ?? 0;
      if ((p.nodePort ?? 0) === 0 && was !== 0 && !used.has(was)) p.nodePort = was;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(spec) && (spec.healthCheckNodePort ?? 0) === 0 && old.healthCheckNodePort) {
    spec.healthCheckNodePort = old.healthCheckNodePort;
  }
}

type AllocError = { kind: 'invalid'; cause: FieldError } | { kind: 'internal'; message: string };

const portError = (i: number, port: number, detail: string): AllocError => ({
  kind: 'invalid', cause: { type: 'FieldValueInvalid', field: `spec.ports[${i}].nodePort`, badValue: port, detail },
});
const fullError = (): AllocError => ({ kind: 'internal', message: 'failed to allocate a nodePort: range is full' });

/** initNodePorts on create, updateNodePorts on update (old = the stored spec). */
function allocatePorts(bitmap: NodePortBitmap, rng: Rng, spec: ServiceSpec, old: ServiceSpec | undefined): AllocError | undefined {
  if (!hasNodePorts(spec)) return undefined;
  const ports = spec.ports ?? [];
  const oldPorts = new Set(hasNodePorts(old) ? (old?.ports ?? []).map((p) => p.nodePort ?? 0) : []);
  // initNodePorts: service ports with the same port number (TCP and UDP) share one node port
  const byPortNumber = new Map<number, number>();
  const takenHere = new Set<number>(); // updateNodePorts' portAllocated: two ports may name one node port
  for (const [i, p] of ports.entries()) {
    if ((p.nodePort ?? 0) === 0 && !shouldAllocate(spec)) continue; // respect requests, allocate nothing new
    const shared = old ? undefined : byPortNumber.get(p.port);
    if (shared !== undefined && ((p.nodePort ?? 0) === 0 || p.nodePort === shared)) {
      p.nodePort = shared;
      continue;
    }
    const asked = p.nodePort || (old ? 0 : requestedFor(p.port, ports));
    if (asked) {
      const r = oldPorts.has(asked) || takenHere.has(asked) ? { ok: true as const } : bitmap.allocate(asked);
      if (!r.ok) return portError(i, asked, r.error);
      p.nodePort = asked;
      takenHere.add(asked);
    } else {
      const next = bitmap.allocateNext(rng);
      if (next === undefined) return fullError();
      p.nodePort = next;
    }
    if (!byPortNumber.has(p.port)) byPortNumber.set(p.port, p.nodePort);
  }
  return undefined;
}

/** findRequestedNodePort: the first nodePort a port with this port number asks for, else 0. */
function requestedFor(port: number, ports: readonly ServicePort[]): number {
  return ports.find((p) => p.port === port && (p.nodePort ?? 0) !== 0)?.nodePort ?? 0;
}

/** allocHealthCheckNodePort (create, or an update that starts needing one); errors are internal upstream. */
function allocateHealthCheck(bitmap: NodePortBitmap, rng: Rng, spec: ServiceSpec, old: ServiceSpec | undefined): AllocError | undefined {
  if (!needsHealthCheck(spec) || (old && needsHealthCheck(old))) return undefined;
  const asked = spec.healthCheckNodePort ?? 0;
  if (asked) {
    const r = bitmap.allocate(asked);
    return r.ok ? undefined : { kind: 'internal', message: `failed to allocate requested HealthCheck NodePort ${asked}: ${r.error}` };
  }
  const next = bitmap.allocateNext(rng);
  if (next === undefined) return { kind: 'internal', message: 'failed to allocate a HealthCheck NodePort 0: range is full' };
  spec.healthCheckNodePort = next;
  return undefined;
}
