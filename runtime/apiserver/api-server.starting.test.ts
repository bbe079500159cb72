// An API server whose watch caches have not listed etcd yet (it is starting, or etcd is away):
// what each kind of request gets (KEP-4568 in cacher/delegator.go, admission's WaitForReady, the
// privileged-group authorizer before RBAC).
import { describe, expect, it } from 'vitest';
import type { KubeObject, Status } from '../api/index.ts';
import { createKernel } from '../kernel/index.ts';
import { ApiServer } from './api-server.ts';
import { retryAfterForUnreadyCache } from './handlers/read.ts';
import type { ApiRequest, ApiResponse } from './request.ts';
import { ADMIN } from './testing/harness.ts';
import { createInMemoryEtcd } from './testing/mvcc-etcd-client.ts';

const SCHEDULER = { clientCert: { commonName: 'system:kube-scheduler', organizations: [] } };
const pod = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } }) as KubeObject;

/** A server over an in-memory etcd; `etcdDown` keeps its caches from ever listing. */
function starting(etcdDown: boolean) {
  const kernel = createKernel({ seed: 1 });
  const clock = { now: () => kernel.now(), setTimer: (ms: number, fn: () => void) => kernel.setTimer(ms, fn) };
  const etcd = createInMemoryEtcd({ clock });
  etcd.setDown(etcdDown);
  const server = new ApiServer({ rng: kernel.rng.fork('apiserver'), etcd: etcd.client, clock });
  server.start();
  /** Sends now (the caches' first lists are still in flight) and collects the answer and its time. */
  const send = (req: ApiRequest): { res?: ApiResponse; atMs?: number } => {
    const out: { res?: ApiResponse; atMs?: number } = {};
    server.request({ credentials: ADMIN, ...req }, (r) => { out.res = r; out.atMs = kernel.now(); });
    return out;
  };
  const watch = (req: Omit<ApiRequest, 'verb'>): { closed?: Status } => {
    const out: { closed?: Status } = {};
    server.watch({ credentials: ADMIN, ...req, verb: 'watch' }, { onEvent: () => {}, onClose: (e) => (out.closed = e as Status) });
    return out;
  };
  return { kernel, server, send, watch };
}

describe('an API server whose watch caches are still filling', () => {
  it('reads a get and a paged list from etcd, refuses other lists and watches with 429, holds writes until the caches fill', () => {
    const s = starting(false);
    const get = s.send({ verb: 'get', resource: 'namespaces', name: 'default', query: { resourceVersion: '0' } });
    const paged = s.send({ verb: 'list', resource: 'pods', query: { resourceVersion: '0', limit: 500 } });
    const unpaged = s.send({ verb: 'list', resource: 'pods', query: { resourceVersion: '0' } });
    const selected = s.send({ verb: 'list', resource: 'pods', query: { resourceVersion: '0', limit: 500, labelSelector: 'app=web' } });
    const consistent = s.send({ verb: 'list', resource: 'pods', namespace: 'default' });
    const create = s.send({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web') });
    const watch = s.watch({ resource: 'pods' });
    expect(s.server.isReady).toBe(false);
    expect(watch.closed).toMatchObject({ code: 429, reason: 'TooManyRequests', message: 'storage is (re)initializing', details: { retryAfterSeconds: 1 } });
    s.kernel.runUntil(() => s.server.isReady, 10_000);

    // the bootstrap objects were not written yet: etcd has no namespace "default" to get
    expect(get.res?.code).toBe(404);
    expect(paged.res?.code).toBe(200);
    expect(consistent.res?.code).toBe(200);
    for (const refused of [unpaged, selected]) {
      expect(refused.res?.code).toBe(429);
      expect(refused.res?.body).toMatchObject({ message: 'storage is (re)initializing', details: { retryAfterSeconds: 1 } });
    }
    // the create waited for admission's informers, then NamespaceLifecycle decided: the bootstrap
    // hook, which runs after the caches fill, had not made namespace "default" yet
    expect(create.res?.code).toBe(404);
    expect((create.res?.body as Status).message).toBe('namespaces "default" not found');
  });

  it('system:masters is allowed before RBAC\'s caches fill; other users are not', () => {
    const s = starting(true);
    const admin = s.send({ verb: 'get', resource: 'namespaces', name: 'default' });
    const scheduler = s.send({ verb: 'list', resource: 'pods', credentials: SCHEDULER });
    s.kernel.runFor(6_000);
    expect(scheduler.res?.code).toBe(403);
    expect((scheduler.res?.body as Status).message).toBe('pods is forbidden: User "system:kube-scheduler" cannot list resource "pods" in API group "" at the cluster scope');
    // the admin got past authorization: its get reached etcd, which is down
    expect(admin.res?.code).toBe(500);
    expect((admin.res?.body as Status).message).toBe('context deadline exceeded');
  });

  it('a write that needs admission\'s informers is refused after 10 s; a cluster-scoped one does not wait', () => {
    const s = starting(true);
    const create = s.send({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web') });
    const role = s.send({ verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' } } });
    s.kernel.runFor(20_000);
    expect(create.res?.code).toBe(403);
    expect(create.atMs).toBe(10_000);
    expect((create.res?.body as Status).message).toBe('pods "web" is forbidden: not yet ready to handle request');
    // it went to etcd (down) without waiting for the caches, and timed out there
    expect(role.res?.code).toBe(500);
    expect(role.atMs).toBe(5_000);
  });

  it('the Retry-After grows with the time waited: e^(0.06 s), between 1 and 30', () => {
    expect([0, 5, 11, 12, 20, 40, 57, 60, 600].map(retryAfterForUnreadyCache)).toEqual([1, 1, 1, 2, 3, 11, 30, 30, 30]);
    const s = starting(true);
    s.kernel.runFor(40_000);
    expect(s.watch({ resource: 'pods' }).closed).toMatchObject({ code: 429, details: { retryAfterSeconds: 11 } });
  });
});
