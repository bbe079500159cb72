// Test support for service-allocation.ts: the plugin driven as the API server drives it (both
// admission phases, then the store, then the work the plugin deferred until the store answered,
// with `failNextWrite` to make the store step fail), over an in-memory IPAddress store behind a fake loopback and
// an in-memory RangeAllocation with GuaranteedUpdate's retry, so each table test sees what etcd
// would hold. Used by service-node-ports.test.ts and service-ips.test.ts.
import { resourceFor, type IPAddress, type KubeObject, type Service, type Status } from '../api/index.ts';
import type { AdmissionAttributes, AdmissionContext, ApiRequest, RangeAllocationStorage, RangeSnapshot, ResponseCallback } from '../apiserver/index.ts';
import { createRng } from '../kernel/index.ts';
import { DEFAULT_NODE_PORT_RANGE, NodePortBitmap, ServiceIpRange } from '../network/index.ts';
import { serviceAllocation } from './service-allocation.ts';
import { ServiceIpAllocator } from './service-ips.ts';

const SERVICES = resourceFor('', 'services')!;
type Finish = Parameters<NonNullable<AdmissionAttributes['onFinish']>>[0];
type WriteOutcome = Parameters<Finish>[0];

/** The RangeAllocation "in etcd": `interfere` runs once between a try's read and its write (a lost race). */
export class MemoryRange implements RangeAllocationStorage {
  snapshot: RangeSnapshot | undefined;
  interfere: (() => void) | undefined;
  tries = 0;

  update(change: (c: RangeSnapshot | undefined) => RangeSnapshot | 'unchanged' | Status, cb: (e?: Status) => void): void {
    for (let attempt = 0; attempt < 16; attempt++) {
      this.tries++;
      const read = this.snapshot;
      const next = change(read);
      const race = this.interfere;
      this.interfere = undefined;
      race?.();
      if (this.snapshot !== read) continue; // the compare of the txn fails: read again
      if (next === 'unchanged') return cb();
      if ('kind' in next) return cb(next as Status);
      this.snapshot = next as RangeSnapshot;
      return cb();
    }
    cb({ kind: 'Status', code: 500, message: 'too many conflicts' } as Status);
  }

  get(cb: (s: RangeSnapshot | undefined) => void): void {
    cb(this.snapshot);
  }

  /** The ports the stored bitmap holds. */
  held(): number[] {
    return NodePortBitmap.fromSnapshot(DEFAULT_NODE_PORT_RANGE, this.snapshot?.data ?? '').ports();
  }
}

/** IPAddress objects "in etcd", created and deleted through a fake loopback (create-if-absent). */
export class MemoryIPAddresses {
  readonly items = new Map<string, IPAddress>();

  request(req: ApiRequest, cb: ResponseCallback): void {
    const name = req.verb === 'create' ? (req.body as IPAddress).metadata.name ?? '' : req.name ?? '';
    if (req.verb === 'create') {
      if (this.items.has(name)) return cb({ code: 409, body: { kind: 'Status', code: 409, reason: 'AlreadyExists', message: `ipaddresses.networking.k8s.io "${name}" already exists` } as Status });
      this.items.set(name, req.body as IPAddress);
      return cb({ code: 201, body: req.body as KubeObject });
    }
    if (req.verb === 'delete') {
      const had = this.items.delete(name);
      return cb({ code: had ? 200 : 404, body: { kind: 'Status', code: had ? 200 : 404 } as Status });
    }
    cb({ code: 405, body: { kind: 'Status', code: 405 } as Status });
  }
}

/** staleCache: this replica's cache has seen no IPAddress (another replica's are only found by the create). */
export function allocationHarness(o: { seed?: number; cidr?: string; staleCache?: boolean } = {}) {
  const range = new MemoryRange();
  const ips = new MemoryIPAddresses();
  const rng = createRng(o.seed ?? 1);
  const plugin = serviceAllocation({
    ips: new ServiceIpAllocator({ loopback: () => ips, range: new ServiceIpRange(o.cidr ?? '10.96.0.0/12'), rng }),
    nodePorts: () => range,
    portRange: DEFAULT_NODE_PORT_RANGE,
    rng,
  });
  const stored = new Map<string, Service>();
  const ctx: AdmissionContext = {
    cached: (_g, r, ns, name) => (r === 'ipaddresses' ? (o.staleCache ? undefined : ips.items.get(name)) : stored.get(`${ns ?? ''}/${name}`)),
    cachedList: () => [],
    liveGet: (_g, _r, ns, name, cb) => cb(stored.get(`${ns ?? ''}/${name}`)),
    randomSuffix: () => 'abcde',
  };
  const run = (phase: 'admit' | 'validate', a: AdmissionAttributes): Status | undefined => {
    let result: Status | undefined;
    let called = false;
    plugin[phase]!(a, ctx, (err) => {
      called = true;
      result = err;
    });
    if (!called) throw new Error(`${phase} did not answer`);
    return result;
  };
  const attrs = (operation: AdmissionAttributes['operation'], name: string, object?: KubeObject, oldObject?: KubeObject, dryRun = false): AdmissionAttributes => ({
    operation, resource: SERVICES, namespace: 'default', name, ...(object ? { object } : {}), ...(oldObject ? { oldObject } : {}),
    user: { username: 'admin', groups: [] } as unknown as AdmissionAttributes['user'], dryRun,
  });
  // the handlers' part: the work admission deferred runs once "etcd" answered the write
  let failures = 0;
  const settle = (work: Finish[], outcome: WriteOutcome): void => {
    let finished = 0;
    for (const finish of work) finish(outcome, () => finished++);
    if (finished !== work.length) throw new Error('a finish did not answer');
  };
  const admitted = (a: AdmissionAttributes, phases: readonly ('admit' | 'validate')[]): { work: Finish[]; error?: Status } => {
    const work: Finish[] = [];
    a.onFinish = (finish) => work.push(finish);
    for (const phase of phases) {
      const error = run(phase, a);
      if (error) return { work, error };
    }
    return { work };
  };
  /** The store step of the next write fails (an etcd error, or a lost race: nothing is written). */
  const failNextWrite = (count = 1): void => {
    failures += count;
  };
  const storeFails = (): boolean => {
    if (failures === 0) return false;
    failures--;
    return true;
  };
  /** A write: both admission phases, then "etcd" stores it when nothing refused it. */
  const write = (operation: 'CREATE' | 'UPDATE', svc: Service, dryRun = false): { svc: Service; error?: Status } => {
    const name = svc.metadata.name ?? '';
    const old = stored.get(`default/${name}`);
    const { work, error } = admitted(attrs(operation, name, svc, operation === 'UPDATE' ? old : undefined, dryRun), ['admit', 'validate']);
    const refusal = error ?? (operation === 'CREATE' && old ? { message: 'AlreadyExists' } as Status : undefined)
      ?? (!dryRun && storeFails() ? { code: 500, message: 'etcdserver: request timed out' } as Status : undefined);
    const deleted = !refusal && operation === 'UPDATE' && !!svc.metadata.deletionTimestamp && (svc.metadata.finalizers ?? []).length === 0;
    if (!refusal && !dryRun) {
      if (deleted) stored.delete(`default/${name}`);
      else stored.set(`default/${name}`, svc);
    }
    settle(work, { committed: !refusal, deleted });
    return refusal ? { svc, error: refusal } : { svc };
  };
  /** A delete: removed at once without finalizers, else only marked; `{ error }` when the store step failed. */
  const remove = (name: string): { error?: Status } => {
    const old = stored.get(`default/${name}`);
    const { work } = admitted(attrs('DELETE', name, undefined, old), ['validate']);
    if (storeFails()) {
      settle(work, { committed: false, deleted: false });
      return { error: { code: 500, message: 'etcdserver: request timed out' } as Status };
    }
    const deleted = (old?.metadata.finalizers ?? []).length === 0;
    if (deleted) stored.delete(`default/${name}`);
    settle(work, { committed: true, deleted });
    return {};
  };
  return { range, ips, write, remove, stored, failNextWrite };
}

export function serviceOf(name: string, spec: Service['spec']): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: JSON.parse(JSON.stringify(spec ?? {})) as Service['spec'] };
}
