// Service cluster IPs as IPAddress objects (service-ips.ts through service-allocation.ts): the
// cases of pkg/registry/core/service/ipallocator/ipallocator_test.go and storage_test.go
// (TestCreateInitClusterIPsFromClusterIP, TestServiceRegistryIPUpdate...) a learner can see: which
// IP a Service gets, the IPAddress that records it, the refusals' texts, what a delete gives back.
import { describe, expect, it } from 'vitest';
import type { Service, ServiceSpec, Status } from '../api/index.ts';
import { ipToNumber } from '../network/index.ts';
import { allocationHarness, serviceOf } from './service-allocation-harness.ts';
import { ipAddressFor } from './service-ips.ts';

const web = (spec: ServiceSpec = {}, name = 'web'): Service => serviceOf(name, { ports: [{ name: 'http', port: 80, protocol: 'TCP' }], ...spec });
const causes = (s: Status | undefined): string[] => (s?.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);

describe('cluster IPs on create', () => {
  it('a Service that names no IP gets a random one from the upper band, recorded as an IPAddress', () => {
    const h = allocationHarness({ seed: 3 });
    const { svc, error } = h.write('CREATE', web());
    expect(error).toBeUndefined();
    const ip = svc.spec!.clusterIP!;
    expect(svc.spec!.clusterIPs).toEqual([ip]);
    expect(svc.spec).toMatchObject({ ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    expect(ipToNumber(ip)!).toBeGreaterThanOrEqual(ipToNumber('10.96.1.1')!); // above the 256 kept for static IPs
    expect(ipToNumber(ip)!).toBeLessThanOrEqual(ipToNumber('10.111.255.254')!);
    expect(h.ips.items.get(ip)).toEqual({
      apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress',
      metadata: { name: ip, labels: { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' } },
      spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'web' } },
    });
  });

  it.each<[string, ServiceSpec, string[]]>([
    ['a requested IP is honoured', { clusterIP: '10.96.0.50' }, ['10.96.0.50']],
    ['clusterIPs alone works too', { clusterIPs: ['10.96.0.60'] }, ['10.96.0.60']],
    ['a headless Service gets none', { clusterIP: 'None' }, []],
    ['an ExternalName Service gets none', { type: 'ExternalName', externalName: 'example.com' }, []],
  ])('%s', (_name, spec, want) => {
    const h = allocationHarness();
    expect(h.write('CREATE', web(spec)).error).toBeUndefined();
    expect([...h.ips.items.keys()]).toEqual(want);
  });

  it('refuses an IP another Service holds and one outside the service CIDR, with the upstream texts', () => {
    const h = allocationHarness();
    h.write('CREATE', web({ clusterIP: '10.96.0.50' }, 'first'));
    const taken = h.write('CREATE', web({ clusterIP: '10.96.0.50' }, 'second'));
    expect(taken.error?.code).toBe(422);
    expect(taken.error?.message).toBe('Service "second" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.50"}: failed to allocate IP 10.96.0.50: provided IP is already allocated');
    const outside = h.write('CREATE', web({ clusterIP: '1.1.1.1' }, 'third'));
    expect(causes(outside.error)).toEqual(['spec.clusterIPs: Invalid value: []string{"1.1.1.1"}: failed to allocate IP 1.1.1.1: the provided network does not match the current range']);
    expect([...h.ips.items.keys()]).toEqual(['10.96.0.50']);
  });

  it('a create whose name is taken allocates nothing (it fails AlreadyExists)', () => {
    const h = allocationHarness();
    h.write('CREATE', web());
    const again = h.write('CREATE', web({ clusterIP: '10.96.0.70' }));
    expect(again.error?.message).toBe('AlreadyExists');
    expect(h.ips.items.has('10.96.0.70')).toBe(false);
  });

  it('walks on past an IP another replica created a moment ago (the "mid-air collision")', () => {
    // a /29: 6 usable addresses, no static band; what seed 5 picks first
    const first = allocationHarness({ seed: 5, cidr: '10.0.0.0/29' }).write('CREATE', web()).svc.spec!.clusterIP!;
    const stale = allocationHarness({ seed: 5, cidr: '10.0.0.0/29', staleCache: true });
    stale.ips.items.set(first, ipAddressFor(web({}, 'other'), first));
    const got = stale.write('CREATE', web());
    expect(got.error).toBeUndefined();
    expect(got.svc.spec!.clusterIP).not.toBe(first);
    expect(stale.ips.items.get(first)?.spec?.parentRef?.name).toBe('other');
  });

  it('says "range is full" as an internal error when no address is left', () => {
    const h = allocationHarness({ cidr: '10.0.0.0/29' });
    for (let i = 0; i < 6; i++) expect(h.write('CREATE', web({}, `s${i}`)).error).toBeUndefined();
    expect(new Set([...h.ips.items.keys()]).size).toBe(6);
    const full = h.write('CREATE', web({}, 'one-too-many'));
    expect(full.error?.code).toBe(500);
    expect(full.error?.message).toBe('Internal error occurred: failed to allocate a serviceIP: range is full');
  });

  it('a dry run takes nothing: a random IP is shown as the network address, a taken one is still refused', () => {
    const h = allocationHarness();
    h.write('CREATE', web({ clusterIP: '10.96.0.50' }, 'held'));
    expect(h.write('CREATE', web(), true).svc.spec!.clusterIP).toBe('10.96.0.0');
    expect(causes(h.write('CREATE', web({ clusterIP: '10.96.0.50' }), true).error)).toEqual([
      'spec.clusterIPs: Invalid value: []string{"10.96.0.50"}: failed to allocate IP 10.96.0.50: provided IP is already allocated',
    ]);
    expect([...h.ips.items.keys()]).toEqual(['10.96.0.50']);
  });

  it('is deterministic for a seed', () => {
    const ip = (seed: number): string => allocationHarness({ seed }).write('CREATE', web()).svc.spec!.clusterIP!;
    expect(ip(11)).toBe(ip(11));
    expect(ip(11)).not.toBe(ip(12));
  });
});

describe('cluster IPs on update and delete', () => {
  it('an update that leaves the IP out keeps it (PatchAllocatedValues) and creates no IPAddress', () => {
    const h = allocationHarness();
    const ip = h.write('CREATE', web()).svc.spec!.clusterIP!;
    const updated = h.write('UPDATE', web({ selector: { app: 'v2' } }));
    expect(updated.error).toBeUndefined();
    expect(updated.svc.spec).toMatchObject({ clusterIP: ip, clusterIPs: [ip] });
    expect([...h.ips.items.keys()]).toEqual([ip]);
  });

  it('ExternalName -> ClusterIP allocates; ClusterIP -> ExternalName gives the IP back', () => {
    const h = allocationHarness();
    h.write('CREATE', web({ type: 'ExternalName', externalName: 'example.com' }));
    const ip = h.write('UPDATE', web({ type: 'ClusterIP' })).svc.spec!.clusterIP!;
    expect([...h.ips.items.keys()]).toEqual([ip]);
    // the client sends the old IP fields back unchanged (a patch of the type): they are dropped
    const stored = h.stored.get('default/web')!;
    const back = h.write('UPDATE', web({ ...stored.spec, type: 'ExternalName', externalName: 'example.com' }));
    expect(back.error).toBeUndefined();
    expect(back.svc.spec).not.toHaveProperty('clusterIP');
    expect(back.svc.spec).not.toHaveProperty('clusterIPs');
    expect(back.svc.spec).not.toHaveProperty('ipFamilies');
    expect(h.ips.items.size).toBe(0);
  });

  it('a delete deletes the IPAddress, so the IP can be asked for again', () => {
    const h = allocationHarness();
    h.write('CREATE', web({ clusterIP: '10.96.0.50' }));
    h.remove('web');
    expect(h.ips.items.size).toBe(0);
    expect(h.write('CREATE', web({ clusterIP: '10.96.0.50' }, 'next')).error).toBeUndefined();
  });

  it('a Service held by a finalizer keeps its IP until the update that removes the last finalizer', () => {
    const h = allocationHarness();
    const lb = h.write('CREATE', web()).svc;
    lb.metadata.finalizers = ['service.kubernetes.io/load-balancer-cleanup'];
    h.remove('web');
    expect(h.ips.items.size).toBe(1);
    h.stored.set('default/web', { ...lb, metadata: { ...lb.metadata, deletionTimestamp: '2026-01-01T00:00:10Z' } });
    const last = h.stored.get('default/web')!;
    h.write('UPDATE', JSON.parse(JSON.stringify({ ...last, metadata: { ...last.metadata, finalizers: [] } })) as Service);
    expect(h.ips.items.size).toBe(0);
  });
});
