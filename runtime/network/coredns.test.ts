// The kubernetes plugin's answers from its informers' view (answerFromCache), as the Kubernetes
// DNS specification gives them: a Service's cluster IP, a headless Service's ready endpoints (all,
// or one by hostname), an ExternalName's CNAME, pod records (pods insecure), NXDOMAIN otherwise.
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Namespace, Service } from '../api/index.ts';
import { answerFromCache } from './coredns.ts';

const ns = (name: string): Namespace => ({ metadata: { name }, spec: {}, status: {} }) as Namespace;
const svc = (namespace: string, name: string, clusterIP: string): Service => ({ metadata: { namespace, name }, spec: { clusterIP, ports: [{ port: 80 }] } });
const slice = (namespace: string, service: string, endpoints: { ip: string; ready: boolean }[]): EndpointSlice => ({
  metadata: { namespace, name: `${service}-x`, labels: { 'kubernetes.io/service-name': service } },
  addressType: 'IPv4',
  endpoints: endpoints.map((e) => ({ addresses: [e.ip], conditions: { ready: e.ready } })),
}) as EndpointSlice;

const external = (namespace: string, name: string, externalName: string): Service => ({ metadata: { namespace, name }, spec: { type: 'ExternalName', externalName } });
const services = [
  svc('default', 'web', '10.96.7.7'), svc('default', 'db', 'None'), svc('kube-system', 'kube-dns', '10.96.0.10'),
  external('default', 'search', 'search.example.com'), external('default', 'alias', 'web.default.svc.cluster.local.'),
  external('default', 'loop', 'loop.default.svc.cluster.local'), external('default', 'gone', 'nothing.default.svc.cluster.local'),
];
const slices = [
  slice('default', 'db', [{ ip: '10.244.1.5', ready: true }, { ip: '10.244.2.9', ready: false }, { ip: '10.244.1.4', ready: true }]),
  { ...slice('default', 'db', []), endpoints: [{ addresses: ['10.244.3.3'], hostname: 'db-0', conditions: { ready: true } }] } as EndpointSlice,
];
const namespaces = [ns('default'), ns('kube-system')];

describe('answerFromCache', () => {
  it.each([
    ['web.default.svc.cluster.local', { rcode: 'NOERROR', addresses: ['10.96.7.7'] }],
    ['web.default.svc.cluster.local.', { rcode: 'NOERROR', addresses: ['10.96.7.7'] }],
    ['kube-dns.kube-system.svc.cluster.local', { rcode: 'NOERROR', addresses: ['10.96.0.10'] }],
    ['db.default.svc.cluster.local', { rcode: 'NOERROR', addresses: ['10.244.1.4', '10.244.1.5', '10.244.3.3'] }],
    // a headless Service's endpoint by hostname, or by its address with dashes when it has none
    ['db-0.db.default.svc.cluster.local', { rcode: 'NOERROR', addresses: ['10.244.3.3'] }],
    ['10-244-1-5.db.default.svc.cluster.local', { rcode: 'NOERROR', addresses: ['10.244.1.5'] }],
    ['10-244-2-9.db.default.svc.cluster.local', { rcode: 'NXDOMAIN' }], // not ready
    ['db-1.db.default.svc.cluster.local', { rcode: 'NXDOMAIN' }],
    ['x.web.default.svc.cluster.local', { rcode: 'NXDOMAIN' }], // web has a cluster IP: no per-endpoint names
    // ExternalName: a CNAME; in the cluster's zone CoreDNS follows it
    ['search.default.svc.cluster.local', { rcode: 'NOERROR', addresses: [], cname: 'search.example.com' }],
    ['alias.default.svc.cluster.local', { rcode: 'NOERROR', addresses: ['10.96.7.7'], cname: 'web.default.svc.cluster.local' }],
    ['gone.default.svc.cluster.local', { rcode: 'NXDOMAIN', cname: 'nothing.default.svc.cluster.local' }],
    ['loop.default.svc.cluster.local', { rcode: 'SERVFAIL', why: 'CNAME chain longer than 8' }],
    // pods insecure: any dashed IPv4 in a namespace that exists
    ['10-244-9-9.default.pod.cluster.local', { rcode: 'NOERROR', addresses: ['10.244.9.9'] }],
    ['10-244-9-9.nowhere.pod.cluster.local', { rcode: 'NXDOMAIN' }],
    ['10-244-9-999.default.pod.cluster.local', { rcode: 'NXDOMAIN' }],
    ['web.default.pod.cluster.local', { rcode: 'NXDOMAIN' }],
    ['WEB.Default.svc.cluster.local', { rcode: 'NOERROR', addresses: ['10.96.7.7'] }], // names are case-insensitive
    ['web.kube-system.svc.cluster.local', { rcode: 'NXDOMAIN' }],
    ['web.nowhere.svc.cluster.local', { rcode: 'NXDOMAIN' }],
    ['web.default.default.svc.cluster.local', { rcode: 'NXDOMAIN' }],
    ['default.svc.cluster.local', { rcode: 'NXDOMAIN' }],
    ['web.cluster.local', { rcode: 'NXDOMAIN' }],
    ['example.com', { rcode: 'NXDOMAIN' }],
  ])('%s', (name, want) => {
    expect(answerFromCache(name, services, slices, namespaces)).toEqual(want);
  });
});
