// The Service REST allocators, as an admission plugin of each API server replica (our API server
// has no Service REST storage of its own). Cluster IPs are IPAddress objects (service-ips.ts);
// node ports are the RangeAllocation bitmap in etcd (service-node-ports.ts), changed with a
// GuaranteedUpdate. Both live in etcd, so the three replicas never hand out the same value and an
// etcd snapshot restore brings the allocations back with the Services.
// mirrors pkg/registry/core/service/storage/alloc.go (allocateCreate: cluster IPs, then node
// ports; allocateUpdate; the transaction's Commit and Revert; releaseAllocatedResources) and
// storage.go (beginCreate, beginUpdate and their FinishFunc, afterDelete).
// Where it runs: the mutating phase only puts back the values an update left out (they must be
// there for validation); the allocations happen in the validating phase, after validation and the
// other plugins passed. Each write's allocations are a transaction settled once etcd answered the
// write (AdmissionAttributes.onFinish, run by the write and delete handlers):
// - create: what it took is given back unless the Service was stored (an etcd failure, the loser
//   of two replicas creating the same name, a later refusal);
// - update: what it newly took is given back unless stored (each GuaranteedUpdate try that lost its
//   race too, before the next try allocates again); what it stops using (an IP when it becomes
//   ExternalName, dropped node ports) goes back only once the update is stored;
// - delete: everything goes back only once the Service is gone from etcd, i.e. after the delete,
//   or after the update that removes the last finalizer; a failed delete keeps it all.
// Upstream commits an update's transaction at the end of each tryUpdate, before its write, so a
// lost race there leaks what the try took until the repair loop; ours waits for the write.
// A dry run takes nothing and registers nothing.
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
      // ports that are not a list are validation's to refuse (Go's decoder would have)
      if (old?.spec && (spec.ports === undefined || spec.ports === null || Array.isArray(spec.ports))) {
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
      releaseOnceDeleted(o, a);
      done();
    },
  };
}

function isServiceWrite(a: AdmissionAttributes): boolean {
  return a.resource.group === '' && a.resource.resource === 'services' && !a.subresource;
}

/** What one write took; the transaction's Revert gives exactly this back. */
interface Taken {
  ips: string[];
  ports: number[];
}

/** The apiserver's AdmissionFinish: (outcome, done) once etcd answered the write. */
type Finish = Parameters<NonNullable<AdmissionAttributes['onFinish']>>[0];

/** Registers the write's transaction end; a dry run has nothing to settle. */
function onStored(a: AdmissionAttributes, finish: Finish): void {
  if (a.dryRun) return;
  if (!a.onFinish) throw new Error('invariant violated: a Service write reports its storage result to admission (AdmissionAttributes.onFinish)');
  a.onFinish(finish);
}

/** afterDelete: the Service's values go back once it is gone from etcd, not before. */
function releaseOnceDeleted(o: ServiceAllocationOptions, a: AdmissionAttributes): void {
  const old = a.oldObject as Service | undefined;
  if (!old) return;
  onStored(a, (outcome, done) => (outcome.committed && outcome.deleted ? release(o, takenBy(old), done) : done()));
}

/** allocateCreate: the create's name must be free (else it fails AlreadyExists and takes nothing). */
function allocateCreate(o: ServiceAllocationOptions, a: AdmissionAttributes, ctx: AdmissionContext, done: (e?: Status) => void): void {
  const svc = a.object as Service;
  ctx.liveGet('', 'services', a.namespace, svc.metadata.name ?? '', (existing) => {
    if (existing) return done();
    const taken: Taken = { ips: [], ports: [] };
    // beginCreate's FinishFunc: Commit keeps what was taken, Revert gives it back
    onStored(a, (outcome, fin) => (outcome.committed ? fin() : release(o, taken, fin)));
    allocateIPs(o, svc, a.dryRun, ctx, (ipError, ips) => {
      taken.ips = ips;
      if (ipError) return done(ipError);
      updateNodePorts(o, svc, undefined, a.dryRun, (portError, ports) => {
        taken.ports = ports;
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
    releaseOnceDeleted(o, a);
    return done();
  }
  const taken: Taken = { ips: [], ports: [] };
  // beginUpdate's FinishFunc: Commit gives back what the Service stops using, Revert what it took
  onStored(a, (outcome, fin) => (outcome.committed ? release(o, dropped(svc, old), fin) : release(o, taken, fin)));
  const startsNeeding = needsClusterIP(svc) && !needsClusterIP(old);
  const allocate = (then: (e: Status | undefined, ips: string[]) => void): void => (startsNeeding ? allocateIPs(o, svc, a.dryRun, ctx, then) : then(undefined, []));
  allocate((ipError, ips) => {
    taken.ips = ips;
    if (ipError) return done(ipError);
    updateNodePorts(o, svc, old, a.dryRun, (portError, ports) => {
      taken.ports = ports;
      done(portError);
    });
  });
}

/** Everything a Service holds. */
function takenBy(svc: Service): Taken {
  return { ips: clusterIPsOf(svc), ports: nodePortsOf(svc.spec) };
}

/** What the stored update no longer uses of what the old Service held. */
function dropped(svc: Service, old: Service): Taken {
  const now = takenBy(svc);
  const before = takenBy(old);
  return { ips: before.ips.filter((ip) => !now.ips.includes(ip)), ports: before.ports.filter((p) => !now.ports.includes(p)) };
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
 * spec gets the ports only once the bitmap that holds them is written. It only takes ports (the
 * ones it stops using go back when the write is stored) and answers which ones it took. A dry run
 * reads the bitmap and writes nothing.
 */
function updateNodePorts(
  o: ServiceAllocationOptions, svc: Service, old: Service | undefined, dryRun: boolean, done: (e: Status | undefined, taken: number[]) => void,
): void {
  const pristine = JSON.stringify(svc.spec ?? {});
  if (!hasNodePortWork(svc.spec, old?.spec)) return done(undefined, []);
  const storage = o.nodePorts();
  if (!storage) return done(newInternalError('the node port allocator is not ready'), []);
  let result: ServiceSpec | undefined;
  let taken: number[] = [];
  const change = (snapshot: { range: string; data: string } | undefined): { range: string; data: string } | 'unchanged' | Status => {
    const before = NodePortBitmap.fromSnapshot(o.portRange, snapshot?.data ?? '');
    const bitmap = NodePortBitmap.fromSnapshot(o.portRange, snapshot?.data ?? '');
    const spec = JSON.parse(pristine) as ServiceSpec;
    const error = applyNodePorts(bitmap, o.rng, spec, old?.spec, svc.metadata.name ?? '');
    if (error) return error;
    result = spec;
    const held = new Set(before.ports());
    taken = dryRun ? [] : bitmap.ports().filter((port) => !held.has(port));
    const next = bitmap.snapshot();
    if (dryRun || next === (snapshot?.data ?? '')) return 'unchanged';
    return { range: rangeText(o.portRange), data: next };
  };
  storage.update(change, (error) => {
    if (error) return done(error, []);
    if (result) svc.spec = result;
    done(undefined, taken);
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

/**
 * releaseAllocatedResources, and the transaction's Revert: the IPAddresses are deleted, then the
 * ports cleared in the bitmap. A failed release leaks the values until the repair loop (not
 * simulated) would find them, as upstream's release errors are only logged.
 */
function release(o: ServiceAllocationOptions, taken: Taken, done: () => void): void {
  const ips = [...taken.ips];
  const nextIp = (): void => {
    const ip = ips.shift();
    if (ip !== undefined) return o.ips.release(ip, nextIp);
    releasePorts(o, taken.ports, done);
  };
  nextIp();
}

function releasePorts(o: ServiceAllocationOptions, ports: readonly number[], done: () => void): void {
  const storage = o.nodePorts();
  if (ports.length === 0 || !storage) return done();
  storage.update((snapshot) => {
    if (!snapshot) return 'unchanged';
    const bitmap = NodePortBitmap.fromSnapshot(o.portRange, snapshot.data);
    for (const port of ports) bitmap.release(port);
    const data = bitmap.snapshot();
    return data === snapshot.data ? 'unchanged' : { range: snapshot.range, data };
  }, () => done());
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
