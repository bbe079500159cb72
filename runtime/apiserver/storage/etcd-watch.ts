// A watch served straight from etcd, for resources the API server does not cache (events).
// mirrors staging/src/k8s.io/apiserver/pkg/storage/etcd3/watcher.go:
// - resourceVersion "" or "0": list the current objects first (synthetic ADDED for each that
//   matches), then watch from the list revision + 1 (watcher.go sync + "initialRev == 0");
// - resourceVersion N: watch from N + 1; a compacted N ends the watch with 410 Expired "The
//   resourceVersion for the provided watch is too old." (errors.go interpretWatchError);
// - the selector is applied on the API server: a modified object that starts (stops) matching is
//   sent as ADDED (DELETED), as watchChan.transform does with the old and new object;
// - no bookmarks (the etcd3 watcher sends none; only the watch cache does).
import { newResourceExpired, type KubeObject, type Status } from '../../api/index.ts';
import type { EtcdClient, WatchEvent as EtcdEvent, WatchHandle } from '../../etcd/index.ts';
import { decodeFromStorage } from '../encoding.ts';
import type { ApiWatchEvent } from '../request.ts';
import { matches, type Predicate } from '../watch-cache/filter.ts';
import { storageError } from './etcd-store.ts';

/** errors.go expiredWatch: what a watch from a compacted revision ends with. */
const EXPIRED_WATCH = 'The resourceVersion for the provided watch is too old.';

export interface DirectWatchRequest {
  key: string;
  rangeEnd: string;
  predicate: Predicate;
  /** Undefined or 0: start with the current state. */
  resourceVersion: number | undefined;
}

/** Starts the watch; every event and the final error go to `sink`. Returns the cancel function. */
export function watchEtcd(etcd: EtcdClient, req: DirectWatchRequest, sink: (ev: ApiWatchEvent) => void): () => void {
  let handle: WatchHandle | undefined;
  let stopped = false;
  const fail = (status: Status): void => {
    if (stopped) return;
    stopped = true;
    handle?.cancel();
    sink({ type: 'ERROR', object: status });
  };
  const watchFrom = (startRevision: number): void => {
    handle = etcd.watch({ key: req.key, rangeEnd: req.rangeEnd, startRevision, prevKv: true }, (resp) => {
      if (stopped) return;
      if (resp.canceled) {
        const compacted = resp.compactRevision !== undefined && resp.compactRevision > 0;
        return fail(compacted ? newResourceExpired(EXPIRED_WATCH) : storageError({ code: 'Canceled', message: resp.cancelReason ?? 'watch canceled' }));
      }
      for (const ev of resp.events) {
        const out = transform(ev, req.predicate);
        if (out) sink(out);
      }
    });
  };
  if (req.resourceVersion === undefined || req.resourceVersion === 0) {
    etcd.range({ key: req.key, rangeEnd: req.rangeEnd }, (r) => {
      if (stopped) return;
      if (!r.ok) return fail(storageError(r.error));
      for (const kv of r.value.kvs) {
        const obj = decodeFromStorage(kv.value, kv.modRevision);
        if (obj && matches(req.predicate, obj)) sink({ type: 'ADDED', object: obj });
      }
      watchFrom(r.value.header.revision + 1);
    });
  } else {
    watchFrom(req.resourceVersion + 1);
  }
  return () => {
    stopped = true;
    handle?.cancel();
  };
}

/** One etcd event as the watcher's client sees it, or undefined when the selector hides it. */
function transform(ev: EtcdEvent, p: Predicate): ApiWatchEvent | undefined {
  const prev = ev.prevKv ? decodeFromStorage(ev.prevKv.value, ev.prevKv.modRevision) : undefined;
  const before = prev !== undefined && matches(p, prev);
  if (ev.type === 'DELETE') {
    if (!prev || !before) return undefined;
    // the last state, stamped with the revision of its deletion (watcher.go prepareObjs)
    return { type: 'DELETED', object: withRv(prev, ev.kv.modRevision) };
  }
  const obj = decodeFromStorage(ev.kv.value, ev.kv.modRevision);
  if (!obj) return undefined;
  const now = matches(p, obj);
  if (now && before) return { type: 'MODIFIED', object: obj };
  if (now) return { type: 'ADDED', object: obj };
  // the old object, stamped with the revision at which it stopped matching (watcher.go prepareObjs)
  if (before) return { type: 'DELETED', object: withRv(prev, ev.kv.modRevision) };
  return undefined;
}

function withRv(obj: KubeObject, rv: number): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(rv) } };
}
