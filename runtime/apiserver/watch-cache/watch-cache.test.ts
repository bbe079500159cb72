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
