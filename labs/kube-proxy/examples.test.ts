// Visible examples for the kube-proxy lab: read them, run them, add your own.
// `npm run grade -- kube-proxy --examples`
import { describe, expect, it } from 'vitest';
import type { Endpoint, EndpointSlice, Service } from '../../runtime/api/index.ts';
import { endpointsFor, syncProxyRules } from '@lab/submission';

// The chapter's hostnames Service: port 80 in front of Pods listening on 9376.
const hostnames: Service = {
  metadata: { name: 'hostnames', namespace: 'default' },
  spec: { type: 'NodePort', clusterIP: '10.104.56.23', ports: [{ name: 'http', port: 80, protocol: 'TCP', nodePort: 30080 }] },
};

const ready = (ip: string): Endpoint => ({ addresses: [ip], conditions: { ready: true, serving: true, terminating: false } });
const notReady = (ip: string): Endpoint => ({ addresses: [ip], conditions: { ready: false, serving: false, terminating: false } });

const slice: EndpointSlice = {
  metadata: { name: 'hostnames-x7k2p', namespace: 'default', labels: { 'kubernetes.io/service-name': 'hostnames' } },
  addressType: 'IPv4',
  ports: [{ name: 'http', port: 9376, protocol: 'TCP' }],
  endpoints: [ready('10.244.2.4'), ready('10.244.1.3'), notReady('10.244.1.4'), ready('10.244.1.12')],
};

describe('endpointsFor examples', () => {
  it('the ready endpoints with the slice port, sorted by address as numbers', () => {
    expect(endpointsFor(hostnames, hostnames.spec.ports![0]!, [slice])).toEqual(['10.244.1.3:9376', '10.244.1.12:9376', '10.244.2.4:9376']);
  });

  it('an endpoint listed in two slices counts once', () => {
    const second: EndpointSlice = { ...slice, metadata: { ...slice.metadata, name: 'hostnames-q8z4m' }, endpoints: [ready('10.244.2.4'), ready('10.244.3.9')] };
    expect(endpointsFor(hostnames, hostnames.spec.ports![0]!, [slice, second])).toEqual(['10.244.1.3:9376', '10.244.1.12:9376', '10.244.2.4:9376', '10.244.3.9:9376']);
  });
});

describe('syncProxyRules examples', () => {
  it('three endpoints: one in three, one in two of the rest, then the last', () => {
    expect(syncProxyRules([hostnames], [slice])).toEqual([
      {
        servicePortName: 'default/hostnames:http',
        protocol: 'tcp',
        clusterIP: '10.104.56.23',
        port: 80,
        nodePort: 30080,
        action: 'DNAT',
        endpoints: [
          { endpoint: '10.244.1.3:9376', probability: '0.3333333333' },
          { endpoint: '10.244.1.12:9376', probability: '0.5000000000' },
          { endpoint: '10.244.2.4:9376', probability: null },
        ],
      },
    ]);
  });

  it('no ready endpoint: REJECT', () => {
    const empty: EndpointSlice = { ...slice, endpoints: [notReady('10.244.1.4')] };
    expect(syncProxyRules([hostnames], [empty])).toEqual([
      { servicePortName: 'default/hostnames:http', protocol: 'tcp', clusterIP: '10.104.56.23', port: 80, nodePort: 30080, action: 'REJECT', endpoints: [] },
    ]);
  });

  it('a headless Service gets no rules', () => {
    const headless: Service = { ...hostnames, spec: { clusterIP: 'None', ports: [{ name: 'http', port: 80 }] } };
    expect(syncProxyRules([headless], [slice])).toEqual([]);
  });
});
