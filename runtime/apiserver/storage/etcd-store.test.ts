import { describe, expect, it } from 'vitest';
import type { KubeObject, Status } from '../../api/index.ts';
import type { EtcdClient } from '../../etcd/index.ts';
import { createKernel } from '../../kernel/index.ts';
import { decodeFromStorage, encodeForStorage } from '../encoding.ts';
import { createInMemoryEtcd } from '../testing/mvcc-etcd-client.ts';
import { EtcdStore, type Current, type UpdateDecision } from './etcd-store.ts';

// mirrors k8s.io/apiserver/pkg/storage/etcd3/store.go GuaranteedUpdate with cachedExistingObject
// (store_test.go TestGuaranteedUpdateWithSuggestionAndConflict and friends): starting from the
// watch cache's copy, an update reads nothing from etcd unless that copy turns out stale.

const KEY = '/registry/configmaps/default/cm';
const conflict: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'conflict', reason: 'Conflict', code: 409 };

function setup() {
  const kernel = createKernel({ seed: 1 });
  const etcd = createInMemoryEtcd({ clock: kernel });
  const calls: string[] = [];
  const counted: EtcdClient = {
    ...etcd.client,
    range: (req, cb, opts) => { calls.push('range'); etcd.client.range(req, cb, opts); },
    txn: (req, cb, opts) => { calls.push('txn'); etcd.client.txn(req, cb, opts); },
  };
  const store = new EtcdStore(counted);
  const write = (data: Record<string, string>): Current => {
    const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' }, data } as KubeObject;
    const r = etcd.store.put({ key: KEY, value: encodeForStorage(obj) });
    if (!r.ok) throw new Error('put failed');
    const stored = etcd.store.range({ key: KEY });
    if (!stored.ok) throw new Error('range failed');
    const kv = stored.value.kvs[0]!;
    return { object: decodeFromStorage(kv.value, kv.modRevision)!, modRevision: kv.modRevision };
  };
  const update = (decide: (cur: Current | undefined) => UpdateDecision, cached?: Current) => {
    const seen: (number | undefined)[] = [];
    let result: unknown;
    store.guaranteedUpdate(KEY, (cur, answer) => { seen.push(cur?.modRevision); answer(decide(cur)); }, (r) => { result = r; }, cached);
    kernel.runFor(100);
    return { seen, result: result as { ok: boolean; value?: { object?: KubeObject }; status?: Status } };
  };
  return { calls, write, update, etcd };
}

const withData = (cur: Current | undefined, v: string): UpdateDecision =>
  ({ action: 'put', object: { ...cur!.object, data: { v } } as KubeObject });
const dataOf = (o: KubeObject | undefined): unknown => (o as { data?: unknown } | undefined)?.data;

describe('EtcdStore.guaranteedUpdate', () => {
  it('without a cached copy reads the key first, then writes', () => {
    const t = setup();
    t.write({ v: '1' });
    const { result } = t.update((cur) => withData(cur, '2'));
    expect(t.calls).toEqual(['range', 'txn']);
    expect(dataOf(result.value?.object)).toEqual({ v: '2' });
  });

  it('with a current cached copy writes without reading (Cacher.GuaranteedUpdate)', () => {
    const t = setup();
    const cached = t.write({ v: '1' });
    const { result, seen } = t.update((cur) => withData(cur, '2'), cached);
    expect(t.calls).toEqual(['txn']);
    expect(seen).toEqual([cached.modRevision]);
    expect(dataOf(result.value?.object)).toEqual({ v: '2' });
  });

  it('with a stale cached copy loses the txn and retries on the value its failure branch read', () => {
    const t = setup();
    const stale = t.write({ v: '1' });
    const fresh = t.write({ v: 'other writer' });
    const { result, seen } = t.update((cur) => withData(cur, `${dataOf(cur?.object) === undefined ? '' : (dataOf(cur!.object) as { v: string }).v}+mine`), stale);
    expect(t.calls).toEqual(['txn', 'txn']);
    expect(seen).toEqual([stale.modRevision, fresh.modRevision]);
    expect(dataOf(result.value?.object)).toEqual({ v: 'other writer+mine' });
  });

  it('a refusal decided on a stale copy is decided again on a fresh read', () => {
    const t = setup();
    const stale = t.write({ v: '1' });
    const fresh = t.write({ v: '2' });
    // refuse anything but the newest revision, like a resourceVersion precondition
    const { result, seen } = t.update((cur) => (cur!.modRevision === fresh.modRevision ? withData(cur, '3') : { action: 'abort', status: conflict }), stale);
    expect(t.calls).toEqual(['range', 'txn']);
    expect(seen).toEqual([stale.modRevision, fresh.modRevision]);
    expect(result.ok).toBe(true);
  });

  it('a refusal decided on a cached copy that is still current stands after one read', () => {
    const t = setup();
    const cached = t.write({ v: '1' });
    const { result, seen } = t.update(() => ({ action: 'abort', status: conflict }), cached);
    expect(t.calls).toEqual(['range']);
    expect(seen).toEqual([cached.modRevision]);
    expect(result).toEqual({ ok: false, status: conflict });
  });

  it('a no-op decided on a stale copy is checked against a fresh read', () => {
    const t = setup();
    const stale = t.write({ v: '1' });
    const fresh = t.write({ v: '2' });
    const { result, seen } = t.update((cur) => (cur!.modRevision === stale.modRevision ? { action: 'noop', object: cur!.object } : withData(cur, '3')), stale);
    expect(seen).toEqual([stale.modRevision, fresh.modRevision]);
    expect(t.calls).toEqual(['range', 'txn']);
    expect(dataOf(result.value?.object)).toEqual({ v: '3' });
  });

  it('a cached copy of an object deleted meanwhile retries as absent', () => {
    const t = setup();
    const stale = t.write({ v: '1' });
    t.etcd.store.deleteRange({ key: KEY });
    const { result, seen } = t.update((cur) => (cur ? withData(cur, '2') : { action: 'abort', status: conflict }), stale);
    expect(seen).toEqual([stale.modRevision, undefined]);
    expect(result).toEqual({ ok: false, status: conflict });
  });
});
