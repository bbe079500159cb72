import { describe, expect, it } from 'vitest';
import type { KubeObject, Status } from '../../api/index.ts';
import { createHarness } from '../testing/harness.ts';

const event = (name: string, pod: string, reason = 'Scheduled') => ({
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: pod },
  reason, message: `${reason} ${pod}`, type: 'Normal', count: 1,
});

describe('events have no watch cache: reads and watches go to etcd (DefaultWatchCacheSizes)', () => {
  it('a watch from "" lists the current events as ADDED, then streams changes from etcd', () => {
    const h = createHarness();
    h.admin({ verb: 'create', resource: 'events', namespace: 'default', body: event('a.1', 'a') });
    const w = h.watch({ resource: 'events', namespace: 'default' });
    h.kernel.runFor(10);
    expect(w.events.map((e) => `${e.type} ${(e.object as KubeObject).metadata.name}`)).toEqual(['ADDED a.1']);
    const b = h.admin({ verb: 'create', resource: 'events', namespace: 'default', body: event('b.1', 'b') }).body as KubeObject;
    h.admin({ verb: 'update', resource: 'events', namespace: 'default', name: 'b.1', body: { ...b, count: 2 } });
    h.admin({ verb: 'delete', resource: 'events', namespace: 'default', name: 'a.1' });
    h.kernel.runFor(10);
    expect(w.events.map((e) => `${e.type} ${(e.object as KubeObject).metadata.name}`)).toEqual(['ADDED a.1', 'ADDED b.1', 'MODIFIED b.1', 'DELETED a.1']);
    const deleted = w.events[3]!.object as KubeObject;
    expect(Number(deleted.metadata.resourceVersion)).toBeGreaterThan(Number((w.events[2]!.object as KubeObject).metadata.resourceVersion));
  });

  it('a field selector on involvedObject.name: events of other objects never arrive', () => {
    const h = createHarness();
    const w = h.watch({ resource: 'events', namespace: 'default', query: { fieldSelector: 'involvedObject.name=web' } });
    h.admin({ verb: 'create', resource: 'events', namespace: 'default', body: event('db.1', 'db') });
    h.admin({ verb: 'create', resource: 'events', namespace: 'default', body: event('web.1', 'web') });
    h.kernel.runFor(10);
    expect(w.events.map((e) => (e.object as KubeObject).metadata.name)).toEqual(['web.1']);
  });

  it('resuming from a compacted resourceVersion ends with 410 Expired', () => {
    const h = createHarness();
    const first = h.admin({ verb: 'create', resource: 'events', namespace: 'default', body: event('a.1', 'a') }).body as KubeObject;
    h.admin({ verb: 'create', resource: 'events', namespace: 'default', body: event('b.1', 'b') });
    h.admin({ verb: 'create', resource: 'events', namespace: 'default', body: event('c.1', 'c') });
    h.etcd.store.compact(h.etcd.store.revision);
    const w = h.watch({ resource: 'events', namespace: 'default', query: { resourceVersion: first.metadata.resourceVersion } });
    h.kernel.runFor(10);
    expect(w.events).toHaveLength(1);
    expect(w.events[0]!.type).toBe('ERROR');
    expect(w.events[0]!.object as Status).toMatchObject({ code: 410, reason: 'Expired', message: 'The resourceVersion for the provided watch is too old.' });
    expect(w.closed.done).toBe(true);
  });

  it('GET and LIST with resourceVersion=0 are served by etcd too (there is no cache to answer)', () => {
    const h = createHarness();
    h.admin({ verb: 'create', resource: 'events', namespace: 'default', body: event('a.1', 'a') });
    const got = h.admin({ verb: 'get', resource: 'events', namespace: 'default', name: 'a.1', query: { resourceVersion: '0' } });
    expect(got.code).toBe(200);
    const list = h.admin({ verb: 'list', resource: 'events', namespace: 'default', query: { resourceVersion: '0' } });
    expect((list.body as { items: KubeObject[] }).items.map((e) => e.metadata.name)).toEqual(['a.1']);
    const stages = h.server.audit.list().filter((e) => e.verb === 'list' || e.verb === 'get').flatMap((e) => e.stages.map((s) => s.detail));
    expect(stages.filter((d) => d.includes('/registry/events/')).every((d) => d.startsWith('etcd '))).toBe(true);
  });
});
