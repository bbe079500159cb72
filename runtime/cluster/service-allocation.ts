// The Service REST allocators, as an admission plugin of each API server replica (our API server
// has no Service REST storage of its own). Cluster IPs are IPAddress objects (service-ips.ts);
// node ports are the RangeAllocation bitmap in etcd (service-node-ports.ts), changed with a
// GuaranteedUpdate. Both live in etcd, so the three replicas never hand out the same value and an
// etcd snapshot restore brings the allocations back with the Services.
// mirrors pkg/registry/core/service/storage/alloc.go (allocateCreate: cluster IPs, then node
// ports, the transaction reverted when a later step fails; allocateUpdate; releaseAllocatedResources)
// and storage.go (beginCreate, beginUpdate, afterDelete).
// Where it runs: the mutating phase only puts back the values an update left out (they must be
// there for validation); the allocations happen in the validating phase, after validation and the
// other plugins passed, so the only failure left after them is the etcd write itself (a create
// whose name is taken is checked first with a quorum read and allocates nothing).
import { newInternalError, newInvalid, type Service, type ServiceSpec, type Status } from '../api/index.ts';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin, RangeAllocationStorage } from '../apiserver/index.ts';
import { NodePortBitmap, rangeText, type PortRange } from '../network/index.ts';
import { clusterIPsOf, needsClusterIP, type ServiceIpAllocator } from './service-ips.ts';
import { applyNodePorts, nodePortsOf, patchUpdatedNodePorts } from './service-node-ports.ts';

const SERVICE_KIND = { group: '', kind: 'Service' };

export interface ServiceAllocationOptions {
  ips: ServiceIpAllocator;
  /** The node port RangeAllocation through this replica's storage; undefined while it is down. */
  nodePorts: () => RangeAllocationStorage | undefined;
  portRange: PortRange;
  rng: { nextInt(n: number): number };
}

export function serviceAllocation(o: ServiceAllocationOptions): AdmissionPlugin {
  return {
    name: 'ServiceAllocation',
    admit(a, _ctx, done) {
      if (!isServiceWrite(a) || a.operation === 'DELETE') return done();
      const svc = a.object as Service;
      const spec = (svc.spec ??= {});
      const old = a.operation === 'UPDATE' ? (a.oldObject as Service | undefined) : undefined;
      if (old?.spec) {
        patchUpdatedNodePorts(spec, old.spec);
        patchClusterIPs(svc, old);
      }
      if (needsClusterIP(svc)) {
        spec.ipFamilies ??= ['IPv4'];
        spec.ipFamilyPolicy ??= 'SingleStack';
      }
      done();
    },
    validate(a, ctx, done) {
      if (!isServiceWrite(a)) return done();
      if (a.operation === 'CREATE') return allocateCreate(o, a, ctx, done);
      if (a.operation === 'UPDATE') return allocateUpdate(o, a, ctx, done);
      // a Service with finalizers (a load balancer's cleanup) keeps its values until it is gone
      const old = a.oldObject as Service | undefined;
      if (a.dryRun || !old || (old.metadata.finalizers ?? []).length > 0) return done();
      releaseAll(o, old, done);
    },
  };
}

function isServiceWrite(a: AdmissionAttributes): boolean {
  return a.resource.group === '' && a.resource.resource === 'services' && !a.subresource;
}

/** allocateCreate: the create's name must be free (else it fails AlreadyExists and takes nothing). */
function allocateCreate(o: ServiceAllocationOptions, a: AdmissionAttributes, ctx: AdmissionContext, done: (e?: Status) => void): void {
  const svc = a.object as Service;
  ctx.liveGet('', 'services', a.namespace, svc.metadata.name ?? '', (existing) => {
    if (existing) return done();
    allocateIPs(o, svc, a.dryRun, ctx, (ipError, taken) => {
      if (ipError) return done(ipError);
      updateNodePorts(o, svc, undefined, a.dryRun, (portError) => {
        if (!portError) return done();
        // the transaction's Revert: give back the IP this create took
        for (const ip of taken) o.ips.release(ip);
        done(portError);
      });
    });
  });
}

/** allocateUpdate: new IPs only when the Service starts needing one; node ports as updateNodePorts. */
function allocateUpdate(o: ServiceAllocationOptions, a: AdmissionAttributes, ctx: AdmissionContext, done: (e?: Status) => void): void {
  const svc = a.object as Service;
  const old = a.oldObject as Service;
  if (svc.metadata.deletionTimestamp && (svc.metadata.finalizers ?? []).length === 0) {
    // the update that removes the last finalizer of a deleted Service deletes it
    return a.dryRun ? done() : releaseAll(o, old, done);
  }
  const startsNeeding = needsClusterIP(svc) && !needsClusterIP(old);
  const allocate = (then: (e: Status | undefined, taken: string[]) => void): void => (startsNeeding ? allocateIPs(o, svc, a.dryRun, ctx, then) : then(undefined, []));
  allocate((ipError, taken) => {
    if (ipError) return done(ipError);
    updateNodePorts(o, svc, old, a.dryRun, (portError) => {
      if (portError) {
        for (const ip of taken) o.ips.release(ip);
        return done(portError);
      }
      const dropped = clusterIPsOf(old).filter((ip) => !clusterIPsOf(svc).includes(ip));
      if (!a.dryRun) for (const ip of dropped) o.ips.release(ip);
      done();
    });
  });
}

/**
 * allocClusterIPs: a requested IP gets its IPAddress or the upstream field error; none requested
 * gets the next free one. A dry run takes nothing: a requested IP is checked against the cache, a
 * random one is reported as the range's network address, as upstream's dry-run allocator does.
 */
function allocateIPs(
  o: ServiceAllocationOptions, svc: Service, dryRun: boolean, ctx: AdmissionContext, done: (e: Status | undefined, taken: string[]) => void,
): void {
  if (!needsClusterIP(svc)) return done(undefined, []);
  const spec = svc.spec ?? {};
  const asked = spec.clusterIP || spec.clusterIPs?.[0] || '';
  const known = (ip: string): boolean => ctx.cached('networking.k8s.io', 'ipaddresses', undefined, ip) !== undefined;
  const refuse = (detail: string): Status => newInvalid(SERVICE_KIND, svc.metadata.name ?? '', [{
    type: 'FieldValueInvalid', field: 'spec.clusterIPs', badValue: spec.clusterIPs ?? [asked], detail: `failed to allocate IP ${asked}: ${detail}`,
  }]);
  const assign = (ip: string): void => {
    spec.clusterIP = ip;
    spec.clusterIPs = [ip];
  };
  if (asked !== '') {
    if (dryRun) return done(!o.ips.range.contains(asked) ? refuse('the provided network does not match the current range') : known(asked) ? refuse('provided IP is already allocated') : undefined, []);
    return o.ips.allocate(svc, asked, (error) => {
      if (error) return done(refuse(error), []);
      assign(asked);
      done(undefined, [asked]);
    });
  }
  if (dryRun) {
    assign(o.ips.range.cidr.split('/')[0]!);
    return done(undefined, []);
  }
  o.ips.allocateNext(svc, known, (r) => {
    if ('error' in r) return done(newInternalError(`failed to allocate a serviceIP: ${r.error}`), []);
    assign(r.ip);
    done(undefined, [r.ip]);
  });
}

/**
 * The node port change of a write, as one GuaranteedUpdate of the bitmap: each try works on a fresh
 * copy of the spec and of the stored bitmap (another replica may have written in between), and the
 * spec gets the ports only once the bitmap that holds them is written. A dry run reads the bitmap
 * and writes nothing.
 */
function updateNodePorts(o: ServiceAllocationOptions, svc: Service, old: Service | undefined, dryRun: boolean, done: (e?: Status) => void): void {
  const pristine = JSON.stringify(svc.spec ?? {});
  if (!hasNodePortWork(svc.spec, old?.spec)) return done();
  const storage = o.nodePorts();
  if (!storage) return done(newInternalError('the node port allocator is not ready'));
  let result: ServiceSpec | undefined;
  const change = (snapshot: { range: string; data: string } | undefined): { range: string; data: string } | 'unchanged' | Status => {
    const bitmap = NodePortBitmap.fromSnapshot(o.portRange, snapshot?.data ?? '');
    const spec = JSON.parse(pristine) as ServiceSpec;
    const error = applyNodePorts(bitmap, o.rng, spec, old?.spec, svc.metadata.name ?? '');
    if (error) return error;
    result = spec;
    const next = bitmap.snapshot();
    if (dryRun || next === (snapshot?.data ?? '')) return 'unchanged';
    return { range: rangeText(o.portRange), data: next };
  };
  storage.update(change, (error) => {
    if (error) return done(error);
    if (result) svc.spec = result;
    done();
  });
}

/** Whether a write touches node ports at all (most Service writes do not, and then read nothing). */
function hasNodePortWork(spec: ServiceSpec | undefined, old: ServiceSpec | undefined): boolean {
  const typed = (s: ServiceSpec | undefined): boolean => s?.type === 'NodePort' || s?.type === 'LoadBalancer';
  if (!typed(spec) && !typed(old)) return false;
  if (!old) return true;
  return JSON.stringify(spec?.ports ?? []) !== JSON.stringify(old.ports ?? []) || spec?.type !== old.type
    || spec?.externalTrafficPolicy !== old.externalTrafficPolicy || spec?.healthCheckNodePort !== old.healthCheckNodePort
    || spec?.allocateLoadBalancerNodePorts !== old.allocateLoadBalancerNodePorts;
}

/** releaseAllocatedResources: the Service is gone, its IPs and node ports go back. */
function releaseAll(o: ServiceAllocationOptions, old: Service, done: (e?: Status) => void): void {
  for (const ip of clusterIPsOf(old)) o.ips.release(ip);
  const ports = nodePortsOf(old.spec);
  const storage = o.nodePorts();
  if (ports.length === 0 || !storage) return done();
  storage.update((snapshot) => {
    if (!snapshot) return 'unchanged';
    const bitmap = NodePortBitmap.fromSnapshot(o.portRange, snapshot.data);
    for (const port of ports) bitmap.release(port);
    const data = bitmap.snapshot();
    return data === snapshot.data ? 'unchanged' : { range: snapshot.range, data };
  }, () => done()); // a failed release leaks the ports until the repair loop (not simulated) would find them
}

/**
 * PatchAllocatedValues for cluster IPs: an update that left them out keeps the old ones; and
 * dropTypeDependentFields: a Service that stops needing an IP (becomes ExternalName) loses the
 * IP fields the client did not change.
 */
function patchClusterIPs(svc: Service, old: Service): void {
  const spec = svc.spec ?? {};
  if (needsClusterIP(old) && !needsClusterIP(svc) && spec.type === 'ExternalName') {
    const same = <T>(a: T, b: T): boolean => JSON.stringify(a) === JSON.stringify(b);
    if (same(spec.clusterIP, old.spec?.clusterIP) && same(spec.clusterIPs, old.spec?.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (same(spec.ipFamilies, old.spec?.ipFamilies)) delete spec.ipFamilies;
    if (same(spec.ipFamilyPolicy, old.spec?.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
    return;
  }
  if (!needsClusterIP(old) || !needsClusterIP(svc)) return;
  if (!spec.clusterIP && old.spec?.clusterIP) spec.clusterIP = old.spec.clusterIP;
  if ((spec.clusterIPs ?? []).length === 0 && (old.spec?.clusterIPs ?? []).length > 0) spec.clusterIPs = [...(old.spec?.clusterIPs ?? [])];
}
