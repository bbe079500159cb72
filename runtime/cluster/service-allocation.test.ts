// The Service allocators' transaction (service-allocation.ts through the allocation harness): what
// a write took stays only if the write is stored, what it stops using goes back only then, and a
// delete gives everything back only once it is stored. mirrors alloc.go's Commit/Revert and the
// FinishFunc of storage.go's beginCreate/beginUpdate; the same cases through the real handlers and
// two replicas are in service-allocation.store.test.ts.
import { describe, expect, it } from 'vitest';
import { resourceFor, type Service, type ServiceSpec } from '../api/index.ts';
import { allocationHarness, serviceOf } from './service-allocation-harness.ts';
import { serviceAllocation } from './service-allocation.ts';
import { ServiceIpAllocator } from './service-ips.ts';
import { DEFAULT_NODE_PORT_RANGE, ServiceIpRange } from '../network/index.ts';

const port = (p: number, extra: Record<string, unknown> = {}) => ({ name: `p${p}`, port: p, protocol: 'TCP' as const, ...extra });
const svc = (spec: ServiceSpec): Service => serviceOf('web', spec);
type H = ReturnType<typeof allocationHarness>;
const held = (h: H): { ips: string[]; ports: number[] } => ({ ips: [...h.ips.items.keys()].sort(), ports: h.range.held() });

describe('a write that is not stored gives back exactly what it took', () => {
  it.each<[string, ServiceSpec | undefined, ServiceSpec, (before: ReturnType<typeof held>) => ReturnType<typeof held>]>([
    ['create: a random IP and ports', undefined, { type: 'NodePort', ports: [port(80), port(81)] }, () => ({ ips: [], ports: [] })],
    ['create: a requested IP and port', undefined, { type: 'NodePort', clusterIP: '10.96.0.9', ports: [port(80, { nodePort: 30009 })] }, () => ({ ips: [], ports: [] })],
    ['create: LoadBalancer Local, with its health check port', undefined, { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [port(80)] }, () => ({ ips: [], ports: [] })],
    ['update: ExternalName -> NodePort', { type: 'ExternalName', externalName: 'example.com', ports: [port(80)] }, { type: 'NodePort', ports: [port(80)] }, (b) => b],
    ['update: a new port beside the kept one', { type: 'NodePort', ports: [port(80)] }, { type: 'NodePort', ports: [port(80), port(443)] }, (b) => b],
    ['update: a port swapped for another', { type: 'NodePort', ports: [port(80, { nodePort: 30080 })] }, { type: 'NodePort', ports: [port(80, { nodePort: 30081 })] }, (b) => b],
    ['update: NodePort -> ClusterIP (the dropped ports stay)', { type: 'NodePort', ports: [port(80)] }, { type: 'ClusterIP', ports: [port(80)] }, (b) => b],
    ['update: NodePort -> ExternalName (the IP and ports stay)', { type: 'NodePort', ports: [port(80)] }, { type: 'ExternalName', externalName: 'example.com', ports: [port(80)] }, (b) => b],
  ])('%s', (_name, existing, spec, want) => {
    const h = allocationHarness({ seed: 4 });
    if (existing) expect(h.write('CREATE', svc(existing)).error).toBeUndefined();
    const before = held(h);
    h.failNextWrite();
    const r = h.write(existing ? 'UPDATE' : 'CREATE', svc(spec));
    expect(r.error?.message).toBe('etcdserver: request timed out');
    expect(held(h)).toEqual(want(before));
    // and the same write, stored, holds what the Service holds
    const ok = h.write(existing ? 'UPDATE' : 'CREATE', svc(spec));
    expect(ok.error).toBeUndefined();
    expect(held(h)).toEqual({ ips: ok.svc.spec?.clusterIPs ?? [], ports: h.range.held() });
  });

  it('an update that is stored gives back the port it stopped using', () => {
    const h = allocationHarness();
    h.write('CREATE', svc({ type: 'NodePort', ports: [port(80, { nodePort: 30080 })] }));
    h.write('UPDATE', svc({ type: 'NodePort', ports: [port(80, { nodePort: 30081 })] }));
    expect(held(h).ports).toEqual([30081]);
  });

  it('two updates that were not stored, then one that was: only the stored one holds an IP and a port', () => {
    const h = allocationHarness({ seed: 6 });
    h.write('CREATE', svc({ type: 'ExternalName', externalName: 'example.com', ports: [port(80)] }));
    h.failNextWrite(2);
    h.write('UPDATE', svc({ type: 'NodePort', ports: [port(80)] }));
    h.write('UPDATE', svc({ type: 'NodePort', ports: [port(80)] }));
    const stored = h.write('UPDATE', svc({ type: 'NodePort', ports: [port(80)] })).svc;
    expect(held(h)).toEqual({ ips: stored.spec?.clusterIPs ?? [], ports: nodePorts(stored) });
    expect(held(h).ips).toHaveLength(1);
  });
});

describe('a delete gives back only once it is stored', () => {
  it('a failed delete keeps the IP and ports; the next one gives them back', () => {
    const h = allocationHarness();
    h.write('CREATE', svc({ type: 'NodePort', clusterIP: '10.96.0.9', ports: [port(80, { nodePort: 30009 })] }));
    h.failNextWrite();
    expect(h.remove('web').error?.code).toBe(500);
    expect(held(h)).toEqual({ ips: ['10.96.0.9'], ports: [30009] });
    expect(h.remove('web').error).toBeUndefined();
    expect(held(h)).toEqual({ ips: [], ports: [] });
  });

  it('a failed update that removes the last finalizer keeps them; a stored one gives them back', () => {
    const h = allocationHarness();
    const lb = h.write('CREATE', svc({ type: 'LoadBalancer', ports: [port(80)] })).svc;
    const deleting: Service = { ...lb, metadata: { ...lb.metadata, finalizers: ['service.kubernetes.io/load-balancer-cleanup'], deletionTimestamp: '2026-01-01T00:00:10Z' } };
    h.stored.set('default/web', deleting);
    const before = held(h);
    expect(before.ports).toHaveLength(1);
    const last = (): Service => ({ ...deleting, metadata: { ...deleting.metadata, finalizers: [] } });
    h.failNextWrite();
    expect(h.write('UPDATE', last()).error?.code).toBe(500);
    expect(held(h)).toEqual(before);
    expect(h.write('UPDATE', last()).error).toBeUndefined();
    expect(held(h)).toEqual({ ips: [], ports: [] });
  });

  it('a dry-run delete registers nothing and gives nothing back', () => {
    const h = allocationHarness();
    h.write('CREATE', svc({ type: 'NodePort', ports: [port(80)] }));
    const before = held(h);
    const plugin = serviceAllocation({
      ips: new ServiceIpAllocator({ loopback: () => h.ips, range: new ServiceIpRange('10.96.0.0/12'), rng: { nextInt: () => 0 } }),
      nodePorts: () => h.range, portRange: DEFAULT_NODE_PORT_RANGE, rng: { nextInt: () => 0 },
    });
    let answered = false;
    const attrs = {
      operation: 'DELETE' as const, resource: resourceFor('', 'services')!, namespace: 'default', name: 'web', oldObject: h.stored.get('default/web')!,
      user: { username: 'admin', groups: [] } as never, dryRun: true,
    };
    plugin.validate!(attrs, {} as never, () => (answered = true));
    expect(answered).toBe(true);
    expect(held(h)).toEqual(before);
  });
});

function nodePorts(s: Service): number[] {
  return [...new Set((s.spec?.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p > 0))].sort((a, b) => a - b);
}
