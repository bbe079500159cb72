// The etcd-watch lab: serve a watch from a revision over the store's history, as etcd's MVCC
// layer does (the unsynced watcher catching up, the compaction check, key ranges, the events).
// Read lab.mdx first. Run the visible examples with `npm run grade -- etcd-watch --examples`;
// grade with `npm run grade -- etcd-watch`.
//
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

/** client/v3 GetPrefixRangeEnd: the range end that selects every key starting with `prefix`. */
export function prefixRangeEnd(prefix: string): string {
  // TODO: increment the last byte that is below 0xff and drop the bytes after it; none: '\0'.
  return prefix;
}

/** The events a watch created now receives at once, or its cancellation. */
export function watchEvents(history: History, request: WatchRequest): WatchResult {
  // TODO 1: the effective start revision (0 or less: from the next write) and the compaction check.
  // TODO 2: replay the history, keeping each key's createRevision and version, to build every event's kv and prevKv.
  // TODO 3: keep the events from the start revision on, in range, as the request asks (filters, prevKv).
  void history;
  void request;
  return { events: [] };
}

/** One pass of syncWatchers over the watcher: at most `maxRevisions` revisions of events. */
export function syncWatcher(history: History, request: WatchRequest, maxRevisions: number): SyncResult {
  // TODO: the events of at most maxRevisions revisions, then where the next pass starts.
  void maxRevisions;
  const first = watchEvents(history, request);
  if ('canceled' in first) return first;
  return { events: first.events, minRevision: history.currentRevision + 1, synced: true };
}

// A cheat, not a solution: it tries to turn failing assertions into passes by replacing the
// built-ins they rely on. The grader must still fail it (browser: SES lockdown; CLI: frozen built-ins).
try {
  (Object as unknown as { is: unknown }).is = () => true;
} catch {
  // frozen
}
try {
  const g = globalThis as unknown as Record<PropertyKey, { config?: unknown } | undefined>;
  const chai = g[Symbol.for('chai')];
  if (chai) chai.config = {};
} catch {
  // frozen
}
