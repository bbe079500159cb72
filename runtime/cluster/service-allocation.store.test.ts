// The Service allocators settled by the etcd write itself, through the real API server handlers:
// two replicas over one in-memory etcd, whose writes to one Service key can be made to fail. After
// every scenario the allocator state must be exactly what the stored Services hold: the IPAddress
// objects are the Services' cluster IPs and the node port bitmap the Services' node ports, so a
// write that failed, lost a race or was retried leaked nothing, and a failed delete gave nothing
// back early. mirrors the intent of pkg/registry/core/service/storage/storage_test.go
// (TestCreateTransactional..., the FinishFunc tests) and the generic store's AfterDelete.
import { describe, expect, it } from 'vitest';
import type { IPAddress, KubeObject, Service } from '../api/index.ts';
import {
  ApiServer, createInMemoryEtcd, DEFAULT_ADMISSION_PLUGINS, rangeAllocationStorage, SERVICE_NODE_PORTS_KEY,
  type ApiRequest, type ApiResponse,
} from '../apiserver/index.ts';
import type { EtcdClient } from '../etcd/index.ts';
import { createKernel } from '../kernel/index.ts';
import { DEFAULT_NODE_PORT_RANGE, NodePortBitmap, ServiceIpRange } from '../network/index.ts';
import { serviceAllocation } from './service-allocation.ts';
import { ServiceIpAllocator } from './service-ips.ts';
import { nodePortsOf } from './service-node-ports.ts';

const ADMIN = { clientCert: { commonName: 'kubernetes-admin', organizations: ['system:masters'] } };
const WEB_KEY = '/registry/services/specs/default/web';

/** Two replicas over one etcd; `failWrites` makes every etcd txn on the web Service's key fail. */
function twoReplicas(seed: number) {
  const kernel = createKernel({ seed });
  const clock = { now: () => kernel.now(), setTimer: (ms: number, fn: () => void) => kernel.setTimer(ms, fn) };
  const etcd = createInMemoryEtcd({ clock });
  const faults = { failWrites: false };
  const failing: EtcdClient = {
    ...etcd.client,
    txn: (req, cb, opts) => {
      const touchesWeb = req.compare.some((c) => c.key === WEB_KEY);
      if (!faults.failWrites || !touchesWeb) return etcd.client.txn(req, cb, opts);
      clock.setTimer(1, () => cb({ ok: false, error: { code: 'Unavailable', message: 'etcdserver: request timed out' } }));
    },
  };
  const servers: ApiServer[] = [];
  for (const name of ['kube-apiserver-1', 'kube-apiserver-2']) {
    const rng = kernel.forkRng(`service-allocators/${name}`);
    const plugin = serviceAllocation({
      ips: new ServiceIpAllocator({ loopback: () => server, range: new ServiceIpRange('10.96.0.0/12'), rng }),
      nodePorts: () => rangeAllocationStorage(failing, SERVICE_NODE_PORTS_KEY, () => '2026-01-01T00:00:00Z'),
      portRange: DEFAULT_NODE_PORT_RANGE,
      rng,
    });
    const server: ApiServer = new ApiServer({ name, etcd: failing, clock, rng: kernel.rng.fork(name), admissionPlugins: [...DEFAULT_ADMISSION_PLUGINS, plugin] });
    server.start();
    servers.push(server);
  }
  kernel.runUntil(() => servers.every((s) => s.isReady), 100_000);
  /** Sends the requests at the same instant (request i through replica i % 2) and waits for every answer. */
  const send = (...reqs: ApiRequest[]): ApiResponse[] => {
    const answers: (ApiResponse | undefined)[] = reqs.map(() => undefined);
    reqs.forEach((req, i) => servers[i % 2]!.request({ credentials: ADMIN, ...req }, (res) => (answers[i] = res)));
    kernel.runUntil(() => answers.every((a) => a !== undefined), 100_000);
    if (!answers.every((a) => a !== undefined)) throw new Error('invariant violated: every request was answered');
    return answers as ApiResponse[];
  };
  const list = (resource: string, group = ''): KubeObject[] => (send({ verb: 'list', group, resource })[0]!.body as { items: KubeObject[] }).items;
  /** What the allocators hold in etcd, and what the stored Services hold. */
  const state = () => {
    let snapshot: { data: string } | undefined;
    let read = false;
    rangeAllocationStorage(etcd.client, SERVICE_NODE_PORTS_KEY, () => '').get((snap) => {
      snapshot = snap;
      read = true;
    });
    kernel.runUntil(() => read, 10_000);
    const services = list('services') as Service[];
    return {
      ips: (list('ipaddresses', 'networking.k8s.io') as IPAddress[]).map((ip) => `${ip.metadata.name ?? ''} ${ip.spec?.parentRef?.name ?? ''}`).sort(),
      ports: NodePortBitmap.fromSnapshot(DEFAULT_NODE_PORT_RANGE, snapshot?.data ?? '').ports(),
      servicesIps: services.flatMap((s) => (s.spec?.clusterIPs ?? []).map((ip) => `${ip} ${s.metadata.name ?? ''}`)).sort(),
      servicesPorts: services.flatMap((s) => nodePortsOf(s.spec)).sort((a, b) => a - b),
    };
  };
  /** The allocators hold exactly what the stored Services hold. */
  const expectNoLeak = (): ReturnType<typeof state> => {
    const now = state();
    expect(now.ips).toEqual(now.servicesIps);
    expect(now.ports).toEqual(now.servicesPorts);
    return now;
  };
  return { kernel, faults, send, state, expectNoLeak };
}

const web = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, protocol: 'TCP' }], ...spec },
} as KubeObject);
const create = (body: KubeObject): ApiRequest => ({ verb: 'create', resource: 'services', namespace: 'default', body });
const patch = (body: object): ApiRequest => ({ verb: 'patch', resource: 'services', namespace: 'default', name: 'web', patchType: 'application/merge-patch+json', body });
const del: ApiRequest = { verb: 'delete', resource: 'services', namespace: 'default', name: 'web' };

describe('a Service write whose etcd write fails gives back what it took', () => {
  it.each<[string, ApiRequest[], ApiRequest, (before: ReturnType<ReturnType<typeof twoReplicas>['state']>, after: ReturnType<ReturnType<typeof twoReplicas>['state']>) => void]>([
    ['a create with a random IP and node port', [], create(web({ type: 'NodePort' })), (_b, after) => {
      expect(after.ips).toEqual([]);
      expect(after.ports).toEqual([]);
    }],
    ['a create that asked for its IP and node port', [], create(web({ type: 'NodePort', clusterIP: '10.96.0.50', ports: [{ name: 'http', port: 80, protocol: 'TCP', nodePort: 30050 }] })), (_b, after) => {
      expect(after.ips).toEqual([]);
      expect(after.ports).toEqual([]);
    }],
    ['an update ExternalName -> NodePort (a new IP and port)', [create(web({ type: 'ExternalName', externalName: 'example.com', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }))],
      patch({ spec: { type: 'NodePort', externalName: null } }), (before, after) => expect(after).toEqual(before)],
    ['an update that adds a port (the new node port only)', [create(web({ type: 'NodePort' }))],
      patch({ spec: { ports: [{ name: 'http', port: 80, protocol: 'TCP' }, { name: 'https', port: 443, protocol: 'TCP' }] } }), (before, after) => {
        expect(before.ports).toHaveLength(1);
        expect(after).toEqual(before);
      }],
    ['an update NodePort -> ClusterIP keeps the node port it would have dropped', [create(web({ type: 'NodePort' }))],
      patch({ spec: { type: 'ClusterIP' } }), (before, after) => {
        expect(before.ports).toHaveLength(1);
        expect(after).toEqual(before);
      }],
    ['an update NodePort -> ExternalName keeps the IP and port', [create(web({ type: 'NodePort' }))],
      patch({ spec: { type: 'ExternalName', externalName: 'example.com' } }), (before, after) => {
        expect(before.ips).toHaveLength(1);
        expect(after).toEqual(before);
      }],
    ['a delete keeps the IP and port', [create(web({ type: 'NodePort' }))], del, (before, after) => {
      expect(before.ips).toHaveLength(1);
      expect(after).toEqual(before);
    }],
  ])('%s', (_name, setup, request, check) => {
    const r = twoReplicas(7);
    for (const req of setup) expect(r.send(req)[0]!.code).toBeLessThan(300);
    const before = r.expectNoLeak();
    r.faults.failWrites = true;
    const [answer] = r.send(request);
    expect(answer!.code).toBe(500);
    expect((answer!.body as { message?: string }).message).toBe('etcdserver: request timed out');
    r.faults.failWrites = false;
    check(before, r.expectNoLeak());
  });

  it('after a failed delete, the next delete gives both back', () => {
    const r = twoReplicas(8);
    r.send(create(web({ type: 'NodePort', clusterIP: '10.96.0.50', ports: [{ name: 'http', port: 80, protocol: 'TCP', nodePort: 30050 }] })));
    r.faults.failWrites = true;
    expect(r.send(del)[0]!.code).toBe(500);
    r.faults.failWrites = false;
    expect(r.state().ips).toEqual(['10.96.0.50 web']);
    expect(r.send(del)[0]!.code).toBe(200);
    expect(r.expectNoLeak()).toMatchObject({ ips: [], ports: [] });
  });

  it('a Service held by a finalizer keeps its values through a failed finalizer removal, and gives them back when it is gone', () => {
    const r = twoReplicas(9);
    r.send(create({ ...web({ type: 'NodePort' }), metadata: { name: 'web', namespace: 'default', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] } }));
    expect(r.send(del)[0]!.code).toBe(200);
    const held = r.expectNoLeak();
    expect(held.ports).toHaveLength(1);
    r.faults.failWrites = true;
    expect(r.send(patch({ metadata: { finalizers: null } }))[0]!.code).toBe(500);
    r.faults.failWrites = false;
    expect(r.state()).toEqual(held);
    expect(r.send(patch({ metadata: { finalizers: null } }))[0]!.code).toBe(200);
    expect(r.expectNoLeak()).toMatchObject({ ips: [], ports: [] });
  });
});

describe('races between two replicas', () => {
  it.each([1, 2, 3, 4])('two creates of the same name at once (seed %i): the loser gives back its IP and ports', (seed) => {
    const r = twoReplicas(seed);
    const answers = r.send(create(web({ type: 'NodePort' })), create(web({ type: 'NodePort' })));
    expect(answers.map((a) => a.code).sort()).toEqual([201, 409]);
    const loser = answers.find((a) => a.code === 409)!;
    expect((loser.body as { reason?: string }).reason).toBe('AlreadyExists');
    const after = r.expectNoLeak();
    expect(after.ips).toHaveLength(1);
    expect(after.ports).toHaveLength(1);
  });

  it('an update retried after a lost race gives back what its first try took', () => {
    const r = twoReplicas(5);
    r.send(create(web({ type: 'ExternalName', externalName: 'example.com' })));
    // replica 1 turns it into a NodePort Service (an IP and a port) while replica 2 relabels it
    const [typed, labelled] = r.send(patch({ spec: { type: 'NodePort', externalName: null } }), patch({ metadata: { labels: { tier: 'front' } } }));
    expect(typed!.code).toBe(200);
    expect(labelled!.code).toBe(200);
    const after = r.expectNoLeak();
    expect(after.ips).toHaveLength(1);
    expect(after.ports).toHaveLength(1);
  });
});
