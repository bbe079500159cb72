// Hidden grading suite for the kube-proxy lab. Behaviour only: which endpoints of a Service's
// EndpointSlices kube-proxy uses for each Service port (ready ones, port matched by name and
// protocol, de-duplicated across slices, in address order), and the rules it writes for each
// Service port (cluster IP and node port matches, the KUBE-SVC chain's 1/(n-i) statistic picks with
// an unconditional last rule, REJECT for a port without endpoints, nothing for headless and
// ExternalName Services). Then differential tests against the simulation's own kube-proxy
// (runtime/network servicePorts + buildNatRules, read back from the rules it programs), and a live
// cluster whose node rules are compared with what the learner computes from `kubectl get -o json`.
// Cases ported as behaviour from pkg/proxy/iptables/proxier_test.go (TestOverallIPTablesRules,
// TestClusterIPGeneral, TestNodePorts, TestEndpointSliceE2E, TestClusterIPReject-style no-endpoint
// services, TestBuildServiceMapServiceHeadless, TestBuildServiceMapServiceTypeExternalName) and
// pkg/proxy/endpointslicecache_test.go (TestEndpointsMapFromESC).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Endpoint, EndpointSlice, Protocol, Service, ServicePort } from '../../runtime/api/index.ts';
import { createCluster } from '../../runtime/index.ts';
import { buildNatRules, servicePorts, type IptablesRule } from '../../runtime/network/index.ts';
import { endpointsFor, syncProxyRules } from '@lab/submission';

// ---------------------------------------------------------------- shapes and builders

interface EndpointPick {
  endpoint: string;
  probability: string | null;
}
interface Rules {
  servicePortName: string;
  protocol: string;
  clusterIP: string;
  port: number;
  nodePort: number;
  action: 'DNAT' | 'REJECT';
  endpoints: EndpointPick[];
}

type SvcType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';

function svc(name: string, clusterIP: string, ports: ServicePort[], extra: { namespace?: string; type?: SvcType } = {}): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: extra.namespace ?? 'default' },
    spec: { clusterIP, ports, ...(extra.type ? { type: extra.type } : {}) },
  };
}

function slice(service: string, name: string, ports: { name?: string; port?: number; protocol?: Protocol }[], endpoints: Endpoint[], namespace = 'default'): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name, namespace, labels: { 'kubernetes.io/service-name': service } },
    addressType: 'IPv4',
    ports: ports.map((p) => ({ ...p, protocol: p.protocol ?? 'TCP' })),
    endpoints,
  };
}

const ready = (ip: string): Endpoint => ({ addresses: [ip], conditions: { ready: true, serving: true, terminating: false } });
const notReady = (ip: string): Endpoint => ({ addresses: [ip], conditions: { ready: false, serving: false, terminating: false } });
const terminating = (ip: string): Endpoint => ({ addresses: [ip], conditions: { ready: false, serving: true, terminating: true } });

const P = (n: number) => (1 / n).toFixed(10);

/** The rules the learner expects for a port with these endpoints: 1/n, 1/(n-1), ..., the last unconditional. */
function picks(...endpoints: string[]): EndpointPick[] {
  return endpoints.map((endpoint, i) => ({ endpoint, probability: i < endpoints.length - 1 ? P(endpoints.length - i) : null }));
}

// ---------------------------------------------------------------- the learner's answers, and how they are shown

function describeService(s: Service): string {
  const ns = s.metadata.namespace ?? 'default';
  const ports = (s.spec.ports ?? []).map((p) => `${p.name ? `${p.name}=` : ''}${p.port}/${p.protocol ?? 'TCP'}${p.nodePort ? ` nodePort ${p.nodePort}` : ''}`);
  return `Service ${ns}/${s.metadata.name} type ${s.spec.type ?? 'ClusterIP'}, clusterIP ${JSON.stringify(s.spec.clusterIP)}, ports [${ports.join(', ')}]`;
}

function describeSlice(s: EndpointSlice): string {
  const ports = (s.ports ?? []).map((p) => `${p.name ? `${p.name}=` : '(no name)='}${p.port ?? '(no port)'}/${p.protocol ?? 'TCP'}`);
  const eps = s.endpoints.map((e) => {
    const c = e.conditions;
    const cond = c === undefined ? 'no conditions' : ['ready', 'serving', 'terminating'].map((k) => `${k}=${String(c[k as keyof typeof c])}`).join(' ');
    return `${e.addresses.join('+')} (${cond})`;
  });
  return `EndpointSlice ${s.metadata.namespace}/${s.metadata.name} for service ${JSON.stringify(s.metadata.labels?.['kubernetes.io/service-name'])}, ports [${ports.join(', ')}], endpoints [${eps.join(', ')}]`;
}

function describeInput(services: readonly Service[], slices: readonly EndpointSlice[]): string {
  return [...services.map(describeService), ...slices.map(describeSlice)].map((l) => `  ${l}`).join('\n');
}

function showRules(rules: readonly Rules[]): string {
  if (rules.length === 0) return '  (no rules)';
  return rules
    .map((r) => {
      const head = `  ${r.servicePortName} ${r.protocol} ${r.clusterIP}:${r.port}${r.nodePort ? ` nodePort ${r.nodePort}` : ''} -> ${r.action}`;
      return [head, ...r.endpoints.map((p) => `      ${p.endpoint}${p.probability === null ? ' (last, always)' : ` probability ${p.probability}`}`)].join('\n');
    })
    .join('\n');
}

function callSync(services: readonly Service[], slices: readonly EndpointSlice[]): Rules[] {
  const out = syncProxyRules(structuredClone(services) as Service[], structuredClone(slices) as EndpointSlice[]);
  if (!Array.isArray(out)) throw new Error(`syncProxyRules returned ${String(out)}, not an array of ServicePortRules`);
  return structuredClone(out) as Rules[];
}

function callEndpoints(service: Service, port: ServicePort, slices: readonly EndpointSlice[]): string[] {
  const out = endpointsFor(structuredClone(service), structuredClone(port), structuredClone(slices) as EndpointSlice[]);
  if (!Array.isArray(out)) throw new Error(`endpointsFor returned ${String(out)}, not an array of "ip:port" strings`);
  return structuredClone(out) as string[];
}

/** Every field that differs, so a failure reads as "what kube-proxy writes" vs "what you wrote". */
function expectRules(services: readonly Service[], slices: readonly EndpointSlice[], expected: readonly Rules[]): void {
  const got = callSync(services, slices);
  expect(
    got,
    `for\n${describeInput(services, slices)}\nkube-proxy writes:\n${showRules(expected)}\nyour syncProxyRules said:\n${showRules(got)}\n`,
  ).toEqual(expected);
}

function expectEndpoints(service: Service, port: ServicePort, slices: readonly EndpointSlice[], expected: string[]): void {
  const got = callEndpoints(service, port, slices);
  expect(got, `for port ${JSON.stringify(port)} of\n${describeInput([service], slices)}\nexpected [${expected.join(', ')}], you said [${got.join(', ')}]`).toEqual(expected);
}

const rules = (r: Partial<Rules> & Pick<Rules, 'servicePortName' | 'clusterIP' | 'port'>): Rules => ({
  protocol: 'tcp',
  nodePort: 0,
  action: r.endpoints && r.endpoints.length > 0 ? 'DNAT' : 'REJECT',
  endpoints: [],
  ...r,
});

// ---------------------------------------------------------------- endpointsFor

describe('endpointsFor: which endpoints kube-proxy uses', () => {
  const web = svc('web', '10.96.0.10', [{ name: 'http', port: 80, protocol: 'TCP' }]);
  const http = web.spec.ports![0]!;

  it('uses ready endpoints, with the slice port (the target port), not the Service port', () => {
    expectEndpoints(web, http, [slice('web', 'web-a', [{ name: 'http', port: 8080 }], [ready('10.244.1.5'), ready('10.244.2.7')])], ['10.244.1.5:8080', '10.244.2.7:8080']);
  });

  it('leaves out endpoints whose ready condition is false (TestEndpointSliceE2E)', () => {
    expectEndpoints(
      web, http,
      [slice('web', 'web-a', [{ name: 'http', port: 80 }], [ready('10.0.1.1'), ready('10.0.1.2'), notReady('10.0.1.3'), { addresses: ['10.0.1.4'] }])],
      ['10.0.1.1:80', '10.0.1.2:80', '10.0.1.4:80'],
    );
  });

  it('counts a missing ready condition (or no conditions at all) as ready', () => {
    expectEndpoints(
      web, http,
      [slice('web', 'web-a', [{ name: 'http', port: 80 }], [{ addresses: ['10.0.1.1'], conditions: {} }, { addresses: ['10.0.1.2'] }, { addresses: ['10.0.1.3'], conditions: { serving: true } }])],
      ['10.0.1.1:80', '10.0.1.2:80', '10.0.1.3:80'],
    );
  });

  it('leaves out terminating endpoints (ready false) beside ready ones', () => {
    expectEndpoints(web, http, [slice('web', 'web-a', [{ name: 'http', port: 80 }], [terminating('10.0.1.1'), ready('10.0.1.2'), terminating('10.0.1.3')])], ['10.0.1.2:80']);
  });

  it('leaves out terminating endpoints even when nothing else is ready (this book\'s kube-proxy has no fallback)', () => {
    expectEndpoints(web, http, [slice('web', 'web-a', [{ name: 'http', port: 80 }], [terminating('10.0.1.1'), notReady('10.0.1.2')])], []);
  });

  it('uses an endpoint that is ready and terminating at once (publishNotReadyAddresses)', () => {
    expectEndpoints(web, http, [slice('web', 'web-a', [{ name: 'http', port: 80 }], [{ addresses: ['10.0.1.1'], conditions: { ready: true, serving: true, terminating: true } }])], ['10.0.1.1:80']);
  });

  it('joins the endpoints of two slices (TestEndpointsMapFromESC: 2 slices, same port)', () => {
    expectEndpoints(
      web, http,
      [slice('web', 'web-a', [{ name: 'http', port: 80 }], [ready('10.0.1.1'), ready('10.0.1.2')]), slice('web', 'web-b', [{ name: 'http', port: 80 }], [ready('10.0.2.1'), ready('10.0.2.2')])],
      ['10.0.1.1:80', '10.0.1.2:80', '10.0.2.1:80', '10.0.2.2:80'],
    );
  });

  it('lists an endpoint that two slices both carry once (2 overlapping slices, same port)', () => {
    expectEndpoints(
      web, http,
      [slice('web', 'web-a', [{ name: 'http', port: 80 }], [ready('10.0.1.1'), ready('10.0.1.2')]), slice('web', 'web-b', [{ name: 'http', port: 80 }], [ready('10.0.1.2'), ready('10.0.1.3')])],
      ['10.0.1.1:80', '10.0.1.2:80', '10.0.1.3:80'],
    );
  });

  it('keeps the same address twice when the two slices give it different ports', () => {
    expectEndpoints(
      web, http,
      [slice('web', 'web-a', [{ name: 'http', port: 80 }], [ready('10.0.1.1')]), slice('web', 'web-b', [{ name: 'http', port: 8080 }], [ready('10.0.1.1')])],
      ['10.0.1.1:80', '10.0.1.1:8080'],
    );
  });

  it('sorts by address as numbers, octet by octet, then port: 10.244.1.5 before 10.244.1.12', () => {
    expectEndpoints(
      web, http,
      [slice('web', 'web-a', [{ name: 'http', port: 80 }], [ready('10.244.1.12'), ready('10.244.10.1'), ready('10.244.1.5'), ready('10.244.2.3'), ready('9.1.1.1')])],
      ['9.1.1.1:80', '10.244.1.5:80', '10.244.1.12:80', '10.244.2.3:80', '10.244.10.1:80'],
    );
  });

  it('matches the slice port by name, not by position (the slice lists its ports in another order)', () => {
    const two = svc('web', '10.96.0.10', [{ name: 'http', port: 80, protocol: 'TCP' }, { name: 'metrics', port: 9090, protocol: 'TCP' }]);
    const slices = [slice('web', 'web-a', [{ name: 'metrics', port: 9100 }, { name: 'http', port: 8080 }], [ready('10.0.1.1')])];
    expectEndpoints(two, two.spec.ports![0]!, slices, ['10.0.1.1:8080']);
    expectEndpoints(two, two.spec.ports![1]!, slices, ['10.0.1.1:9100']);
  });

  it('matches the protocol too: dns over UDP and dns-tcp over TCP (kube-dns)', () => {
    const dns = svc('kube-dns', '10.96.0.10', [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }], { namespace: 'kube-system' });
    const slices = [slice('kube-dns', 'kube-dns-x', [{ name: 'dns-tcp', port: 53, protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }], [ready('10.244.0.2')], 'kube-system')];
    expectEndpoints(dns, dns.spec.ports![0]!, slices, ['10.244.0.2:53']);
    const wrongProtocol = [slice('kube-dns', 'kube-dns-x', [{ name: 'dns', port: 53, protocol: 'TCP' }], [ready('10.244.0.2')], 'kube-system')];
    expectEndpoints(dns, dns.spec.ports![0]!, wrongProtocol, []);
  });

  it('a missing protocol is TCP, on either side', () => {
    const s = svc('web', '10.96.0.10', [{ name: 'http', port: 80 }]);
    expectEndpoints(s, s.spec.ports![0]!, [slice('web', 'web-a', [{ name: 'http', port: 8080, protocol: 'TCP' }], [ready('10.0.1.1')])], ['10.0.1.1:8080']);
    const bare: EndpointSlice = { ...slice('web', 'web-a', [], [ready('10.0.1.1')]), ports: [{ name: 'http', port: 8080 }] };
    expectEndpoints(web, http, [bare], ['10.0.1.1:8080']);
  });

  it('an unnamed Service port matches the unnamed slice port', () => {
    const s = svc('web', '10.96.0.10', [{ port: 80, protocol: 'TCP' }]);
    expectEndpoints(s, s.spec.ports![0]!, [slice('web', 'web-a', [{ port: 9376 }], [ready('10.0.1.1')])], ['10.0.1.1:9376']);
    expectEndpoints(s, s.spec.ports![0]!, [slice('web', 'web-a', [{ name: 'http', port: 9376 }], [ready('10.0.1.1')])], []);
  });

  it('ignores a slice whose port has no number, and a slice without the port', () => {
    expectEndpoints(web, http, [slice('web', 'web-a', [{ name: 'http' }], [ready('10.0.1.1')]), slice('web', 'web-b', [{ name: 'metrics', port: 9100 }], [ready('10.0.1.2')])], []);
  });

  it('ignores slices of other Services and of other namespaces', () => {
    expectEndpoints(
      web, http,
      [
        slice('api', 'api-a', [{ name: 'http', port: 80 }], [ready('10.0.1.1')]),
        slice('web', 'web-a', [{ name: 'http', port: 80 }], [ready('10.0.1.2')], 'shop'),
        { ...slice('web', 'web-b', [{ name: 'http', port: 80 }], [ready('10.0.1.3')]), metadata: { name: 'web-b', namespace: 'default' } },
        slice('web', 'web-c', [{ name: 'http', port: 80 }], [ready('10.0.1.4')]),
      ],
      ['10.0.1.4:80'],
    );
  });
});

// ---------------------------------------------------------------- syncProxyRules

describe('syncProxyRules: the rules for each Service port', () => {
  it('one endpoint: one unconditional rule (TestOverallIPTablesRules svc1)', () => {
    const s = svc('svc1', '172.30.0.41', [{ name: 'p80', port: 80, protocol: 'TCP' }], { namespace: 'ns1' });
    expectRules([s], [slice('svc1', 'svc1-a', [{ name: 'p80', port: 80 }], [ready('10.180.0.1')], 'ns1')], [
      rules({ servicePortName: 'ns1/svc1:p80', clusterIP: '172.30.0.41', port: 80, endpoints: picks('10.180.0.1:80') }),
    ]);
  });

  it('two endpoints: 0.5000000000, then the last always', () => {
    const s = svc('web', '10.96.0.10', [{ name: 'http', port: 80 }]);
    expectRules([s], [slice('web', 'web-a', [{ name: 'http', port: 8080 }], [ready('10.0.1.2'), ready('10.0.1.1')])], [
      rules({ servicePortName: 'default/web:http', clusterIP: '10.96.0.10', port: 80, endpoints: [{ endpoint: '10.0.1.1:8080', probability: '0.5000000000' }, { endpoint: '10.0.1.2:8080', probability: null }] }),
    ]);
  });

  it('three ready of four (TestEndpointSliceE2E): 0.3333333333, 0.5000000000, last', () => {
    const s = svc('svc1', '172.30.1.1', [{ port: 80, protocol: 'TCP' }], { namespace: 'ns1' });
    const sl = slice('svc1', 'svc1-a', [{ port: 80 }], [ready('10.0.1.1'), ready('10.0.1.2'), notReady('10.0.1.3'), { addresses: ['10.0.1.4'] }], 'ns1');
    expectRules([s], [sl], [
      rules({
        servicePortName: 'ns1/svc1', clusterIP: '172.30.1.1', port: 80,
        endpoints: [{ endpoint: '10.0.1.1:80', probability: '0.3333333333' }, { endpoint: '10.0.1.2:80', probability: '0.5000000000' }, { endpoint: '10.0.1.4:80', probability: null }],
      }),
    ]);
  });

  it('seven endpoints: 1/7 ... 1/2 written with ten decimals, rounded (0.1428571429, 0.1666666667)', () => {
    const ips = [1, 2, 3, 4, 5, 6, 7].map((i) => `10.0.0.${i}`);
    const s = svc('web', '10.96.0.10', [{ name: 'http', port: 80 }]);
    const got = callSync([s], [slice('web', 'web-a', [{ name: 'http', port: 80 }], ips.map(ready))]);
    expect(got.map((r) => r.endpoints.map((p) => p.probability)), 'the probability column of KUBE-SVC').toEqual([
      ['0.1428571429', '0.1666666667', '0.2000000000', '0.2500000000', '0.3333333333', '0.5000000000', null],
    ]);
  });

  it('the node port of a NodePort Service, and of a LoadBalancer one (TestNodePorts)', () => {
    const np = svc('svc3', '172.30.0.43', [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3003 }], { namespace: 'ns3', type: 'NodePort' });
    const lb = svc('svc2', '172.30.0.42', [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3001 }], { namespace: 'ns2', type: 'LoadBalancer' });
    expectRules([np, lb], [slice('svc3', 'svc3-a', [{ name: 'p80', port: 80 }], [ready('10.180.0.3')], 'ns3'), slice('svc2', 'svc2-a', [{ name: 'p80', port: 80 }], [ready('10.180.0.2')], 'ns2')], [
      rules({ servicePortName: 'ns2/svc2:p80', clusterIP: '172.30.0.42', port: 80, nodePort: 3001, endpoints: picks('10.180.0.2:80') }),
      rules({ servicePortName: 'ns3/svc3:p80', clusterIP: '172.30.0.43', port: 80, nodePort: 3003, endpoints: picks('10.180.0.3:80') }),
    ]);
  });

  it('no endpoints: REJECT "has no endpoints", for the cluster IP and the node port', () => {
    const s = svc('svc4', '172.30.0.44', [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3004 }], { namespace: 'ns4', type: 'NodePort' });
    expectRules([s], [], [rules({ servicePortName: 'ns4/svc4:p80', clusterIP: '172.30.0.44', port: 80, nodePort: 3004, action: 'REJECT', endpoints: [] })]);
  });

  it('only not-ready endpoints: REJECT too', () => {
    const s = svc('web', '10.96.0.10', [{ name: 'http', port: 80 }]);
    expectRules([s], [slice('web', 'web-a', [{ name: 'http', port: 80 }], [notReady('10.0.1.1'), terminating('10.0.1.2')])], [
      rules({ servicePortName: 'default/web:http', clusterIP: '10.96.0.10', port: 80, action: 'REJECT', endpoints: [] }),
    ]);
  });

  it('one port with endpoints, one without: DNAT for one, REJECT for the other', () => {
    const s = svc('web', '10.96.0.10', [{ name: 'http', port: 80 }, { name: 'admin', port: 81 }]);
    expectRules([s], [slice('web', 'web-a', [{ name: 'http', port: 8080 }], [ready('10.0.1.1')])], [
      rules({ servicePortName: 'default/web:admin', clusterIP: '10.96.0.10', port: 81, action: 'REJECT', endpoints: [] }),
      rules({ servicePortName: 'default/web:http', clusterIP: '10.96.0.10', port: 80, endpoints: picks('10.0.1.1:8080') }),
    ]);
  });

  it('a headless Service (clusterIP None) gets no rules (TestBuildServiceMapServiceHeadless)', () => {
    const s = svc('db', 'None', [{ name: 'pg', port: 5432 }]);
    expectRules([s], [slice('db', 'db-a', [{ name: 'pg', port: 5432 }], [ready('10.0.1.1')])], []);
  });

  it('an ExternalName Service gets no rules (TestBuildServiceMapServiceTypeExternalName)', () => {
    const s: Service = { ...svc('ext', '', [{ name: 'https', port: 443 }], { type: 'ExternalName' }), spec: { type: 'ExternalName', externalName: 'example.com', ports: [{ name: 'https', port: 443 }] } };
    expectRules([s], [], []);
    const withIP = svc('ext', '10.96.0.99', [{ name: 'https', port: 443 }], { type: 'ExternalName' });
    expectRules([withIP], [slice('ext', 'ext-a', [{ name: 'https', port: 443 }], [ready('10.0.1.1')])], []);
  });

  it('a Service without a cluster IP yet, or without ports, gets no rules', () => {
    expectRules([svc('web', '', [{ name: 'http', port: 80 }]), svc('empty', '10.96.0.11', [])], [slice('web', 'web-a', [{ name: 'http', port: 80 }], [ready('10.0.1.1')])], []);
  });

  it('protocols are written in lower case: udp, tcp, sctp', () => {
    const s = svc('mix', '10.96.0.12', [{ name: 'a', port: 53, protocol: 'UDP' }, { name: 'b', port: 53, protocol: 'TCP' }, { name: 'c', port: 9 , protocol: 'SCTP' }, { name: 'd', port: 10 }]);
    const got = callSync([s], []);
    expect(got.map((r) => `${r.servicePortName} ${r.protocol}`), 'servicePortName and protocol of each rule set').toEqual(['default/mix:a udp', 'default/mix:b tcp', 'default/mix:c sctp', 'default/mix:d tcp']);
  });

  it('sorted by servicePortName, over namespaces and Services', () => {
    const services = [
      svc('web', '10.96.0.3', [{ name: 'http', port: 80 }], { namespace: 'shop' }),
      svc('kubernetes', '10.96.0.1', [{ name: 'https', port: 443 }]),
      svc('kube-dns', '10.96.0.10', [{ name: 'metrics', port: 9153 }, { name: 'dns', port: 53, protocol: 'UDP' }], { namespace: 'kube-system' }),
      svc('api', '10.96.0.4', [{ name: 'http', port: 80 }], { namespace: 'shop' }),
    ];
    expect(callSync(services, []).map((r) => r.servicePortName), 'the order of the rule sets').toEqual([
      'default/kubernetes:https', 'kube-system/kube-dns:dns', 'kube-system/kube-dns:metrics', 'shop/api:http', 'shop/web:http',
    ]);
  });

  it('the chapter\'s hostnames Service: three Pods on 9376, one lazy Pod not ready', () => {
    const s = svc('hostnames', '10.104.56.23', [{ port: 80, protocol: 'TCP' }]);
    const sl = slice('hostnames', 'hostnames-x7k2p', [{ port: 9376 }], [ready('10.244.2.4'), ready('10.244.1.3'), ready('10.244.3.5'), notReady('10.244.1.4')]);
    expectRules([s], [sl], [rules({ servicePortName: 'default/hostnames', clusterIP: '10.104.56.23', port: 80, endpoints: picks('10.244.1.3:9376', '10.244.2.4:9376', '10.244.3.5:9376') })]);
  });

  it('does not modify the Services and slices it is given', () => {
    const services = [svc('web', '10.96.0.10', [{ name: 'http', port: 80 }])];
    const slices = [slice('web', 'web-b', [{ name: 'http', port: 80 }], [ready('10.0.1.9'), ready('10.0.1.1')]), slice('web', 'web-a', [{ name: 'http', port: 80 }], [ready('10.0.1.5')])];
    const before = JSON.stringify({ services, slices });
    syncProxyRules(services, slices);
    endpointsFor(services[0]!, services[0]!.spec.ports![0]!, slices);
    expect(JSON.stringify({ services, slices }), 'the inputs after your call').toBe(before);
  });
});

// ---------------------------------------------------------------- the runtime's own rules, read back

/** The learner-facing view of a node's KUBE-* rules (runtime/network IptablesRule[]): what kube-proxy actually programmed. */
function fromRules(installed: readonly IptablesRule[]): Rules[] {
  const byName = new Map<string, Rules & { chain?: string }>();
  const entry = (name: string) => {
    let e = byName.get(name);
    if (!e) byName.set(name, (e = { servicePortName: name, protocol: '', clusterIP: '', port: 0, nodePort: 0, action: 'DNAT', endpoints: [] }));
    return e;
  };
  const ipOf = (cidr: string | undefined) => (cidr ?? '').replace(/\/32$/, '');
  for (const r of installed) {
    if (r.table === 'filter' && r.jump === 'REJECT' && r.comment.endsWith(' has no endpoints')) {
      const e = entry(r.comment.slice(0, -' has no endpoints'.length));
      e.action = 'REJECT';
      e.protocol = r.protocol ?? '';
      if (r.chain === 'KUBE-SERVICES') {
        e.clusterIP = ipOf(r.destination);
        e.port = r.dport ?? 0;
      } else if (r.dstType === 'LOCAL') e.nodePort = r.dport ?? 0;
    } else if (r.table === undefined && r.chain === 'KUBE-SERVICES' && r.comment.endsWith(' cluster IP')) {
      const e = entry(r.comment.slice(0, -' cluster IP'.length));
      Object.assign(e, { clusterIP: ipOf(r.destination), port: r.dport ?? 0, protocol: r.protocol ?? '', chain: r.jump });
    } else if (r.table === undefined && r.chain === 'KUBE-NODEPORTS') {
      entry(r.comment).nodePort = r.dport ?? 0;
    }
  }
  const out: Rules[] = [];
  for (const { chain, ...e } of byName.values()) {
    if (chain) {
      e.endpoints = installed
        .filter((r) => r.table === undefined && r.chain === chain)
        .map((r) => ({
          endpoint: installed.find((d) => d.table === undefined && d.chain === r.jump && d.jump === 'DNAT')?.toDestination ?? `(no DNAT in ${r.jump})`,
          probability: r.probability === undefined ? null : r.probability.toFixed(10),
        }));
    }
    out.push(e);
  }
  return out.sort((a, b) => (a.servicePortName < b.servicePortName ? -1 : a.servicePortName > b.servicePortName ? 1 : 0));
}

/** What the simulation's kube-proxy computes and writes for these objects. */
function reference(services: readonly Service[], slices: readonly EndpointSlice[]): Rules[] {
  return fromRules(buildNatRules(servicePorts(services, slices)));
}

// ---------------------------------------------------------------- differential tests

const SEED = 20_261_208;

function differential<T>(what: string, arb: fc.Arbitrary<T>, numRuns: number, compare: (input: T) => string | undefined, show: (input: T) => string): void {
  const details = fc.check(
    fc.property(arb, (input) => {
      const problem = compare(input);
      if (problem !== undefined) throw new Error(problem);
    }),
    { seed: SEED, numRuns },
  );
  if (details.failed && details.counterexample) {
    const [input] = details.counterexample;
    let problem: string;
    try {
      problem = compare(input) ?? String(details.errorInstance);
    } catch (e) {
      problem = `your code threw: ${e instanceof Error ? e.message : String(e)}`;
    }
    expect.fail(
      `${what}: differs from the simulation's kube-proxy (seed ${details.seed}, path ${details.counterexamplePath}, after ${details.numRuns} generated cases).\n` +
        `Smallest failing input:\n${show(input)}\n${problem}`,
    );
  }
  expect(details.numRuns, `${what}: generated cases run`).toBe(numRuns);
}

interface World {
  services: Service[];
  slices: EndpointSlice[];
}

const NAMESPACES = ['default', 'shop'];
const SERVICE_NAMES = ['web', 'api', 'db'];
const PORT_NAMES = ['http', 'https', 'dns', 'metrics'];
const protocolArb = fc.constantFrom<Protocol | undefined>('TCP', 'TCP', 'UDP', 'SCTP', undefined);

const servicePortsArb: fc.Arbitrary<ServicePort[]> = fc.oneof(
  // one unnamed port
  fc.record({ port: fc.constantFrom(53, 80, 443), protocol: protocolArb }).map((p) => [{ port: p.port, ...(p.protocol ? { protocol: p.protocol } : {}) }]),
  // named ports, unique names
  fc.uniqueArray(fc.record({ name: fc.constantFrom(...PORT_NAMES), port: fc.constantFrom(53, 80, 443, 8080), protocol: protocolArb }), { minLength: 0, maxLength: 3, selector: (p) => p.name })
    .map((ps) => ps.map((p) => ({ name: p.name, port: p.port, ...(p.protocol ? { protocol: p.protocol } : {}) }))),
);

const serviceArb = fc.record({
  namespace: fc.constantFrom(...NAMESPACES),
  name: fc.constantFrom(...SERVICE_NAMES),
  kind: fc.constantFrom('ClusterIP', 'ClusterIP', 'NodePort', 'LoadBalancer', 'headless', 'ExternalName', 'unallocated'),
  ipLow: fc.integer({ min: 1, max: 250 }),
  ports: servicePortsArb,
});

type Conditions = Endpoint['conditions'];
const conditionsArb: fc.Arbitrary<Conditions> = fc.constantFrom<Conditions>(
  { ready: true, serving: true, terminating: false },
  { ready: true, serving: true, terminating: false },
  { ready: false, serving: false, terminating: false },
  { ready: false, serving: true, terminating: true },
  { ready: false, serving: false, terminating: true },
  { ready: true },
  { serving: true },
  {},
  undefined,
);

const endpointArb: fc.Arbitrary<Endpoint> = fc
  .record({ ip: fc.constantFrom('10.244.1.5', '10.244.1.12', '10.244.2.3', '10.244.10.1', '10.244.2.30', '9.9.9.9'), conditions: conditionsArb })
  .map(({ ip, conditions }) => ({ addresses: [ip], ...(conditions === undefined ? {} : { conditions }) }));

const sliceArb = fc.record({
  namespace: fc.constantFrom(...NAMESPACES, 'default'),
  service: fc.constantFrom(...SERVICE_NAMES, 'web', 'other', undefined),
  ports: fc.array(
    fc.record({
      name: fc.constantFrom(...PORT_NAMES, 'http', undefined),
      port: fc.option(fc.constantFrom(53, 80, 8080, 9376), { nil: undefined, freq: 8 }),
      protocol: protocolArb,
    }),
    { minLength: 0, maxLength: 3 },
  ),
  endpoints: fc.array(endpointArb, { minLength: 0, maxLength: 6 }),
});

const worldArb: fc.Arbitrary<World> = fc
  .record({
    services: fc.uniqueArray(serviceArb, { minLength: 1, maxLength: 4, selector: (s) => `${s.namespace}/${s.name}` }),
    slices: fc.array(sliceArb, { minLength: 0, maxLength: 5 }),
  })
  .map(({ services, slices }) => ({
    services: services.map((s, i): Service => {
      const nodePorts = s.kind === 'NodePort' || s.kind === 'LoadBalancer';
      const ports = s.ports.map((p, j) => (nodePorts ? { ...p, nodePort: 30000 + i * 10 + j } : p));
      const clusterIP = s.kind === 'headless' ? 'None' : s.kind === 'unallocated' ? '' : `10.96.${i}.${s.ipLow}`;
      const type = s.kind === 'headless' || s.kind === 'unallocated' ? 'ClusterIP' : s.kind;
      return { apiVersion: 'v1', kind: 'Service', metadata: { name: s.name, namespace: s.namespace }, spec: { type: type as SvcType, clusterIP, ports } };
    }),
    slices: slices.map((s, i): EndpointSlice => ({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: `${s.service ?? 'orphan'}-${i}`, namespace: s.namespace, ...(s.service ? { labels: { 'kubernetes.io/service-name': s.service } } : {}) },
      addressType: 'IPv4',
      ports: s.ports.map((p) => ({ ...(p.name ? { name: p.name } : {}), ...(p.port === undefined ? {} : { port: p.port }), ...(p.protocol ? { protocol: p.protocol } : {}) })),
      endpoints: s.endpoints,
    })),
  }));

const showWorld = (w: World) => describeInput(w.services, w.slices);

describe('differential tests against the simulation\'s kube-proxy (runtime/network)', () => {
  it('syncProxyRules agrees with the rules kube-proxy programs on 1500 generated Services and EndpointSlices', () => {
    differential('syncProxyRules', worldArb, 1500, (w) => {
      const expected = reference(w.services, w.slices);
      const got = callSync(w.services, w.slices);
      if (JSON.stringify(got) === JSON.stringify(expected)) return undefined;
      return `kube-proxy writes:\n${showRules(expected)}\nyour syncProxyRules said:\n${showRules(got)}`;
    }, showWorld);
  });

  it('endpointsFor agrees with the endpoints kube-proxy uses, port by port, on 1500 generated Services and EndpointSlices', () => {
    differential('endpointsFor', worldArb, 1500, (w) => {
      const ports = servicePorts(w.services, w.slices);
      for (const s of w.services) {
        const ns = s.metadata.namespace ?? 'default';
        for (const port of s.spec.ports ?? []) {
          const name = `${ns}/${s.metadata.name}${port.name ? `:${port.name}` : ''}`;
          const expected = ports.find((p) => p.servicePortName === name)?.endpoints;
          if (expected === undefined) continue; // headless, ExternalName, no cluster IP: kube-proxy never asks
          const got = callEndpoints(s, port, w.slices);
          if (JSON.stringify(got) !== JSON.stringify(expected)) {
            return `for port ${JSON.stringify(port)} of ${ns}/${s.metadata.name}: kube-proxy uses [${expected.join(', ')}], your endpointsFor said [${got.join(', ')}]`;
          }
        }
      }
      return undefined;
    }, showWorld);
  });
});

// ---------------------------------------------------------------- a live cluster

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: registry.k8s.io/e2e-test-images/agnhost:2.53
          args: [serve-hostname]
          ports:
            - name: http
              containerPort: 9376
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  type: NodePort
  selector:
    app: web
  ports:
    - name: http
      port: 80
      targetPort: http
---
apiVersion: v1
kind: Service
metadata:
  name: web-headless
spec:
  clusterIP: None
  selector:
    app: web
  ports:
    - name: http
      port: 80
      targetPort: http
---
apiVersion: v1
kind: Service
metadata:
  name: docs
spec:
  type: ExternalName
  externalName: kubernetes.io
`;

const LAZY = `apiVersion: v1
kind: Pod
metadata:
  name: lazy
  labels:
    app: web
spec:
  containers:
    - name: lazy
      image: ghcr.io/inside-cp/never-ready
      ports:
        - name: http
          containerPort: 9376
      readinessProbe:
        httpGet:
          path: /ready
          port: 9376
        periodSeconds: 5
`;

async function kubectl(cluster: ReturnType<typeof createCluster>, args: string, stdin?: string): Promise<string> {
  const r = await cluster.kubectl(args, stdin === undefined ? undefined : { stdin });
  if (r.exitCode !== 0) throw new Error(`kubectl ${args} failed: ${r.stderr}`);
  return r.stdout;
}

/** Reads Services and EndpointSlices as a kube-proxy would, asks the learner, and compares with the node's installed rules. */
async function compareWithNode(cluster: ReturnType<typeof createCluster>, story: string): Promise<Rules[]> {
  const services = (JSON.parse(await kubectl(cluster, 'get services -A -o json')) as { items: Service[] }).items;
  const slices = (JSON.parse(await kubectl(cluster, 'get endpointslices -A -o json')) as { items: EndpointSlice[] }).items;
  const installed = fromRules(cluster.internals.components.network.rulesOf('worker-1'));
  const got = callSync(services, slices);
  expect(
    got,
    `${story}\nThe cluster's objects (kubectl get services,endpointslices -A -o json):\n${describeInput(services, slices)}\n` +
      `kube-proxy on worker-1 installed:\n${showRules(installed)}\nyour syncProxyRules said:\n${showRules(got)}\n`,
  ).toEqual(installed);
  return got;
}

describe('a live cluster: your rules against the ones kube-proxy installed on the node', () => {
  it('a Deployment of three behind a NodePort Service, a headless Service and an ExternalName one', async () => {
    const cluster = createCluster({ seed: 8, topology: 'single-node', workers: 1 });
    await kubectl(cluster, 'apply -f -', DEPLOYMENT);
    await cluster.advance(20_000);
    const got = await compareWithNode(cluster, 'After `kubectl apply` of the Deployment web (3 replicas, port http 9376) and three Services, 20 s later:');
    const web = got.find((r) => r.servicePortName === 'default/web:http');
    expect(web?.endpoints.length, 'endpoints behind default/web:http').toBe(3);
    expect(got.some((r) => r.servicePortName.startsWith('default/web-headless') || r.servicePortName.startsWith('default/docs')), 'rules for the headless or ExternalName Service').toBe(false);
  });

  it('a Pod that is running but never ready stays out of the rules', async () => {
    const cluster = createCluster({ seed: 9, topology: 'single-node', workers: 1 });
    await kubectl(cluster, 'apply -f -', DEPLOYMENT);
    await kubectl(cluster, 'apply -f -', LAZY);
    await cluster.advance(25_000);
    const got = await compareWithNode(cluster, 'With the Deployment web and a Pod lazy (label app=web) whose readiness probe never passes, 25 s later:');
    expect(got.find((r) => r.servicePortName === 'default/web:http')?.endpoints.length, 'endpoints behind default/web:http').toBe(3);
  });

  it('scaled to zero: the Service port is rejected', async () => {
    const cluster = createCluster({ seed: 10, topology: 'single-node', workers: 1 });
    await kubectl(cluster, 'apply -f -', DEPLOYMENT);
    await cluster.advance(20_000);
    await kubectl(cluster, 'scale deployment web --replicas=0');
    await cluster.advance(40_000);
    const got = await compareWithNode(cluster, 'After scaling the Deployment web to 0 replicas and waiting 40 s:');
    expect(got.find((r) => r.servicePortName === 'default/web:http')?.action, 'default/web:http').toBe('REJECT');
  });
});
