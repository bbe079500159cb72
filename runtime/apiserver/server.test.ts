// A replica on the network, spoken to in its wire protocol: what its answers carry as text, and
// what it writes to the trace for each request.
import { describe, expect, it } from 'vitest';
import { createKernel } from '../kernel/index.ts';
import { startApiServerReplica, type ApiWireMessage } from './server.ts';
import { createInMemoryEtcd } from './testing/mvcc-etcd-client.ts';

const ADMIN = { clientCert: { commonName: 'kubernetes-admin', organizations: ['system:masters'] } };

function rig() {
  const kernel = createKernel({ seed: 5 });
  const clock = { now: () => kernel.now(), setTimer: (ms: number, fn: () => void) => kernel.setTimer(ms, fn) };
  const etcd = createInMemoryEtcd({ clock });
  const replica = startApiServerReplica(kernel, { name: 'apiserver-a', etcdClient: () => etcd.client });
  kernel.runUntil(() => replica.current()?.isReady === true, 1_000_000);
  const inbox: ApiWireMessage[] = [];
  kernel.net.register<ApiWireMessage>('client', (m) => inbox.push(m));
  let nextId = 1;
  const call = (req: Extract<ApiWireMessage, { type: 'api.request' }>['req']): Extract<ApiWireMessage, { type: 'api.response' }> => {
    const id = nextId++;
    kernel.send('client', 'apiserver-a', { type: 'api.request', id, req: { credentials: ADMIN, ...req } });
    kernel.runFor(100);
    const res = inbox.find((m) => m.type === 'api.response' && m.id === id);
    if (res?.type !== 'api.response') throw new Error(`no answer to request ${id}`);
    return res;
  };
  return { kernel, call };
}

const node = (labels: Record<string, string>) => JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels } });

describe('API server replica on the wire', () => {
  it('a node read from the watch cache again and again is answered with its current text each time', () => {
    const { call } = rig();
    expect(call({ verb: 'create', resource: 'nodes', bodyJson: node({ a: '1' }) }).code).toBe(201);
    const getCached = () => call({ verb: 'get', resource: 'nodes', name: 'n1', query: { resourceVersion: '0' } });
    const first = getCached();
    const second = getCached();
    expect(first.code).toBe(200);
    expect(second.bodyJson).toBe(first.bodyJson);
    expect(JSON.parse(first.bodyJson).metadata.labels).toEqual({ a: '1' });
    const current = JSON.parse(first.bodyJson);
    current.metadata.labels = { a: '2' };
    expect(call({ verb: 'update', resource: 'nodes', name: 'n1', bodyJson: JSON.stringify(current) }).code).toBe(200);
    const after = JSON.parse(getCached().bodyJson);
    expect(after.metadata.labels).toEqual({ a: '2' });
    expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(current.metadata.resourceVersion));
    // an answer from etcd (no resourceVersion) says the same
    expect(JSON.parse(call({ verb: 'get', resource: 'nodes', name: 'n1' }).bodyJson)).toEqual(after);
  });

  it('a watch-cache read carries the cached frozen object beside its text, exactly what the text parses to', () => {
    const { call } = rig();
    call({ verb: 'create', resource: 'nodes', bodyJson: node({ a: '1' }) });
    const cached = call({ verb: 'get', resource: 'nodes', name: 'n1', query: { resourceVersion: '0' } });
    expect(Object.isFrozen(cached.frozenBody)).toBe(true);
    expect(cached.frozenBody).toEqual(JSON.parse(cached.bodyJson));
    // from etcd, and the answer to a write that changed something: a fresh object, sent only as text
    expect(call({ verb: 'get', resource: 'nodes', name: 'n1' }).frozenBody).toBeUndefined();
    const changed = { ...JSON.parse(cached.bodyJson), spec: { unschedulable: true } };
    expect(call({ verb: 'update', resource: 'nodes', name: 'n1', bodyJson: JSON.stringify(changed) }).frozenBody).toBeUndefined();
    // an update that changes nothing answers with the object as it is, the cache's shared one
    const current = call({ verb: 'get', resource: 'nodes', name: 'n1', query: { resourceVersion: '0' } });
    const noop = call({ verb: 'update', resource: 'nodes', name: 'n1', bodyJson: current.bodyJson });
    expect(noop.frozenBody).toEqual(JSON.parse(noop.bodyJson));
  });

  it('traces each request with its verb, URI and code', () => {
    const { kernel, call } = rig();
    call({ verb: 'get', resource: 'pods', namespace: 'default', name: 'web', query: { resourceVersion: '0' } });
    call({ verb: 'list', group: 'apps', resource: 'deployments', query: { labelSelector: 'app=web' } });
    const lines = kernel.trace.events().filter((e) => e.kind === 'apiserver.request').map((e) => e.detail).slice(-2);
    expect(lines).toEqual([
      'get /api/v1/namespaces/default/pods/web?resourceVersion=0 404',
      'list /apis/apps/v1/deployments?labelSelector=app%3Dweb 200',
    ]);
  });
});
