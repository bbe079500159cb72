// The kubernetes plugin's answers from its informers' view (answerFromCache), as the Kubernetes
// DNS specification gives them: a Service's cluster IP, a headless Service's ready endpoints,
// NXDOMAIN for everything else.
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

const services = [svc('default', 'web', '10.96.7.7'), svc('default', 'db', 'None'), svc('kube-system', 'kube-dns', '10.96.0.10')];
const slices = [slice('default', 'db', [{ ip: '10.244.1.5', ready: true }, { ip: '10.244.2.9', ready: false }, { ip: '10.244.1.4', ready: true }])];
const namespaces = [ns('default'), ns('kube-system')];

describe('answerFromCache', () => {
  it.each([
    ['web.default.svc.cluster.local', { rcode: 'NOERROR', addresses: ['10.96.7.7'] }],
    ['web.default.svc.cluster.local.', { rcode: 'NOERROR', addresses: ['10.96.7.7'] }],
    ['kube-dns.kube-system.svc.cluster.local', { rcode: 'NOERROR', addresses: ['10.96.0.10'] }],
    ['db.default.svc.cluster.local', { rcode: 'NOERROR', addresses: ['10.244.1.4', '10.244.1.5'] }],
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
