// Reference solution of the etcd-watch lab: serve a watch from a revision over a store's history,
// as etcd's MVCC layer does (server/storage/mvcc: watchable_store.go syncWatchers and
// watcher_group.go for the unsynced watcher that catches up, kvstore.go's compaction check,
// watcher.go's key ranges, mvccpb.Event for the events), and client/v3's prefix range end.
// Only `import type` is allowed here: the graded file must run on its own (this lab needs none).

/** One change inside a revision: a put writes `value`; a delete removes a key that existed. */
export interface Change {
  type: 'PUT' | 'DELETE';
  key: string;
  /** The value written (PUT only). */
  value?: string;
}

/** One write request (a put, a delete range or a txn): its revision and its changes, in order. */
export interface Revision {
  revision: number;
  changes: Change[];
}

/** Every write the store ever applied, whether compaction has forgotten it or not. */
export interface History {
  /** Ascending and consecutive: revision 2, 3, ... up to currentRevision (a new store is at 1). */
  revisions: Revision[];
  currentRevision: number;
  /** The revision of the last compaction, 0 if the store was never compacted. */
  compactRevision: number;
}

/** mvccpb.KeyValue without the lease (no leases in this lab). */
export interface KeyValue {
  key: string;
  createRevision: number;
  modRevision: number;
  version: number;
  value: string;
}

/** mvccpb.Event */
export interface WatchEvent {
  type: 'PUT' | 'DELETE';
  kv: KeyValue;
  prevKv?: KeyValue;
}

/** etcdserverpb.WatchCreateRequest, the fields this lab models. */
export interface WatchRequest {
  key: string;
  /** Absent or '': just `key`. '\0': every key >= key. Otherwise the keys in [key, rangeEnd). */
  rangeEnd?: string;
  /** First revision to deliver (inclusive). Absent, 0 or negative: from the next write on. */
  startRevision?: number;
  prevKv?: boolean;
  noPut?: boolean;
  noDelete?: boolean;
}

/** The watch was canceled because its start revision was compacted. */
export interface WatchCanceled {
  canceled: true;
  compactRevision: number;
  cancelReason: string;
}

export type WatchResult = { events: WatchEvent[] } | WatchCanceled;

/** One syncWatchers pass for one unsynced watcher. */
export type SyncResult =
  | { events: WatchEvent[]; minRevision: number; synced: boolean }
  | WatchCanceled;

const ERR_COMPACTED = 'mvcc: required revision has been compacted';

/** client/v3 GetPrefixRangeEnd: the range end that selects every key starting with `prefix`. */
export function prefixRangeEnd(prefix: string): string {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return '\0';
}

/** The events a watch created now receives at once, or its cancellation. */
export function watchEvents(history: History, request: WatchRequest): WatchResult {
  const start = effectiveStart(history, request);
  const stored = storedEvents(history, request, start);
  if (!stored) return canceled(history);
  return { events: shape(stored, request) };
}

/** One pass of syncWatchers over the watcher: at most `maxRevisions` revisions of events. */
export function syncWatcher(history: History, request: WatchRequest, maxRevisions: number): SyncResult {
  const start = effectiveStart(history, request);
  const stored = storedEvents(history, request, start);
  if (!stored) return canceled(history);
  if (start > history.currentRevision) return { events: [], minRevision: start, synced: true };
  const taken: WatchEvent[] = [];
  let revisions = 0;
  for (const ev of stored) {
    const last = taken[taken.length - 1];
    if (!last || ev.kv.modRevision > last.kv.modRevision) {
      revisions++;
      if (revisions > maxRevisions) return { events: shape(taken, request), minRevision: ev.kv.modRevision, synced: false };
    }
    taken.push(ev);
  }
  return { events: shape(taken, request), minRevision: history.currentRevision + 1, synced: true };
}

function effectiveStart(history: History, request: WatchRequest): number {
  const s = request.startRevision ?? 0;
  return s > 0 ? s : history.currentRevision + 1;
}

function canceled(history: History): WatchCanceled {
  return { canceled: true, compactRevision: history.compactRevision, cancelReason: ERR_COMPACTED };
}

function inRange(key: string, request: WatchRequest): boolean {
  const end = request.rangeEnd ?? '';
  if (end === '') return key === request.key;
  if (key < request.key) return false;
  return end === '\0' || key < end;
}

/**
 * What the store still has for this range from `start` on, every event with its prevKv, in
 * revision order and, within a revision, in the order of its changes. undefined: compacted.
 */
function storedEvents(history: History, request: WatchRequest, start: number): WatchEvent[] | undefined {
  const compact = history.compactRevision;
  if (start > history.currentRevision) return [];
  if (start < compact) return undefined;
  const live = new Map<string, KeyValue>();
  const out: WatchEvent[] = [];
  for (const rev of history.revisions) {
    for (const ch of rev.changes) {
      const prev = live.get(ch.key);
      let kv: KeyValue;
      if (ch.type === 'PUT') {
        kv = {
          key: ch.key,
          createRevision: prev ? prev.createRevision : rev.revision,
          modRevision: rev.revision,
          version: prev ? prev.version + 1 : 1,
          value: ch.value ?? '',
        };
        live.set(ch.key, kv);
      } else {
        kv = { key: ch.key, createRevision: 0, modRevision: rev.revision, version: 0, value: '' };
        live.delete(ch.key);
      }
      if (rev.revision < start || !inRange(ch.key, request)) continue;
      // Compaction at C kept each key only as it was at C: a delete at C is gone, and so is
      // everything before C (no prevKv for a change at C).
      if (rev.revision === compact) {
        if (ch.type === 'PUT') out.push({ type: 'PUT', kv });
        continue;
      }
      out.push(prev ? { type: ch.type, kv, prevKv: prev } : { type: ch.type, kv });
    }
  }
  return out;
}

/** The events as this watcher asked for them: filters, and prevKv only when asked. */
function shape(events: WatchEvent[], request: WatchRequest): WatchEvent[] {
  const out: WatchEvent[] = [];
  for (const ev of events) {
    if ((ev.type === 'PUT' && request.noPut) || (ev.type === 'DELETE' && request.noDelete)) continue;
    out.push(request.prevKv && ev.prevKv ? ev : { type: ev.type, kv: ev.kv });
  }
  return out;
}
