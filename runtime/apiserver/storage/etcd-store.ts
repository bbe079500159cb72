// The storage layer: objects as JSON under /registry/... keys in etcd, with optimistic concurrency.
// mirrors staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go: Create is a txn "create if the
// key's mod_revision is 0", GuaranteedUpdate re-reads and retries a txn "put if mod_revision is
// unchanged", Delete is a txn "delete if mod_revision is unchanged"; an object's resourceVersion
// is its key's mod_revision.
import type { KubeObject, Status } from '../../api/index.ts';
import type { EtcdClient, EtcdError, KeyValue, TxnResult, WithHeader } from '../../etcd/index.ts';
import { decodeFromStorage, encodeForStorage, rememberWritten } from '../encoding.ts';
import type { ApiWatchEvent } from '../request.ts';
import { watchEtcd, type DirectWatchRequest } from './etcd-watch.ts';

export type StoreResult<T> = { ok: true; value: T } | { ok: false; status: Status };
type Cb<T> = (r: StoreResult<T>) => void;

/** What GuaranteedUpdate's update function decides for the current object. */
export type UpdateDecision =
  /** `value`: the object's encodeForStorage text, when the decider already built it. */
  | { action: 'put'; object: KubeObject; value?: string }
  | { action: 'delete' }
  | { action: 'abort'; status: Status }
  | { action: 'noop'; object: KubeObject };

/** Bound on GuaranteedUpdate retries after lost races (a limit on everything). */
export const MAX_UPDATE_ATTEMPTS = 16;

/** An etcd error as the API server reports it: a 500 whose message is etcd's text. */
export function storageError(err: EtcdError): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, reason: '', code: 500 };
}

function corrupt(key: string): Status {
  return storageError({ code: 'InvalidArgument', message: `unable to decode object stored at ${key}` });
}

export interface Current {
  object: KubeObject;
  modRevision: number;
}

export class EtcdStore {
  constructor(private readonly etcd: EtcdClient) {}

  /** Reads one object; value undefined when absent. */
  get(key: string, cb: Cb<Current | undefined>): void {
    this.etcd.range({ key }, (r) => {
      if (!r.ok) return cb({ ok: false, status: storageError(r.error) });
      const kv = r.value.kvs[0];
      if (!kv) return cb({ ok: true, value: undefined });
      const object = decodeFromStorage(kv.value, kv.modRevision);
      cb(object ? { ok: true, value: { object, modRevision: kv.modRevision } } : { ok: false, status: corrupt(key) });
    });
  }

  /** Reads every object in [key, rangeEnd) at one revision (a consistent, quorum read). */
  list(key: string, rangeEnd: string, revision: number | undefined, cb: Cb<{ items: KubeObject[]; revision: number }>): void {
    this.etcd.range({ key, rangeEnd, ...(revision ? { revision } : {}) }, (r) => {
      if (!r.ok) return cb({ ok: false, status: storageError(r.error) });
      const items: KubeObject[] = [];
      for (const kv of r.value.kvs) {
        const o = decodeFromStorage(kv.value, kv.modRevision);
        if (o) items.push(o);
      }
      cb({ ok: true, value: { items, revision: revision ?? r.value.header.revision } });
    });
  }

  /** A watch served by etcd itself (resources without a watch cache); returns the cancel function. */
  watch(req: DirectWatchRequest, sink: (ev: ApiWatchEvent) => void): () => void {
    return watchEtcd(this.etcd, req, sink);
  }

  /** Creates the object if the key is absent; value undefined when it already exists. */
  create(key: string, obj: KubeObject, cb: Cb<KubeObject | undefined>): void {
    const value = encodeForStorage(obj);
    this.etcd.txn(
      { compare: [{ key, target: 'MOD', result: 'EQUAL', operand: 0 }], success: [{ put: { key, value } }], failure: [] },
      (r) => {
        if (!r.ok) return cb({ ok: false, status: storageError(r.error) });
        if (!r.value.succeeded) return cb({ ok: true, value: undefined });
        rememberWritten(r.value.header.revision, value);
        cb({ ok: true, value: withRevision(obj, r.value.header.revision) });
      },
    );
  }

  /**
   * Asks `decide` what to do with the current object and writes only if nobody wrote in between
   * (a txn "if mod_revision is unchanged"); on a lost race it asks again with the value the txn's
   * failure branch read. `decide` sees undefined when the key is absent.
   *
   * `cached` is the watch cache's copy: mirrors Cacher.GuaranteedUpdate, which passes it down as
   * cachedExistingObject so a write needs no read from etcd first (etcd3 store.go GuaranteedUpdate).
   * That copy may be stale: a refusal or a no-op decided on it is checked against a fresh read, and
   * stands only if the object did not change meanwhile; a stale put just loses its txn.
   */
  guaranteedUpdate(
    key: string,
    decide: (current: Current | undefined, answer: (d: UpdateDecision) => void) => void,
    cb: Cb<{ object: KubeObject | undefined; deleted: boolean }>,
    cached?: Current,
  ): void {
    let attempts = 0;
    const attempt = (state: Current | undefined, isCurrent: boolean): void => {
      if (++attempts > MAX_UPDATE_ATTEMPTS) {
        return cb({ ok: false, status: storageError({ code: 'Unavailable', message: `too many conflicts updating ${key}` }) });
      }
      decide(state, (d) => {
        if (d.action === 'abort' || d.action === 'noop') {
          const settled: StoreResult<{ object: KubeObject | undefined; deleted: boolean }> =
            d.action === 'abort' ? { ok: false, status: d.status } : { ok: true, value: { object: d.object, deleted: false } };
          if (isCurrent) return cb(settled);
          // decided on possibly stale data: it stands only if the object is still that revision
          return this.get(key, (fresh) => {
            if (!fresh.ok) return cb(fresh);
            if (fresh.value?.modRevision === state?.modRevision) return cb(settled);
            attempt(fresh.value, true);
          });
        }
        this.commit(key, state, d, cb, (latest) => attempt(latest, true));
      });
    };
    if (cached) return attempt(cached, false);
    this.get(key, (cur) => {
      if (!cur.ok) return cb(cur);
      attempt(cur.value, true);
    });
  }

  /** The txn of one attempt; a lost race hands the failure branch's read of the key to `retry`. */
  private commit(
    key: string,
    current: Current | undefined,
    d: Extract<UpdateDecision, { action: 'put' | 'delete' }>,
    cb: Cb<{ object: KubeObject | undefined; deleted: boolean }>,
    retry: (latest: Current | undefined) => void,
  ): void {
    const expected = current?.modRevision ?? 0;
    const value = d.action === 'put' ? d.value ?? encodeForStorage(d.object) : undefined;
    const op = value !== undefined ? { put: { key, value } } : { deleteRange: { key, prevKv: true } };
    // store.go OptimisticPut/conditionalDelete: If(mod_revision == expected) Then(op) Else(Get(key))
    this.etcd.txn({ compare: [{ key, target: 'MOD', result: 'EQUAL', operand: expected }], success: [op], failure: [{ range: { key } }] }, (r) => {
      if (!r.ok) return cb({ ok: false, status: storageError(r.error) });
      if (!r.value.succeeded) {
        const resp = r.value.responses[0];
        const kv = resp && 'range' in resp ? resp.range.kvs[0] : undefined;
        if (!kv) return retry(undefined);
        const object = decodeFromStorage(kv.value, kv.modRevision);
        return object ? retry({ object, modRevision: kv.modRevision }) : cb({ ok: false, status: corrupt(key) });
      }
      if (d.action === 'delete') {
        const prev = deletedObject(r.value, current?.object);
        return cb({ ok: true, value: { object: prev && withRevision(prev, r.value.header.revision), deleted: true } });
      }
      if (value !== undefined) rememberWritten(r.value.header.revision, value);
      cb({ ok: true, value: { object: withRevision(d.object, r.value.header.revision), deleted: false } });
    });
  }
}

function deletedObject(r: WithHeader<TxnResult>, fallback: KubeObject | undefined): KubeObject | undefined {
  const resp = r.responses[0];
  const prev: KeyValue | undefined = resp && 'deleteRange' in resp ? resp.deleteRange.prevKvs[0] : undefined;
  return (prev && decodeFromStorage(prev.value, prev.modRevision)) ?? fallback;
}

function withRevision(obj: KubeObject, revision: number): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } };
}
