// Service node ports. Our API server has no node port allocator of its own, so the cluster adds
// one as an admission plugin shared by every replica, beside the cluster IP one (service-ips.ts).
// mirrors pkg/registry/core/service/storage/alloc.go (initNodePorts, updateNodePorts,
// allocHealthCheckNodePort, updateHealthCheckNodePort, releaseAllocatedResources) and
// storage.go (patchAllocatedValues, dropTypeDependentFields):
// - NodePort Services, and LoadBalancer Services unless allocateLoadBalancerNodePorts is false,
//   get a node port per service port; ports with the same port number share one; a requested
//   port is honoured when free ("provided port is already allocated" otherwise, and "provided port
//   is not in the valid range..." outside 30000-32767), both as spec.ports[i].nodePort errors.
// - LoadBalancer Services with externalTrafficPolicy Local also get spec.healthCheckNodePort.
// - An update keeps the ports the Service has (a client that left nodePort out gets the old one
//   back, matched by port name), allocates new ones, and releases the ports it no longer uses;
//   changing the type to ClusterIP drops the node ports. Deleting the Service releases them.
// The real bitmap lives in etcd and reverts a failed request's allocations at once; ours lives in
// the cluster assembly (so an etcd restore does not restore it) and learns how a write ended only
// through the validating phase: ports taken by a request that then failed are held "pending" and
// given back on that Service's next write (NodePortAllocator in runtime/network).
import type { FieldError, Service, ServicePort, ServiceSpec } from '../api/index.ts';
import { newInternalError, newInvalid } from '../api/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../apiserver/index.ts';
import type { NodePortAllocator } from '../network/index.ts';

const SERVICE_KIND = { group: '', kind: 'Service' };

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

export function serviceNodePortAllocation(allocator: NodePortAllocator): AdmissionPlugin {
  return {
    name: 'ServiceNodePortAllocation',
    admit(a, _ctx, done) {
      if (!isServiceWrite(a) || a.operation === 'DELETE') return done();
      const svc = a.object as Service;
      const spec = (svc.spec ??= {});
      const owner = ownerOf(a);
      // ports an earlier try of this Service's write took, when that write was never stored
      for (const port of allocator.ownedBy(owner, 'pending')) allocator.release(port);
      const old = a.operation === 'UPDATE' ? (a.oldObject as Service | undefined)?.spec : undefined;
      if (old) {
        dropTypeDependentFields(spec, old);
        patchAllocatedValues(spec, old);
      }
      const error = allocatePorts(allocator, owner, spec, old) ?? allocateHealthCheck(allocator, owner, spec, old);
      if (a.dryRun) for (const port of allocator.ownedBy(owner, 'pending')) allocator.release(port);
      if (error) {
        for (const port of allocator.ownedBy(owner, 'pending')) allocator.release(port);
        return done(error.kind === 'invalid' ? newInvalid(SERVICE_KIND, a.name, [error.cause]) : newInternalError(error.message));
      }
      done();
    },
    validate(a, ctx, done) {
      if (!isServiceWrite(a) || a.dryRun) return done();
      if (a.operation === 'DELETE') {
        // a Service with finalizers (a load balancer's cleanup) keeps its ports until it is gone
        const old = a.oldObject as Service | undefined;
        if (old && (old.metadata.finalizers ?? []).length === 0) releaseAll(allocator, ownerOf(a));
        return done();
      }
      const svc = a.object as Service;
      const owner = ownerOf(a);
      const stored = `${a.namespace ?? ''}/${svc.metadata.name ?? ''}`;
      if (a.operation === 'CREATE') {
        // the create will fail with AlreadyExists: keep the stored Service's ports, give back the rest
        if (ctx.cached('', 'services', a.namespace, svc.metadata.name ?? '')) {
          for (const port of allocator.ownedBy(owner, 'pending')) allocator.release(port);
          return done();
        }
        allocator.rename(owner, stored);
        allocator.commit(stored, nodePortsOf(svc.spec));
        return done();
      }
      // an update that removes the last finalizer of a deleted Service deletes it
      if (svc.metadata.deletionTimestamp && (svc.metadata.finalizers ?? []).length === 0) {
        releaseAll(allocator, owner);
        return done();
      }
      const keep = nodePortsOf(svc.spec);
      allocator.commit(owner, keep);
      for (const port of allocator.ownedBy(owner)) if (!keep.includes(port)) allocator.release(port);
      done();
    },
  };
}

function isServiceWrite(a: AdmissionAttributes): boolean {
  return a.resource.group === '' && a.resource.resource === 'services' && !a.subresource;
}

/**
 * "namespace/name", the same in both phases of a request; a create with generateName has no name
 * until the strategy runs (between the phases), so its ports move to the real name on commit.
 */
function ownerOf(a: AdmissionAttributes): string {
  const name = a.name || `generateName:${(a.object ?? a.oldObject)?.metadata.generateName ?? ''}`;
  return `${a.namespace ?? ''}/${name}`;
}

function releaseAll(allocator: NodePortAllocator, owner: string): void {
  for (const port of allocator.ownedBy(owner)) allocator.release(port);
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
function allocatePorts(allocator: NodePortAllocator, owner: string, spec: ServiceSpec, old: ServiceSpec | undefined): AllocError | undefined {
  if (!hasNodePorts(spec)) return undefined;
  const ports = spec.ports ?? [];
  const oldPorts = new Set(hasNodePorts(old) ? (old?.ports ?? []).map((p) => p.nodePort ?? 0) : []);
  // initNodePorts: service ports with the same port number (TCP and UDP) share one node port
  const byPortNumber = new Map<number, number>();
  for (const [i, p] of ports.entries()) {
    if ((p.nodePort ?? 0) === 0 && !shouldAllocate(spec)) continue; // respect requests, allocate nothing new
    const shared = old ? undefined : byPortNumber.get(p.port);
    if (shared !== undefined && (p.nodePort ?? 0) === 0) {
      p.nodePort = shared;
      continue;
    }
    const asked = p.nodePort || (old ? 0 : requestedFor(p.port, ports));
    if (asked) {
      const r = oldPorts.has(asked) ? { ok: true as const } : allocator.allocate(asked, owner);
      if (!r.ok) return portError(i, asked, r.error);
      p.nodePort = asked;
    } else {
      const next = allocator.allocateNext(owner);
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
function allocateHealthCheck(allocator: NodePortAllocator, owner: string, spec: ServiceSpec, old: ServiceSpec | undefined): AllocError | undefined {
  if (!needsHealthCheck(spec) || (old && needsHealthCheck(old))) return undefined;
  const asked = spec.healthCheckNodePort ?? 0;
  if (asked) {
    const r = allocator.allocate(asked, owner);
    return r.ok ? undefined : { kind: 'internal', message: `failed to allocate requested HealthCheck NodePort ${asked}: ${r.error}` };
  }
  const next = allocator.allocateNext(owner);
  if (next === undefined) return { kind: 'internal', message: 'failed to allocate a HealthCheck NodePort 0: range is full' };
  spec.healthCheckNodePort = next;
  return undefined;
}
