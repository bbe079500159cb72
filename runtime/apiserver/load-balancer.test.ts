// The replica-on-the-network and the load balancer, spoken to in their wire protocol by a bare
// endpoint: connections pinned to a replica and spread round robin, redispatch away from a dead
// replica, health checks that cut connections, numbered watch streams, and what a client sees when
// no replica is left.
import { describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../kernel/index.ts';
import { startLoadBalancer, type LoadBalancer } from './load-balancer.ts';
import { startApiServerReplica, type ApiServerReplica, type ApiWireMessage } from './server.ts';
import { createInMemoryEtcd } from './testing/mvcc-etcd-client.ts';

const ADMIN = { clientCert: { commonName: 'kubernetes-admin', organizations: ['system:masters'] } };

interface Rig {
  kernel: Kernel;
  replicas: ApiServerReplica[];
  lb: LoadBalancer;
  inbox: ApiWireMessage[];
  send(msg: ApiWireMessage): void;
}

function rig(): Rig {
  const kernel = createKernel({ seed: 3 });
  const clock = { now: () => kernel.now(), setTimer: (ms: number, fn: () => void) => kernel.setTimer(ms, fn) };
  const etcd = createInMemoryEtcd({ clock });
  const replicas = ['apiserver-a', 'apiserver-b'].map((name) => startApiServerReplica(kernel, { name, etcdClient: () => etcd.client }));
  const lb = startLoadBalancer(kernel, { name: 'lb', backends: ['apiserver-a', 'apiserver-b'] });
  kernel.runUntil(() => replicas.every((r) => r.current()?.isReady === true), 1_000_000);
  const inbox: ApiWireMessage[] = [];
  kernel.net.register<ApiWireMessage>('client', (m) => inbox.push(m));
  return { kernel, replicas, lb, inbox, send: (msg) => kernel.send('client', 'lb', msg) };
}

const version = (id: number, conn?: number): ApiWireMessage =>
  ({ type: 'api.request', id, req: { verb: 'get', path: '/version' }, ...(conn === undefined ? {} : { conn }) });
const served = (inbox: ApiWireMessage[]): (string | undefined)[] =>
  inbox.flatMap((m) => (m.type === 'api.response' ? [m.servedBy] : []));

describe('load balancer', () => {
  it('spreads connections round robin and relays each answer to its own request id', () => {
    const r = rig();
    for (let id = 1; id <= 4; id++) r.send(version(id, id));
    r.kernel.runFor(50);
    expect(r.inbox.map((m) => m.id).sort()).toEqual([1, 2, 3, 4]);
    expect(served(r.inbox).sort()).toEqual(['apiserver-a', 'apiserver-a', 'apiserver-b', 'apiserver-b']);
  });

  it('sends every request of one connection to the replica it was opened to (mode tcp)', () => {
    const r = rig();
    for (let id = 1; id <= 6; id++) r.send(version(id, id <= 3 ? 1 : 2));
    r.kernel.runFor(50);
    const byId = new Map(r.inbox.flatMap((m) => (m.type === 'api.response' ? [[m.id, m.servedBy] as const] : [])));
    expect(new Set([1, 2, 3].map((id) => byId.get(id))).size).toBe(1);
    expect(new Set([4, 5, 6].map((id) => byId.get(id))).size).toBe(1);
    expect(byId.get(1)).not.toBe(byId.get(4));
    // the same connection number from another client is another connection: it takes the next turn
    // of the round robin, and the first client's connection stays where it was
    const pinnedConn1 = byId.get(1)!;
    r.kernel.net.register<ApiWireMessage>('client-2', (m) => r.inbox.push(m));
    r.kernel.send('client-2', 'lb', version(7, 1));
    r.kernel.runFor(50);
    r.send(version(8, 1));
    r.kernel.runFor(50);
    const later = new Map(r.inbox.flatMap((m) => (m.type === 'api.response' ? [[m.id, m.servedBy] as const] : [])));
    expect(later.get(8)).toBe(pinnedConn1);
    expect(later.get(7)).toBeDefined();
  });

  it('forgets a connection its client closed (a kubectl run that exited)', () => {
    const r = rig();
    r.send(version(1, 7));
    r.kernel.runFor(50);
    const backend = served(r.inbox)[0]!;
    expect(r.lb.pinnedClients(backend)).toEqual(['client']);
    r.send({ type: 'api.conn.close', id: 7 });
    r.kernel.runFor(50);
    expect(r.lb.pinnedClients(backend)).toEqual([]);
    // the replica itself ignores the message, and the client's next connection is pinned again
    r.send(version(2, 8));
    r.kernel.runFor(50);
    expect(r.inbox.filter((m) => m.type === 'api.response')).toHaveLength(2);
  });

  it('moves a connection whose replica process is gone, and keeps it there once it is back', () => {
    const r = rig();
    r.send(version(1, 5));
    r.kernel.runFor(50);
    const first = served(r.inbox)[0]!;
    r.replicas[first === 'apiserver-a' ? 0 : 1]!.stop();
    r.send(version(2, 5));
    r.kernel.runFor(50);
    const second = served(r.inbox)[1]!;
    expect(second).not.toBe(first);
    r.replicas[first === 'apiserver-a' ? 0 : 1]!.start();
    r.kernel.runFor(20_000);
    r.send(version(3, 5));
    r.kernel.runFor(50);
    expect(served(r.inbox)[2]).toBe(second);
  });

  it('redispatches away from a replica whose process is gone, before any health check notices', () => {
    const r = rig();
    r.replicas[0]!.stop();
    for (let id = 1; id <= 4; id++) r.send(version(id));
    r.kernel.runFor(50);
    expect(served(r.inbox)).toEqual(['apiserver-b', 'apiserver-b', 'apiserver-b', 'apiserver-b']);
  });

  it('cuts requests and streams pinned to a replica its health checks find unreachable', () => {
    const r = rig();
    r.kernel.net.partition([['lb', 'client', 'apiserver-b'], ['apiserver-a']]);
    for (let id = 1; id <= 2; id++) r.send(version(id, id)); // one connection lands on the cut-off replica
    r.kernel.runFor(10_000);
    expect(r.lb.healthyBackends()).toEqual(['apiserver-b']);
    const failure = r.inbox.find((m) => m.type === 'api.failure');
    expect(failure).toEqual({ type: 'api.failure', id: expect.any(Number), error: 'read: connection reset by peer' });
    expect(served(r.inbox)).toEqual(['apiserver-b']);
    r.kernel.net.heal();
    r.kernel.runFor(10_000);
    expect(r.lb.healthyBackends()).toEqual(['apiserver-a', 'apiserver-b']);
  });

  it('numbers the events of a watch stream and closes it with a transport error when its replica dies', () => {
    const r = rig();
    r.send({ type: 'api.watch', id: 7, req: { verb: 'watch', resource: 'namespaces', credentials: ADMIN, query: { resourceVersion: '0' } } });
    r.kernel.runFor(50);
    const events = r.inbox.filter((m) => m.type === 'api.watch.event');
    // the 4 system namespaces; network jitter may reorder them, the numbers let the client undo it
    expect(events.map((m) => (m.type === 'api.watch.event' ? m.seq : 0)).sort()).toEqual([1, 2, 3, 4]);
    r.replicas[0]!.stop();
    r.replicas[1]!.stop();
    r.kernel.runFor(10_000);
    expect(r.inbox.at(-1)).toEqual({ type: 'api.watch.close', id: 7, transportError: 'read: connection reset by peer' });
    r.send(version(8));
    r.kernel.runFor(50);
    expect(r.inbox.at(-1)).toEqual({ type: 'api.failure', id: 8, error: 'EOF' });
  });

  it('answers a ping end to end with the replica\'s last sequence number, and "not alive" for unknown streams', () => {
    const r = rig();
    r.send({ type: 'api.watch', id: 9, req: { verb: 'watch', resource: 'namespaces', credentials: ADMIN, query: { resourceVersion: '0' } } });
    r.kernel.runFor(50);
    r.send({ type: 'api.ping', id: 9 });
    r.send({ type: 'api.ping', id: 99 });
    r.kernel.runFor(50);
    const pongs = r.inbox.filter((m) => m.type === 'api.pong');
    expect(pongs).toContainEqual({ type: 'api.pong', id: 9, alive: true, lastSeq: 4 });
    expect(pongs).toContainEqual({ type: 'api.pong', id: 99, alive: false });
  });
});

describe('load balancer stream order', () => {
  it("relays a stream's events that arrive after its close, as its TCP connection would have", () => {
    const kernel = createKernel({ seed: 4 });
    // a replica whose close overtakes the event it sent first (the simulated network may reorder)
    kernel.net.register<ApiWireMessage>('replica', (m, from) => {
      if (m.type === 'api.request') kernel.send('replica', from, { type: 'api.response', id: m.id, code: 200, bodyJson: '"ok"' } satisfies ApiWireMessage);
      if (m.type !== 'api.watch') return;
      kernel.send('replica', from, { type: 'api.watch.close', id: m.id, seq: 2 } as ApiWireMessage);
      kernel.setTimer(5, () => kernel.send('replica', from, { type: 'api.watch.event', id: m.id, seq: 1, eventJson: '{}' } as ApiWireMessage));
    });
    startLoadBalancer(kernel, { name: 'lb', backends: ['replica'] });
    kernel.runFor(2_000);
    const inbox: ApiWireMessage[] = [];
    kernel.net.register<ApiWireMessage>('client', (m) => inbox.push(m));
    kernel.send('client', 'lb', { type: 'api.watch', id: 1, req: { verb: 'watch', resource: 'namespaces', credentials: ADMIN } });
    kernel.runFor(100);
    expect(inbox.map((m) => `${m.type} ${'seq' in m ? m.seq : ''}`).sort()).toEqual(['api.watch.close 2', 'api.watch.event 1']);
  });
});

describe('replica on the network', () => {
  it('answers a malformed body with 400 and rebuilds its pipeline on restart', () => {
    const r = rig();
    r.kernel.send('client', 'apiserver-a', { type: 'api.request', id: 1, req: { verb: 'create', resource: 'namespaces', credentials: ADMIN, bodyJson: '{nope' } } satisfies ApiWireMessage);
    r.kernel.runFor(20);
    const res = r.inbox[0];
    expect(res?.type === 'api.response' && res.code).toBe(400);
    const before = r.replicas[0]!.current();
    r.replicas[0]!.stop();
    expect(r.replicas[0]!.current()).toBeUndefined();
    r.replicas[0]!.start();
    expect(r.replicas[0]!.current()).not.toBe(before);
  });
});
