// Each node's pod-network routes (routes.ts) and how ClusterNetwork forwards a packet for another
// node's pod along them: kindnetd's syncRoute semantics (add, replace a wrong gateway, leave the
// rest), longest-prefix lookup, a reboot's empty table, and the lost packet when a route is missing.
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Service } from '../api/index.ts';
import { createRng } from '../kernel/index.ts';
import { ClusterNetwork } from './data-plane.ts';
import { buildNatRules, servicePorts } from './iptables.ts';
import { RouteTables, routeLine } from './routes.ts';

describe('RouteTables (kindnetd syncRoute)', () => {
  it.each([
    ['a new destination is added', [], { dst: '10.244.9.0/24', via: '192.168.49.11' }, 'added', ['10.244.9.0/24 via 192.168.49.11 dev eth0']],
    ['the same route again changes nothing', [{ dst: '10.244.9.0/24', via: '192.168.49.11' }], { dst: '10.244.9.0/24', via: '192.168.49.11' }, 'unchanged', ['10.244.9.0/24 via 192.168.49.11 dev eth0']],
    ['a route through another gateway is replaced', [{ dst: '10.244.9.0/24', via: '192.168.49.12' }], { dst: '10.244.9.0/24', via: '192.168.49.11' }, 'replaced', ['10.244.9.0/24 via 192.168.49.11 dev eth0']],
    ['other destinations stay, listed by address', [{ dst: '10.244.10.0/24', via: '192.168.49.12' }], { dst: '10.244.9.0/24', via: '192.168.49.11' }, 'added', [
      '10.244.9.0/24 via 192.168.49.11 dev eth0', '10.244.10.0/24 via 192.168.49.12 dev eth0',
    ]],
  ] as const)('%s', (_name, before, route, change, after) => {
    const tables = new RouteTables();
    for (const r of before) tables.ensure('worker-1', r);
    expect(tables.ensure('worker-1', route)).toBe(change);
    expect(tables.routesOf('worker-1').map(routeLine)).toEqual(after);
    expect(tables.routesOf('worker-2')).toEqual([]);
  });

  it('looks up the longest prefix that holds the address, and nothing outside every route', () => {
    const tables = new RouteTables();
    tables.ensure('n', { dst: '10.244.0.0/16', via: '192.168.49.20' });
    tables.ensure('n', { dst: '10.244.9.0/24', via: '192.168.49.11' });
    expect(tables.lookup('n', '10.244.9.7')).toEqual({ dst: '10.244.9.0/24', via: '192.168.49.11' });
    expect(tables.lookup('n', '10.244.3.7')).toEqual({ dst: '10.244.0.0/16', via: '192.168.49.20' });
    expect(tables.lookup('n', '10.96.0.1')).toBeUndefined();
  });

  it('a reboot empties the node\'s table and only that one', () => {
    const tables = new RouteTables();
    tables.ensure('a', { dst: '10.244.9.0/24', via: '192.168.49.11' });
    tables.ensure('b', { dst: '10.244.8.0/24', via: '192.168.49.10' });
    tables.flush('a');
    expect(tables.routesOf('a')).toEqual([]);
    expect(tables.lookup('a', '10.244.9.7')).toBeUndefined();
    expect(tables.routesOf('b')).toHaveLength(1);
  });
});

describe('ClusterNetwork forwards packets for other nodes\' pods along the routes', () => {
  const NODE_A = '192.168.49.10';
  const NODE_B = '192.168.49.11';
  const NODE_C = '192.168.49.12';
  /** Three nodes, a pod on node-b, a cluster IP for it programmed on node-a; routes as given. */
  function network(routes: { on: string; dst: string; via: string }[]) {
    const net = new ClusterNetwork(createRng(7));
    net.attachNode('node-a', '10.244.8.0/24', NODE_A);
    const b = net.attachNode('node-b', '10.244.9.0/24', NODE_B);
    net.attachNode('node-c', '10.244.10.0/24', NODE_C);
    const podIP = b.setUpPod({ namespace: 'ns', name: 'web', uid: 'u1' })!;
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'ns' }, spec: { clusterIP: '10.96.0.10', ports: [{ name: 'http', port: 80 }] } } as Service;
    const slice: EndpointSlice = {
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-x', namespace: 'ns', labels: { 'kubernetes.io/service-name': 'web' } },
      addressType: 'IPv4', endpoints: [{ addresses: [podIP], nodeName: 'node-b', conditions: { ready: true } }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    };
    net.programRules('node-a', buildNatRules(servicePorts([svc], [slice], 'node-a')));
    for (const r of routes) net.ensureRoute(r.on, { dst: r.dst, via: r.via });
    return { net, podIP };
  }

  it('reaches another node\'s pod through the route, and reports it', () => {
    const { net, podIP } = network([{ on: 'node-a', dst: '10.244.9.0/24', via: NODE_B }]);
    expect(net.sendRequest('node-a', `${podIP}:8080`)).toMatchObject({
      ok: true, pod: { name: 'web', node: 'node-b' }, route: { node: 'node-a', route: `10.244.9.0/24 via ${NODE_B} dev eth0` },
    });
    // through the cluster IP: DNAT on node-a, then the same route
    expect(net.sendRequest('node-a', '10.96.0.10:80')).toMatchObject({ ok: true, targetPort: 8080, route: { node: 'node-a', route: `10.244.9.0/24 via ${NODE_B} dev eth0` } });
  });

  it('a pod on the sending node needs no route', () => {
    const { net, podIP } = network([]);
    const r = net.sendRequest('node-b', `${podIP}:8080`);
    expect(r).toMatchObject({ ok: true, pod: { node: 'node-b' } });
    expect(r).not.toHaveProperty('route');
  });

  it('without a route to the pod\'s podCIDR the packet is lost, and the result says why', () => {
    const { net, podIP } = network([{ on: 'node-a', dst: '10.244.10.0/24', via: NODE_C }]);
    for (const target of [`${podIP}:8080`, '10.96.0.10:80']) {
      expect(net.sendRequest('node-a', target)).toMatchObject({
        ok: false, error: `dial tcp ${target}: i/o timeout`,
        reason: 'node-a has no route to 10.244.9.0/24 (node-b\'s podCIDR): kindnet adds it while it runs on node-a; the packet left by the default route via 192.168.49.1 and was dropped',
      });
    }
  });

  it('where the machines\' gateway routes the podCIDRs, a node without the route reaches the pod through its default route', () => {
    const net = new ClusterNetwork(createRng(7), { gatewayRoutesPodCIDRs: true });
    net.attachNode('node-a', '10.244.8.0/24', NODE_A);
    const podIP = net.attachNode('node-b', '10.244.9.0/24', NODE_B).setUpPod({ namespace: 'ns', name: 'web', uid: 'u1' })!;
    expect(net.sendRequest('node-a', `${podIP}:8080`)).toMatchObject({ ok: true, pod: { node: 'node-b' }, route: { node: 'node-a', route: 'default via 192.168.49.1 dev eth0' } });
    // a node's own route still wins
    net.ensureRoute('node-a', { dst: '10.244.9.0/24', via: NODE_B });
    expect(net.sendRequest('node-a', `${podIP}:8080`)).toMatchObject({ ok: true, route: { route: `10.244.9.0/24 via ${NODE_B} dev eth0` } });
  });

  it('a route whose gateway is not the pod\'s node loses the packet', () => {
    const { net, podIP } = network([{ on: 'node-a', dst: '10.244.9.0/24', via: NODE_C }]);
    expect(net.sendRequest('node-a', `${podIP}:8080`)).toMatchObject({
      ok: false, error: `dial tcp ${podIP}:8080: i/o timeout`, reason: `node-a routes 10.244.9.0/24 via ${NODE_C} (node-c), but ${podIP} is on node-b`,
    });
  });

  it('pod to pod: the request needs the sender\'s node\'s route there, the answer the pod\'s node\'s route back', () => {
    const { net, podIP } = network([{ on: 'node-a', dst: '10.244.9.0/24', via: NODE_B }]);
    const client = net.attachNode('node-a', '10.244.8.0/24').setUpPod({ namespace: 'ns', name: 'client', uid: 'u2' })!;
    for (const target of [`${podIP}:8080`, '10.96.0.10:80']) {
      expect(net.sendPodRequest(client, target)).toMatchObject({
        ok: false, error: `dial tcp ${target}: i/o timeout`,
        reason: `the answer from ${podIP} is lost: node-b has no route to 10.244.8.0/24 (node-a's podCIDR): kindnet adds it while it runs on node-b; the packet left by the default route via 192.168.49.1 and was dropped`,
      });
    }
    net.ensureRoute('node-b', { dst: '10.244.8.0/24', via: NODE_A });
    // no masquerading between pods: the answering pod sees the client pod's address
    expect(net.sendPodRequest(client, '10.96.0.10:80')).toMatchObject({ ok: true, clientIP: client, pod: { name: 'web' }, route: { node: 'node-a', route: `10.244.9.0/24 via ${NODE_B} dev eth0` } });
    expect(net.sendPodRequest('10.244.8.250', `${podIP}:8080`)).toMatchObject({ ok: false, error: `dial tcp ${podIP}:8080: no pod has the address 10.244.8.250` });
  });

  it('ip route lists the default route, then the pod routes; a reboot leaves the default only', () => {
    const { net } = network([{ on: 'node-a', dst: '10.244.10.0/24', via: NODE_C }, { on: 'node-a', dst: '10.244.9.0/24', via: NODE_B }]);
    expect(net.ipRoute('node-a').split('\n')).toEqual([
      'default via 192.168.49.1 dev eth0', `10.244.9.0/24 via ${NODE_B} dev eth0`, `10.244.10.0/24 via ${NODE_C} dev eth0`,
    ]);
    net.flushRoutes('node-a');
    expect(net.ipRoute('node-a')).toBe('default via 192.168.49.1 dev eth0');
  });
});
