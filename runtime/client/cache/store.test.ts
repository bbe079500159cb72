// The indexed cache: indexes follow upserts and deletes, and indexes added later cover what is
// already stored (client-go's AddIndexers on a running informer).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/index.ts';
import { Indexer, NAMESPACE_INDEX, namespaceIndexFunc } from './store.ts';

const obj = (namespace: string, name: string, labels: Record<string, string> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name, labels } }) as KubeObject;
const byApp = (o: KubeObject): string[] => [o.metadata.labels?.app ?? '-'];
const names = (xs: KubeObject[]): string[] => xs.map((x) => x.metadata.name ?? '');

describe('Indexer', () => {
  it('keeps an index in step with upserts and deletes', () => {
    const ix = new Indexer<KubeObject>({ [NAMESPACE_INDEX]: namespaceIndexFunc, app: byApp });
    ix.upsert(obj('a', 'x', { app: 'web' }));
    ix.upsert(obj('a', 'y', { app: 'web' }));
    ix.upsert(obj('b', 'z', { app: 'db' }));
    expect(names(ix.byIndex('app', 'web'))).toEqual(['x', 'y']);
    ix.upsert(obj('a', 'x', { app: 'db' }));
    expect(names(ix.byIndex('app', 'web'))).toEqual(['y']);
    expect(names(ix.byIndex('app', 'db'))).toEqual(['z', 'x']);
    ix.delete('b/z');
    expect(names(ix.byIndex('app', 'db'))).toEqual(['x']);
    expect(names(ix.byIndex(NAMESPACE_INDEX, 'b'))).toEqual([]);
  });

  it('an update that keeps its index value moves its key to the end of that value, as a remove and add would', () => {
    const ix = new Indexer<KubeObject>({ [NAMESPACE_INDEX]: namespaceIndexFunc, app: byApp, tags: (o) => Object.keys(o.metadata.labels ?? {}) });
    for (const n of ['x', 'y', 'z']) ix.upsert(obj('a', n, { app: 'web', [n]: '1' }));
    ix.upsert(obj('a', 'x', { app: 'web', x: '2' }));
    expect(names(ix.byIndex('app', 'web'))).toEqual(['y', 'z', 'x']);
    expect(names(ix.byIndex(NAMESPACE_INDEX, 'a'))).toEqual(['y', 'z', 'x']);
    // a multi-valued index is redone: the key leaves the values it lost and joins the new ones
    ix.upsert(obj('a', 'y', { app: 'web', z: '1' }));
    expect(names(ix.byIndex('tags', 'y'))).toEqual([]);
    expect(names(ix.byIndex('tags', 'z'))).toEqual(['z', 'y']);
    expect(names(ix.byIndex('tags', 'app'))).toEqual(['z', 'x', 'y']);
  });

  it('indexes what is already stored when an index is added later, and refuses a second one of the same name', () => {
    const ix = new Indexer<KubeObject>({ [NAMESPACE_INDEX]: namespaceIndexFunc });
    ix.upsert(obj('a', 'x', { app: 'web' }));
    ix.upsert(obj('a', 'y', { app: 'db' }));
    expect(ix.hasIndex('app')).toBe(false);
    expect(() => ix.byIndex('app', 'web')).toThrow(/index "app" does not exist/);
    ix.addIndexers({ app: byApp });
    expect(ix.hasIndex('app')).toBe(true);
    expect(names(ix.byIndex('app', 'web'))).toEqual(['x']);
    ix.upsert(obj('a', 'z', { app: 'web' }));
    expect(names(ix.byIndex('app', 'web'))).toEqual(['x', 'z']);
    expect(() => ix.addIndexers({ app: byApp })).toThrow(/indexer conflict: app/);
    expect(() => ix.addIndexers({ [NAMESPACE_INDEX]: namespaceIndexFunc })).toThrow(/indexer conflict: namespace/);
  });
});
