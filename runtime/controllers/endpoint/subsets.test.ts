// The Endpoints controller's subsets, after upstream's endpoints_controller_test.go and
// pkg/api/v1/endpoints/util_test.go (RepackSubsets) cases.
import { describe, expect, it } from 'vitest';
import type { EndpointSubset, Pod, Service } from '../../api/index.ts';
import { computeSubsets, MAX_ENDPOINTS_CAPACITY, repackSubsets, truncateSubsets } from './subsets.ts';

const svc = (spec: Partial<Service['spec']> = {}): Service => ({ metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, clusterIP: '10.96.0.7', ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }], ...spec } });
function pod(name: string, ip: string, o: { ready?: boolean; phase?: string; deleting?: boolean; ports?: { name: string; containerPort: number }[]; hostname?: string; subdomain?: string } = {}): Pod {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'web' }, ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx', ...(o.ports ? { ports: o.ports } : {}) }], ...(o.hostname ? { hostname: o.hostname } : {}), ...(o.subdomain ? { subdomain: o.subdomain } : {}) },
    status: { phase: (o.phase ?? 'Running') as 'Running', podIP: ip, conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  } as Pod;
}
const ips = (list?: { ip: string }[]) => (list ?? []).map((a) => a.ip);

describe('computeSubsets', () => {
  it('one subset: ready addresses, not-ready ones apart, IPs in text order, the targetPort', () => {
    const subsets = computeSubsets(svc(), [pod('a', '10.244.1.2'), pod('b', '10.244.1.10'), pod('c', '10.244.2.3', { ready: false })]);
    expect(subsets).toHaveLength(1);
    expect(ips(subsets[0]!.addresses)).toEqual(['10.244.1.10', '10.244.1.2']);
    expect(ips(subsets[0]!.notReadyAddresses)).toEqual(['10.244.2.3']);
    expect(subsets[0]!.ports).toEqual([{ port: 8080, protocol: 'TCP' }]);
    expect(subsets[0]!.addresses![0]).toEqual({ ip: '10.244.1.10', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'default', name: 'b', uid: 'uid-b' } });
  });

  it('leaves out finished pods, pods without an IP, and terminating ones unless publishNotReadyAddresses', () => {
    const pods = [pod('done', '10.0.0.1', { phase: 'Succeeded' }), pod('noip', ''), pod('going', '10.0.0.3', { deleting: true }), pod('ok', '10.0.0.4')];
    expect(ips(computeSubsets(svc(), pods)[0]!.addresses)).toEqual(['10.0.0.4']);
    const published = computeSubsets(svc({ publishNotReadyAddresses: true }), [...pods, pod('unready', '10.0.0.5', { ready: false })]);
    expect(ips(published[0]!.addresses)).toEqual(['10.0.0.3', '10.0.0.4', '10.0.0.5']);
    expect(published[0]!.notReadyAddresses).toBeUndefined();
  });

  it('named target ports: pods that do not declare the port are skipped; different numbers make different subsets', () => {
    const named = svc({ ports: [{ name: 'http', port: 80, targetPort: 'web', protocol: 'TCP' }] });
    const subsets = computeSubsets(named, [pod('a', '10.0.0.1', { ports: [{ name: 'web', containerPort: 8080 }] }), pod('b', '10.0.0.2', { ports: [{ name: 'web', containerPort: 9090 }] }), pod('c', '10.0.0.3')]);
    expect(subsets.map((s) => [ips(s.addresses), s.ports])).toEqual([
      [['10.0.0.1'], [{ name: 'http', port: 8080, protocol: 'TCP' }]],
      [['10.0.0.2'], [{ name: 'http', port: 9090, protocol: 'TCP' }]],
    ]);
  });

  it('a headless Service without ports lists addresses without ports; with a hostname when the subdomain names it', () => {
    const headless = svc({ clusterIP: 'None', ports: [] });
    const subsets = computeSubsets(headless, [pod('a', '10.0.0.1', { hostname: 'a-0', subdomain: 'web' }), pod('b', '10.0.0.2', { hostname: 'b-0', subdomain: 'other' })]);
    expect(subsets).toEqual([{ addresses: [
      { ip: '10.0.0.1', hostname: 'a-0', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: 'uid-a' } },
      { ip: '10.0.0.2', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'default', name: 'b', uid: 'uid-b' } },
    ] }]);
    // a Service with a cluster IP and no ports has no endpoints at all
    expect(computeSubsets(svc({ ports: [] }), [pod('a', '10.0.0.1')])).toEqual([]);
  });
});

describe('repackSubsets (util_test.go TestPackSubsets)', () => {
  const a = (ip: string, uid = '') => ({ ip, ...(uid ? { targetRef: { uid } } : {}) });
  it.each<[string, EndpointSubset[], EndpointSubset[]]>([
    ['empty', [], []],
    ['one set, one port', [{ addresses: [a('1.2.3.4')], ports: [{ port: 111, protocol: 'TCP' }] }], [{ addresses: [a('1.2.3.4')], ports: [{ port: 111, protocol: 'TCP' }] }]],
    ['same port, addresses merged and sorted', [{ addresses: [a('5.6.7.8')], ports: [{ port: 111 }] }, { addresses: [a('1.2.3.4')], ports: [{ port: 111 }] }], [{ addresses: [a('1.2.3.4'), a('5.6.7.8')], ports: [{ port: 111 }] }]],
    ['same address, ports merged', [{ addresses: [a('1.2.3.4')], ports: [{ name: 'p', port: 111 }] }, { addresses: [a('1.2.3.4')], ports: [{ name: 'q', port: 222 }] }], [{ addresses: [a('1.2.3.4')], ports: [{ name: 'p', port: 111 }, { name: 'q', port: 222 }] }]],
    ['ready wins over not ready for the same address and port', [{ notReadyAddresses: [a('1.2.3.4')], ports: [{ port: 111 }] }, { addresses: [a('1.2.3.4')], ports: [{ port: 111 }] }], [{ addresses: [a('1.2.3.4')], ports: [{ port: 111 }] }]],
    ['same IP, different targets are two addresses', [{ addresses: [a('1.2.3.4', 'u2'), a('1.2.3.4', 'u1')], ports: [{ port: 111 }] }], [{ addresses: [a('1.2.3.4', 'u1'), a('1.2.3.4', 'u2')], ports: [{ port: 111 }] }]],
    ['different port sets stay apart', [{ addresses: [a('1.2.3.4')], ports: [{ port: 111 }] }, { addresses: [a('5.6.7.8')], ports: [{ port: 222 }] }], [{ addresses: [a('1.2.3.4')], ports: [{ port: 111 }] }, { addresses: [a('5.6.7.8')], ports: [{ port: 222 }] }]],
  ])('%s', (_, input, want) => {
    expect(repackSubsets(input as EndpointSubset[])).toEqual(want);
  });
});

describe('truncateSubsets (maxCapacity 1000)', () => {
  const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ ip: `${prefix}.${Math.floor(i / 250)}.${i % 250}` }));
  it('keeps every ready address first, then what room is left for the not-ready ones', () => {
    const subsets: EndpointSubset[] = [{ addresses: many(900, '10.1'), notReadyAddresses: many(300, '10.2'), ports: [{ port: 80 }] }];
    expect(truncateSubsets(subsets)).toBe(true);
    expect([subsets[0]!.addresses!.length, subsets[0]!.notReadyAddresses!.length]).toEqual([900, 100]);
  });
  it('drops the not-ready ones and cuts the ready ones when those alone are too many', () => {
    const subsets: EndpointSubset[] = [{ addresses: many(1200, '10.1'), notReadyAddresses: many(5, '10.2'), ports: [{ port: 80 }] }];
    expect(truncateSubsets(subsets)).toBe(true);
    expect(subsets[0]!.addresses!.length).toBe(MAX_ENDPOINTS_CAPACITY);
    expect(subsets[0]!.notReadyAddresses).toBeUndefined();
  });
  it('leaves 1000 or fewer alone', () => {
    expect(truncateSubsets([{ addresses: many(1000, '10.1') }])).toBe(false);
  });
});
