// Watchers over one member's applied store.
// mirrors server/storage/mvcc/watchable_store.go: a watcher that starts in the past first replays
// history from its start revision ("unsynced"), then receives every new write as it is applied
// ("synced"). Events arrive in revision order with no gaps or duplicates; a start revision older
// than the compaction point cancels the watch with the compact revision, so the client can
// re-list and resume.
import { MVCC_COMPACTED } from '../errors.ts';
import { inRange, prefixEnd } from './keys.ts';
import type { MvccStore } from './store.ts';
import type { WatchEvent } from './types.ts';

export interface WatchRequest {
  key: string;
  rangeEnd?: string;
  /** First revision to deliver (inclusive); 0 or absent means "from the next write". */
  startRevision?: number;
  prevKv?: boolean;
  noPut?: boolean;
  noDelete?: boolean;
}

/** mirrors etcdserverpb.WatchResponse (the header revision is `revision`). */
export interface WatchResponse {
  watchId: number;
  revision: number;
  events: WatchEvent[];
  created?: boolean;
  canceled?: boolean;
  cancelReason?: string;
  /** Set when the watch was canceled because its start revision was compacted. */
  compactRevision?: number;
  progressNotify?: boolean;
}

export type WatchSink = (response: WatchResponse) => void;

interface Watcher {
  id: number;
  req: WatchRequest;
  /** Writes below this revision are not delivered (a watcher resumed on a member that lags). */
  minRevision: number;
  sink: WatchSink;
  /** Set when the range is "every key with this prefix" (an ASCII prefix): a startsWith test suffices. */
  prefix: string | undefined;
}

/**
 * The prefix when [key, rangeEnd) is exactly the keys starting with `key`: rangeEnd is prefixEnd(key)
 * and key's last unit is ASCII, so no surrogate ordering can tell the two tests apart.
 */
function prefixOf(req: WatchRequest): string | undefined {
  const last = req.key.charCodeAt(req.key.length - 1);
  return req.key !== '' && last < 0x7f && req.rangeEnd === prefixEnd(req.key) ? req.key : undefined;
}

export class WatchHub {
  private readonly watchers = new Map<number, Watcher>();
  private nextId = 0;
  private readonly unsubscribe: () => void;

  constructor(private readonly store: MvccStore) {
    this.unsubscribe = store.subscribe((events, revision) => this.onWrite(events, revision));
  }

  /** Starts a watcher; returns its ID. The sink receives `created` first, then events. */
  watch(req: WatchRequest, sink: WatchSink): number {
    const id = this.nextId++;
    const current = this.store.revision;
    sink({ watchId: id, revision: current, events: [], created: true });
    const start = req.startRevision && req.startRevision > 0 ? req.startRevision : current + 1;
    if (start <= current) {
      const history = this.store.eventsSince(start, req.key, req.rangeEnd);
      if (!history.ok) {
        sink({
          watchId: id, revision: current, events: [], canceled: true,
          compactRevision: this.store.compactRevision, cancelReason: MVCC_COMPACTED,
        });
        return id;
      }
      const events = shape(history.value, req);
      if (events.length > 0) sink({ watchId: id, revision: current, events });
    }
    this.watchers.set(id, { id, req, sink, minRevision: start, prefix: prefixOf(req) });
    return id;
  }

  cancel(id: number): boolean {
    const w = this.watchers.get(id);
    if (!w) return false;
    this.watchers.delete(id);
    w.sink({ watchId: id, revision: this.store.revision, events: [], canceled: true });
    return true;
  }

  /** A progress notification to one watcher: "you have seen everything up to this revision". */
  progress(id: number): void {
    const w = this.watchers.get(id);
    if (w) w.sink({ watchId: id, revision: this.store.revision, events: [], progressNotify: true });
  }

  /** A progress notification to every watcher: "you have seen everything up to this revision". */
  progressAll(): void {
    for (const w of this.watchers.values()) {
      w.sink({ watchId: w.id, revision: this.store.revision, events: [], progressNotify: true });
    }
  }

  get size(): number {
    return this.watchers.size;
  }

  /** Drops every watcher without telling it (the member stopped; clients notice the broken stream). */
  close(): void {
    this.watchers.clear();
    this.unsubscribe();
  }

  private onWrite(events: readonly WatchEvent[], revision: number): void {
    for (const w of this.watchers.values()) {
      if (revision < w.minRevision) continue;
      // most watchers see none of a write's events: allocate only for the ones that do
      let mine: WatchEvent[] | undefined;
      for (const ev of events) {
        const key = ev.kv.key;
        if (w.prefix !== undefined ? !key.startsWith(w.prefix) : !inRange(key, w.req.key, w.req.rangeEnd)) continue;
        const shaped = shapeOne(ev, w.req);
        if (shaped) (mine ??= []).push(shaped);
      }
      if (mine) w.sink({ watchId: w.id, revision, events: mine });
    }
  }
}

function shape(events: readonly WatchEvent[], req: WatchRequest): WatchEvent[] {
  const out: WatchEvent[] = [];
  for (const ev of events) {
    const shaped = shapeOne(ev, req);
    if (shaped) out.push(shaped);
  }
  return out;
}

/** One event as this watcher asked for it (filters noPut / noDelete, drops prevKv unless asked). */
function shapeOne(ev: WatchEvent, req: WatchRequest): WatchEvent | undefined {
  if ((ev.type === 'PUT' && req.noPut) || (ev.type === 'DELETE' && req.noDelete)) return undefined;
  return req.prevKv || !ev.prevKv ? ev : { type: ev.type, kv: ev.kv };
}
