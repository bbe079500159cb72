// kube-proxy's rules for traffic from outside (node ports, load balancer IPs) and the packet
// walks through them. Expected texts follow pkg/proxy/iptables/proxier_test.go (TestOverallIPTablesRules,
// TestNoEndpointsReject, TestExternalTrafficPolicyLocal...) in iptables-save's own argument order.
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../api/index.ts';
import { createRng } from '../kernel/index.ts';
import { ClusterNetwork, EXTERNAL_CLIENT_IP } from './data-plane.ts';
import { buildNatRules, renderRule, servicePorts, type IptablesRule } from './iptables.ts';
import { inCidr } from './packet-walk.ts';

interface SvcOptions {
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer';
  nodePort?: number;
  lbIP?: string;
  local?: boolean;
}

function service(ns: string, name: string, clusterIP: string, o: SvcOptions = {}): Service {
  return {
    apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns },
    spec: {
      type: o.type ?? 'NodePort', clusterIP, ports: [{ name: 'p80', port: 80, protocol: 'TCP', ...(o.nodePort ? { nodePort: o.nodePort } : {}) }],
      ...(o.local ? { externalTrafficPolicy: 'Local' as const } : {}),
    },
    ...(o.lbIP ? { status: { loadBalancer: { ingress: [{ ip: o.lbIP }] } } } : {}),
  } as Service;
}

function slice(ns: string, svc: string, endpoints: { ip: string; node: string; ready?: boolean }[]): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: `${svc}-x`, namespace: ns, labels: { 'kubernetes.io/service-name': svc } },
    addressType: 'IPv4',
    endpoints: endpoints.map((e) => ({ addresses: [e.ip], nodeName: e.node, conditions: { ready: e.ready ?? true } })),
    ports: [{ name: 'p80', port: 80, protocol: 'TCP' }],
  };
}

const rulesFor = (svcs: Service[], slices: EndpointSlice[], node: string, clusterCIDR?: string): IptablesRule[] =>
  buildNatRules(servicePorts(svcs, slices, node), clusterCIDR ? { clusterCIDR } : {});
const text = (rules: IptablesRule[], chainPrefix: string): string[] => rules.filter((r) => r.chain.startsWith(chainPrefix)).map(renderRule);

describe('kube-proxy rules for node ports and load balancer IPs (syncProxyRules)', () => {
  it('NodePort, externalTrafficPolicy Cluster: KUBE-NODEPORTS -> KUBE-EXT (masquerade) -> KUBE-SVC', () => {
    const rules = rulesFor([service('ns3', 'svc3', '172.30.0.43', { nodePort: 3003 })], [slice('ns3', 'svc3', [{ ip: '10.180.0.3', node: 'other' }])], 'node-a');
    expect(text(rules, 'KUBE-NODEPORTS')).toEqual([
      '-A KUBE-NODEPORTS -p tcp -m comment --comment ns3/svc3:p80 -m tcp --dport 3003 -j KUBE-EXT-X27LE4BHSL4DOUIK',
    ]);
    expect(text(rules, 'KUBE-EXT-')).toEqual([
      '-A KUBE-EXT-X27LE4BHSL4DOUIK -m comment --comment "masquerade traffic for ns3/svc3:p80 external destinations" -j KUBE-MARK-MASQ',
      '-A KUBE-EXT-X27LE4BHSL4DOUIK -j KUBE-SVC-X27LE4BHSL4DOUIK',
    ]);
    expect(text(rules, 'KUBE-SERVICES').at(-1)).toBe(
      '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
    );
    expect(text(rules, 'KUBE-SVC-X27LE4BHSL4DOUIK')).toEqual([
      '-A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 -> 10.180.0.3:80" -j KUBE-SEP-OYPFS5VJICHGATKP',
    ]);
  });

  it('LoadBalancer: the ingress IP jumps to KUBE-EXT from KUBE-SERVICES, before the node ports jump', () => {
    const rules = rulesFor([service('ns5', 'svc5', '172.30.0.45', { type: 'LoadBalancer', nodePort: 3002, lbIP: '5.6.7.8' })], [slice('ns5', 'svc5', [{ ip: '10.180.0.3', node: 'x' }])], 'node-a');
    expect(text(rules, 'KUBE-SERVICES')).toEqual([
      '-A KUBE-SERVICES -d 172.30.0.45/32 -p tcp -m comment --comment "ns5/svc5:p80 cluster IP" -m tcp --dport 80 -j KUBE-SVC-NUKIZ6OKUXPJNT4C',
      '-A KUBE-SERVICES -d 5.6.7.8/32 -p tcp -m comment --comment "ns5/svc5:p80 loadbalancer IP" -m tcp --dport 80 -j KUBE-EXT-NUKIZ6OKUXPJNT4C',
      '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
    ]);
    expect(text(rules, 'KUBE-NODEPORTS')).toEqual(['-A KUBE-NODEPORTS -p tcp -m comment --comment ns5/svc5:p80 -m tcp --dport 3002 -j KUBE-EXT-NUKIZ6OKUXPJNT4C']);
  });

  it('externalTrafficPolicy Local with a local endpoint: pod and LOCAL traffic to KUBE-SVC, the rest to KUBE-SVL (local endpoints only)', () => {
    const svc = service('ns2', 'svc2', '172.30.0.42', { type: 'LoadBalancer', nodePort: 3001, lbIP: '1.2.3.4', local: true });
    const eps = slice('ns2', 'svc2', [{ ip: '10.180.0.2', node: 'node-a' }, { ip: '10.180.1.2', node: 'node-b' }]);
    const rules = rulesFor([svc], [eps], 'node-a', '10.0.0.0/8');
    expect(text(rules, 'KUBE-EXT-')).toEqual([
      '-A KUBE-EXT-GNZBNJ2PO5MGZ6GT -s 10.0.0.0/8 -m comment --comment "pod traffic for ns2/svc2:p80 external destinations" -j KUBE-SVC-GNZBNJ2PO5MGZ6GT',
      '-A KUBE-EXT-GNZBNJ2PO5MGZ6GT -m comment --comment "masquerade LOCAL traffic for ns2/svc2:p80 external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ',
      '-A KUBE-EXT-GNZBNJ2PO5MGZ6GT -m comment --comment "route LOCAL traffic for ns2/svc2:p80 external destinations" -m addrtype --src-type LOCAL -j KUBE-SVC-GNZBNJ2PO5MGZ6GT',
      '-A KUBE-EXT-GNZBNJ2PO5MGZ6GT -j KUBE-SVL-GNZBNJ2PO5MGZ6GT',
    ]);
    expect(text(rules, 'KUBE-SVL-')).toEqual([
      '-A KUBE-SVL-GNZBNJ2PO5MGZ6GT -m comment --comment "ns2/svc2:p80 -> 10.180.0.2:80" -j KUBE-SEP-RS4RBKLTHTF2IUXJ',
    ]);
    expect(text(rules, 'KUBE-SVC-GNZBNJ2PO5MGZ6GT')).toHaveLength(2); // every endpoint for cluster IP traffic
    expect(rules.filter((r) => r.table === 'filter')).toEqual([]);
  });

  it('externalTrafficPolicy Local with no local endpoint: no KUBE-SVL jump, and the filter table drops outside traffic', () => {
    const svc = service('ns2', 'svc2', '172.30.0.42', { type: 'LoadBalancer', nodePort: 3001, lbIP: '1.2.3.4', local: true });
    const rules = rulesFor([svc], [slice('ns2', 'svc2', [{ ip: '10.180.1.2', node: 'node-b' }])], 'node-a');
    expect(text(rules, 'KUBE-EXT-').at(-1)).toContain('route LOCAL traffic');
    expect(text(rules, 'KUBE-SVL-')).toEqual([]);
    expect(rules.filter((r) => r.table === 'filter').map(renderRule)).toEqual([
      '-A KUBE-EXTERNAL-SERVICES -d 1.2.3.4/32 -p tcp -m comment --comment "ns2/svc2:p80 has no local endpoints" -m tcp --dport 80 -j DROP',
      '-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "ns2/svc2:p80 has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 3001 -j DROP',
    ]);
  });

  it('no endpoints at all: REJECT for the cluster IP, the load balancer IP and the node port', () => {
    const svc = service('ns1', 'svc1', '172.30.0.41', { type: 'LoadBalancer', nodePort: 3001, lbIP: '1.2.3.4' });
    const rules = rulesFor([svc], [], 'node-a');
    expect(rules.filter((r) => r.table === 'filter').map(renderRule)).toEqual([
      '-A KUBE-SERVICES -d 172.30.0.41/32 -p tcp -m comment --comment "ns1/svc1:p80 has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable',
      '-A KUBE-EXTERNAL-SERVICES -d 1.2.3.4/32 -p tcp -m comment --comment "ns1/svc1:p80 has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable',
      '-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "ns1/svc1:p80 has no endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 3001 -j REJECT --reject-with icmp-port-unreachable',
    ]);
    expect(text(rules, 'KUBE-NODEPORTS')).toEqual([]);
  });

  it('a ClusterIP Service, or a Local one of type ClusterIP, gets no external chain', () => {
    const rules = rulesFor([service('ns1', 'svc1', '172.30.0.41', { type: 'ClusterIP', local: true })], [slice('ns1', 'svc1', [{ ip: '10.180.0.1', node: 'node-a' }])], 'node-a');
    expect(text(rules, 'KUBE-EXT-')).toEqual([]);
    expect(text(rules, 'KUBE-SVL-')).toEqual([]);
  });
});

describe('inCidr', () => {
  it.each([
    ['10.244.3.7', '10.244.0.0/16', true],
    ['10.245.3.7', '10.244.0.0/16', false],
    ['1.2.3.4', '1.2.3.4/32', true],
    ['1.2.3.5', '1.2.3.4/32', false],
    ['8.8.8.8', '0.0.0.0/0', true],
    ['not-an-ip', '0.0.0.0/0', false],
  ])('%s in %s is %s', (ip, cidr, inside) => expect(inCidr(ip, cidr)).toBe(inside));
});

describe('packets to a node port or a load balancer IP (runPacketFlowTests)', () => {
  const NODE_A = '192.168.49.10', NODE_B = '192.168.49.11';

  /** Two nodes routed to each other; svc "web" (NodePort 30080) has pods a1, a2 on node-a; svc "lb" (LoadBalancer, Local) has one pod on node-b. */
  function cluster(o: { webLocal?: boolean; webEndpoints?: boolean } = {}) {
    const network = new ClusterNetwork(createRng(5));
    const a = network.attachNode('node-a', '10.244.8.0/24', NODE_A);
    const b = network.attachNode('node-b', '10.244.9.0/24', NODE_B);
    const a1 = a.setUpPod({ namespace: 'ns', name: 'a1', uid: 'a1' })!;
    const a2 = a.setUpPod({ namespace: 'ns', name: 'a2', uid: 'a2' })!;
    const b1 = b.setUpPod({ namespace: 'ns', name: 'b1', uid: 'b1' })!;
    const svcs = [
      service('ns', 'web', '10.96.0.50', { nodePort: 30080, local: o.webLocal ?? false }),
      service('ns', 'lb', '10.96.0.60', { type: 'LoadBalancer', nodePort: 30090, lbIP: '203.0.113.9', local: true }),
    ];
    const slices = [
      slice('ns', 'web', o.webEndpoints === false ? [] : [{ ip: a1, node: 'node-a' }, { ip: a2, node: 'node-a' }]),
      slice('ns', 'lb', [{ ip: b1, node: 'node-b' }]),
    ];
    for (const node of ['node-a', 'node-b']) network.programRules(node, rulesFor(svcs, slices, node, '10.244.0.0/16'));
    // each node's route to the other's podCIDR, as kindnet programs them
    network.ensureRoute('node-a', { dst: '10.244.9.0/24', via: NODE_B });
    network.ensureRoute('node-b', { dst: '10.244.8.0/24', via: NODE_A });
    return network;
  }

  it('an outside client reaches a pod through any node IP; with policy Cluster the pod sees the node as client', () => {
    const r = cluster().sendExternalRequest(`${NODE_B}:30080`);
    if (!r.ok) throw new Error(r.error);
    expect(['a1', 'a2']).toContain(r.pod.name);
    expect(r.node).toBe('node-b');
    expect(r.clientIP).toBe(NODE_B);
    expect(r.chains).toEqual(['KUBE-SERVICES', 'KUBE-NODEPORTS', expect.stringMatching(/^KUBE-EXT-/), expect.stringMatching(/^KUBE-SVC-/), expect.stringMatching(/^KUBE-SEP-/)]);
    expect(r.rules[0]).toContain('-j KUBE-NODEPORTS');
    expect(r.rules[1]).toBe(`-A KUBE-NODEPORTS -p tcp -m comment --comment ns/web:p80 -m tcp --dport 30080 -j ${r.chains[2]!}`);
    expect(r.targetPort).toBe(80);
  });

  it('a process on one node reaches a node port on another node through that node\'s rules', () => {
    const r = cluster().sendRequest('node-a', `${NODE_B}:30080`);
    expect(r).toMatchObject({ ok: true, node: 'node-b' });
  });

  it('a process on a node reaches its own node port (dst-type LOCAL on the same node)', () => {
    const r = cluster().sendRequest('node-a', `${NODE_A}:30080`);
    expect(r).toMatchObject({ ok: true, node: 'node-a' });
  });

  it('policy Local keeps the client address and answers only on nodes with an endpoint', () => {
    const net = cluster({ webLocal: true });
    const onA = net.sendExternalRequest(`${NODE_A}:30080`);
    expect(onA).toMatchObject({ ok: true, clientIP: EXTERNAL_CLIENT_IP, node: 'node-a' });
    if (onA.ok) expect(onA.chains.some((c) => c.startsWith('KUBE-SVL-'))).toBe(true);
    const onB = net.sendExternalRequest(`${NODE_B}:30080`);
    expect(onB).toMatchObject({ ok: false, error: `dial tcp ${NODE_B}:30080: i/o timeout`, node: 'node-b' });
    if (!onB.ok) expect(onB.rules.at(-1)).toContain('has no local endpoints');
    // a process on node-b is LOCAL traffic: it is routed to any endpoint, masqueraded
    expect(net.sendRequest('node-b', `${NODE_B}:30080`)).toMatchObject({ ok: true, clientIP: NODE_B });
  });

  it('a node port without endpoints refuses the connection; a port nobody uses refuses it too', () => {
    const net = cluster({ webEndpoints: false });
    expect(net.sendExternalRequest(`${NODE_A}:30080`)).toMatchObject({ ok: false, error: `dial tcp ${NODE_A}:30080: connect: connection refused` });
    const unused = net.sendExternalRequest(`${NODE_A}:31999`);
    expect(unused).toMatchObject({ ok: false, error: `dial tcp ${NODE_A}:31999: connect: connection refused`, chains: ['KUBE-SERVICES', 'KUBE-NODEPORTS'] });
  });

  it('a load balancer IP from outside lands on a node whose health check passes (the one with the Local endpoint)', () => {
    const net = cluster();
    for (let i = 0; i < 20; i++) {
      const r = net.sendExternalRequest('203.0.113.9:80');
      expect(r).toMatchObject({ ok: true, node: 'node-b', clientIP: EXTERNAL_CLIENT_IP, pod: { name: 'b1' } });
    }
    // through a node without an endpoint (as a load balancer that ignores health checks would) it is dropped
    expect(net.sendExternalRequest('203.0.113.9:80', { viaNode: 'node-a' })).toMatchObject({ ok: false, error: 'dial tcp 203.0.113.9:80: i/o timeout' });
  });

  it('a load balancer IP from inside the cluster is caught by the sending node\'s own rules', () => {
    const r = cluster().sendRequest('node-a', '203.0.113.9:80');
    expect(r).toMatchObject({ ok: true, node: 'node-a', pod: { name: 'b1' } });
    if (r.ok) expect(r.rules[0]).toContain('"ns/lb:p80 loadbalancer IP"');
  });

  it('an address nobody serves has no route', () => {
    expect(cluster().sendExternalRequest('203.0.113.200:80')).toMatchObject({ ok: false, error: 'dial tcp 203.0.113.200:80: connect: no route to host' });
  });

  it('iptables-save prints the filter table, then nat', () => {
    const save = cluster({ webEndpoints: false }).iptablesSave('node-a');
    const lines = save.split('\n');
    expect(lines[0]).toBe('*filter');
    expect(lines).toContain('*nat');
    expect(lines.indexOf('*filter')).toBeLessThan(lines.indexOf('*nat'));
    expect(save).toContain('-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "ns/web:p80 has no endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 30080 -j REJECT');
  });
});
