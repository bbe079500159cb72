import { describe, expect, it } from 'vitest';
import { parseFieldSelector, type KubeObject } from '../../api/index.ts';
import type { Predicate } from './filter.ts';
import { KeyIndex, triggerFor, WatcherIndex } from './triggers.ts';

const pod = (name: string, nodeName?: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, ...(nodeName ? { spec: { nodeName } } : {}) }) as KubeObject;
const predicate = (fieldSelector?: string): Predicate => {
  const p: Predicate = { kind: 'Pod' };
  if (fieldSelector) {
    const r = parseFieldSelector(fieldSelector);
    if (!r.ok) throw new Error(r.error);
    p.field = r.selector;
  }
  return p;
};

describe('WatcherIndex', () => {
  const index = new WatcherIndex<{ id: number; predicate: Predicate }>(triggerFor('Pod'));
  index.add({ id: 1, predicate: predicate('spec.nodeName=a') });
  index.add({ id: 2, predicate: predicate() });
  index.add({ id: 3, predicate: predicate('spec.nodeName=b') });
  index.add({ id: 4, predicate: predicate('spec.nodeName!=a') });
  index.add({ id: 5, predicate: predicate('spec.nodeName==a,metadata.name=x') });
  index.add({ id: 6, predicate: predicate('spec.nodeName=') });

  it.each([
    ['a pod on a', pod('p', 'a'), undefined, [1, 2, 4, 5]],
    ['a pod on b', pod('p', 'b'), undefined, [2, 3, 4]],
    ['a pod moving from b to a', pod('p', 'a'), pod('p', 'b'), [1, 2, 3, 4, 5]],
    ['an unbound pod', pod('p'), undefined, [2, 4, 6]],
    ['a pod being bound to b', pod('p', 'b'), pod('p'), [2, 3, 4, 6]],
    ['a pod on a node nobody pinned', pod('p', 'z'), undefined, [2, 4]],
  ])('%s is offered to the unpinned watchers and those pinned to its values, in id order', (_, obj, prev, ids) => {
    expect(index.candidates(obj, prev).map((w) => w.id)).toEqual(ids);
  });

  it('forgets a deleted watcher', () => {
    const i = new WatcherIndex<{ id: number; predicate: Predicate }>(triggerFor('Pod'));
    i.add({ id: 1, predicate: predicate('spec.nodeName=a') });
    i.add({ id: 2, predicate: predicate() });
    i.delete(1);
    expect(i.candidates(pod('p', 'a'), undefined).map((w) => w.id)).toEqual([2]);
    expect(i.size).toBe(1);
  });

  it('without a trigger (most kinds) offers every event to every watcher', () => {
    const i = new WatcherIndex<{ id: number; predicate: Predicate }>(triggerFor('ConfigMap'));
    i.add({ id: 1, predicate: { kind: 'ConfigMap', name: 'x' } });
    i.add({ id: 2, predicate: { kind: 'ConfigMap' } });
    expect(i.candidates({ metadata: { name: 'y' } } as KubeObject, undefined).map((w) => w.id)).toEqual([1, 2]);
  });
});

describe('KeyIndex', () => {
  it('follows a key through binding, rebinding and deletion', () => {
    const k = new KeyIndex(triggerFor('Pod')!);
    k.update('/p', pod('p'), undefined);
    expect(k.keys('')).toEqual(['/p']);
    k.update('/p', pod('p', 'a'), pod('p'));
    expect([k.keys(''), k.keys('a')]).toEqual([[], ['/p']]);
    k.update('/q', pod('q', 'a'), undefined);
    k.update('/p', undefined, pod('p', 'a'));
    expect(k.keys('a')).toEqual(['/q']);
  });
});
