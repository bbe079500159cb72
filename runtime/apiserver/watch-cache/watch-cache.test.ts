import { describe, expect, it } from 'vitest';
import type { KubeObject, Status } from '../../api/index.ts';
import { createHarness } from '../testing/harness.ts';

const cm = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels }, data: { v: name } });

describe('watch from the watch cache', () => {
  it('streams ADDED / MODIFIED / DELETED and resumes from a resourceVersion without gaps', () => {
    const h = createHarness();
    const w = h.watch({ resource: 'configmaps', namespace: 'default', query: { resourceVersion: String(h.etcd.store.revision) } });
    const a = h.admin({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('a') }).body as KubeObject;
    h.admin({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'a', body: { ...a, data: { v: '2' } } });
    h.admin({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'a' });
    h.kernel.runFor(10);
    expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    const rvs = w.events.map((e) => Number(e.object.metadata.resourceVersion));
    expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
    w.stop();
    const resumed = h.watch({ resource: 'configmaps', namespace: 'default', query: { resourceVersion: String(rvs[0]) } });
    expect(resumed.events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
  });

  it('a resourceVersion older than the window gets ERROR 410 "too old resource version"', () => {
    const h = createHarness({ watchCacheCapacity: 3 });
    const start = h.etcd.store.revision;
    for (let i = 0; i < 6; i++) h.admin({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm(`c${i}`) });
    h.kernel.runFor(10);
    const w = h.watch({ resource: 'configmaps', namespace: 'default', query: { resourceVersion: String(start) } });
    expect(w.events).toHaveLength(1);
    const ev = w.events[0]!;
    expect(ev.type).toBe('ERROR');
    const s = ev.object as Status;
    expect(s.code).toBe(410);
    expect(s.reason).toBe('Expired');
    expect(s.message).toMatch(new RegExp(`^too old resource version: ${start} \\(\\d+\\)$`));
    expect(w.closed.done).toBe(true);
  });

  it("reaches back to its list until an event leaves the window (watch_cache.go getAllEventsSinceLocked)", () => {
    // an informer listed at R (served by the cache), the cache's first event comes later at R+k:
    // a watch from R misses nothing, so it is no 410
    const h = createHarness({ watchCacheCapacity: 3 });
    h.kernel.runFor(10);
    const listed = h.admin({ verb: 'list', resource: 'configmaps', namespace: 'default' }).body as { metadata: { resourceVersion: string } };
    h.admin({ verb: 'create', resource: 'namespaces', body: { metadata: { name: 'other' } } }); // moves the revision, not this cache
    h.admin({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('late') });
    h.kernel.runFor(10);
    const w = h.watch({ resource: 'configmaps', namespace: 'default', query: { resourceVersion: listed.metadata.resourceVersion } });
    expect(w.events.map((e) => `${e.type} ${(e.object as KubeObject).metadata.name ?? ''}`)).toEqual(['ADDED late']);
  });

  it('label selector transitions become ADDED / DELETED; bookmarks carry the cache revision', () => {
    const h = createHarness({ bookmarkIntervalMs: 1000 });
    const w = h.watch({ resource: 'configmaps', namespace: 'default', query: { labelSelector: 'app=web', allowWatchBookmarks: true } });
    const a = h.admin({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('a') }).body as KubeObject;
    const b = h.admin({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'a', body: { ...a, metadata: { ...a.metadata, labels: { app: 'web' } } } }).body as KubeObject;
    h.admin({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'a', body: { ...b, metadata: { ...b.metadata, labels: {} } } });
    h.kernel.runFor(1500);
    const types = w.events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['ADDED', 'DELETED']);
    expect(types).toContain('BOOKMARK');
    const bm = w.events.find((e) => e.type === 'BOOKMARK')!.object as KubeObject;
    expect(bm.kind).toBe('ConfigMap');
    expect(Number(bm.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(b.metadata.resourceVersion));
  });
});

describe('indexed triggers (pods by spec.nodeName)', () => {
  const pod = (name: string, nodeName?: string) => ({
    metadata: { name },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx' }] },
  });

  it('a watch pinned to one node sees its pods arrive (binding = ADDED), change and go, and nothing of other nodes', () => {
    const h = createHarness();
    const onA = h.watch({ resource: 'pods', query: { fieldSelector: 'spec.nodeName=node-a', resourceVersion: String(h.etcd.store.revision) } });
    const onB = h.watch({ resource: 'pods', query: { fieldSelector: 'spec.nodeName=node-b', resourceVersion: String(h.etcd.store.revision) } });
    const all = h.watch({ resource: 'pods', query: { resourceVersion: String(h.etcd.store.revision) } });
    const p = h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p1') }).body as KubeObject;
    // bound the way the scheduler binds (an update may not change spec.nodeName: ValidatePodUpdate)
    const bound = h.admin({
      verb: 'create', resource: 'pods', subresource: 'binding', namespace: 'default', name: 'p1',
      body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p1', uid: p.metadata.uid }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-a' } },
    });
    expect(bound.code).toBe(201);
    const b = h.admin({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p1' }).body as KubeObject;
    h.admin({ verb: 'update', resource: 'pods', namespace: 'default', name: 'p1', body: { ...b, metadata: { ...b.metadata, labels: { x: 'y' } } } });
    h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p2', 'node-b') });
    h.admin({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p1' });
    h.kernel.runFor(10);
    // a bound pod is deleted gracefully: the delete only sets deletionTimestamp (the kubelet finishes it)
    expect(onA.events.map((e) => `${e.type} ${(e.object as KubeObject).metadata.name}`)).toEqual(['ADDED p1', 'MODIFIED p1', 'MODIFIED p1']);
    expect((onA.events[2]!.object as KubeObject).metadata.deletionTimestamp).toBeDefined();
    expect(onB.events.map((e) => `${e.type} ${(e.object as KubeObject).metadata.name}`)).toEqual(['ADDED p2']);
    expect(all.events.map((e) => `${e.type} ${(e.object as KubeObject).metadata.name}`)).toEqual(['ADDED p1', 'MODIFIED p1', 'MODIFIED p1', 'ADDED p2', 'MODIFIED p1']);
  });

  it('a pinned list or watch from "0" returns exactly that node\'s pods, in key order', () => {
    const h = createHarness();
    for (const [name, node] of [['c', 'node-a'], ['a', 'node-b'], ['b', 'node-a'], ['d', undefined]] as const) {
      h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(name, node) });
    }
    h.kernel.runFor(10);
    const listA = h.admin({ verb: 'list', resource: 'pods', query: { fieldSelector: 'spec.nodeName=node-a', resourceVersion: '0' } }).body as { items: KubeObject[] };
    expect(listA.items.map((o) => o.metadata.name)).toEqual(['b', 'c']);
    const unbound = h.admin({ verb: 'list', resource: 'pods', query: { fieldSelector: 'spec.nodeName=', resourceVersion: '0' } }).body as { items: KubeObject[] };
    expect(unbound.items.map((o) => o.metadata.name)).toEqual(['d']);
    const w = h.watch({ resource: 'pods', query: { fieldSelector: 'spec.nodeName=node-b', resourceVersion: '0' } });
    expect(w.events.map((e) => `${e.type} ${(e.object as KubeObject).metadata.name}`)).toEqual(['ADDED a']);
  });
});
