// FilterPodsByOwner over the PodControllerUIDIndex (pkg/controller/controller_utils.go): the owner's
// pods (checked again against kind and uid) and, when asked, the orphans of its namespace.
import { describe, expect, it } from 'vitest';
import type { OwnerReference, Pod, ReplicaSet } from '../api/index.ts';
import { Indexer, NAMESPACE_INDEX, namespaceIndexFunc } from '../client/index.ts';
import { addPodControllerUIDIndexer, filterPodsByOwner, ORPHAN_POD_INDEX_KEY, podControllerUIDIndexFunc, selectorMatcher } from './controller-utils.ts';

const ref = (kind: string, uid: string, controller = true): OwnerReference => ({ apiVersion: 'apps/v1', kind, name: uid, uid, controller });
const pod = (namespace: string, name: string, refs: OwnerReference[] = []): Pod =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name, ownerReferences: refs }, spec: { containers: [] } }) as Pod;
const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { namespace: 'a', name: 'web', uid: 'rs-1' } } as ReplicaSet;

function informer(pods: Pod[]) {
  const cache = new Indexer<Pod>({ [NAMESPACE_INDEX]: namespaceIndexFunc });
  for (const p of pods) cache.upsert(p);
  return {
    hasIndex: (n: string) => cache.hasIndex(n),
    addIndexers: (i: Record<string, (p: Pod) => readonly string[]>) => cache.addIndexers(i),
    lister: { byIndex: (n: string, v: string) => cache.byIndex(n, v) },
  };
}

describe('podControllerUIDIndexFunc', () => {
  it.each<[string, Pod, string]>([
    ['controlled', pod('a', 'p', [ref('ReplicaSet', 'rs-1')]), 'rs-1'],
    ['owned but not controlled: an orphan', pod('a', 'p', [ref('ReplicaSet', 'rs-1', false)]), ORPHAN_POD_INDEX_KEY],
    ['no owner', pod('a', 'p'), ORPHAN_POD_INDEX_KEY],
  ])('%s', (_n, p, want) => expect(podControllerUIDIndexFunc(p)).toEqual([want]));
});

describe('filterPodsByOwner', () => {
  const pods = [
    pod('a', 'mine', [ref('ReplicaSet', 'rs-1')]),
    pod('a', 'other-rs', [ref('ReplicaSet', 'rs-2')]),
    pod('a', 'same-uid-other-kind', [ref('DaemonSet', 'rs-1')]),
    pod('a', 'orphan'),
    pod('b', 'orphan-elsewhere'),
  ];

  it.each<[boolean, string[]]>([
    [false, ['mine']],
    [true, ['mine', 'orphan']],
  ])('with orphans %s', (includeOrphans, want) => {
    const inf = informer(pods);
    addPodControllerUIDIndexer(inf);
    addPodControllerUIDIndexer(inf); // a second controller on the same informer: no conflict
    expect(filterPodsByOwner(inf, rs, 'ReplicaSet', includeOrphans).map((p) => p.metadata.name)).toEqual(want);
  });
});

describe('selectorMatcher', () => {
  it.each<[string, Parameters<typeof selectorMatcher>[0], Record<string, string> | undefined, boolean]>([
    ['matchLabels', { matchLabels: { app: 'web' } }, { app: 'web', x: 'y' }, true],
    ['matchLabels, other value', { matchLabels: { app: 'web' } }, { app: 'db' }, false],
    ['matchExpressions In', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] }, { tier: 'b' }, true],
    ['no labels', { matchLabels: { app: 'web' } }, undefined, false],
    ['an invalid selector matches nothing', { matchExpressions: [{ key: 'tier', operator: 'In', values: [] }] }, { tier: 'b' }, false],
  ])('%s', (_n, selector, labels, want) => expect(selectorMatcher(selector)(labels)).toBe(want));
});
