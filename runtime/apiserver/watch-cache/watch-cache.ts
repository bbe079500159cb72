// The watch cache of one resource: a single etcd watch on the resource's prefix feeds an
// in-memory copy of every object plus a bounded window of recent events, and fans events out to
// any number of API watchers, each filtered by its own selectors.
// mirrors staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go and watch_cache.go:
// - a watch from resourceVersion N replays window events newer than N; if N is older than the
//   window, the watcher gets ERROR 410 Expired "too old resource version: N (oldest-1)";
// - a watch from "" or "0" starts with a synthetic ADDED per current object;
// - an object that stops (starts) matching a watcher's selectors is sent to it as DELETED (ADDED);
// - watchers that allow bookmarks get a BOOKMARK with the cache's resourceVersion periodically.
import {
  apiVersionOf, newResourceExpired, tooOldResourceVersion, type KubeObject, type ResourceInfo,
} from '../../api/index.ts';
import type { EtcdClient, WatchEvent as EtcdEvent, WatchHandle as EtcdWatchHandle } from '../../etcd/index.ts';
import { prefixEnd } from '../../etcd/index.ts';
import { decodeShared } from '../encoding.ts';
import type { ApiWatchEvent } from '../request.ts';
import { storagePrefix } from '../resources.ts';
import { EventRing } from './event-ring.ts';
import { matches, type Predicate } from './filter.ts';
import { KeyIndex, pinnedValue, triggerFor, WatcherIndex, type Trigger } from './triggers.ts';

export interface CacheClock {
  now(): number;
  setTimer(delayMs: number, fn: () => void): { cancel(): void };
}

export interface WatchCacheOptions {
  /**
   * A fixed number of events kept for resumption. Unset: the window sizes itself as upstream's does,
   * between 100 and 102,400 events, to keep about 75 s of history (event-ring.ts).
   */
  capacity?: number;
  /** How often watchers that allow bookmarks get one (simulated ms). */
  bookmarkIntervalMs?: number;
}

interface CachedEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject;
  prevObject?: KubeObject;
  rv: number;
  /** Simulated time the cache recorded it (watchCacheEvent.RecordTime), for the window's sizing. */
  recordMs: number;
}

interface Watcher {
  id: number;
  predicate: Predicate;
  sink: (ev: ApiWatchEvent) => void;
  bookmarks: boolean;
}

export const DEFAULT_BOOKMARK_INTERVAL_MS = 60_000;
const RELIST_BACKOFF_MS = 1000;

export class WatchCache {
  private readonly objects = new Map<string, KubeObject>();
  private readonly recent: EventRing<CachedEvent>;
  private rv = 0;
  private changeCount = 0;
  private listRv = 0;
  private ready = false;
  private readonly watchers: WatcherIndex<Watcher>;
  private readonly trigger: Trigger | undefined;
  private readonly keysByTrigger: KeyIndex | undefined;
  /** Keys of `objects` in order, rebuilt only after a key was added or removed. */
  private sortedKeys: string[] | undefined;
  private nextWatcherId = 1;
  private etcdWatch: EtcdWatchHandle | undefined;
  private readonly readyCallbacks: (() => void)[] = [];
  private stopped = false;
  private readonly bookmarkIntervalMs: number;
  private readonly prefix: string;
  /** When the cache was made: it waits for its first list from then (ready.go lastStateChangeTime). */
  private readonly createdAtMs: number;

  constructor(
    readonly resource: ResourceInfo,
    private readonly etcd: EtcdClient,
    private readonly clock: CacheClock,
    options: WatchCacheOptions = {},
  ) {
    this.recent = options.capacity === undefined ? new EventRing() : new EventRing(options.capacity, options.capacity);
    this.bookmarkIntervalMs = options.bookmarkIntervalMs ?? DEFAULT_BOOKMARK_INTERVAL_MS;
    this.prefix = `${storagePrefix(resource)}/`;
    this.trigger = triggerFor(resource.kind);
    this.watchers = new WatcherIndex(this.trigger);
    this.keysByTrigger = this.trigger && new KeyIndex(this.trigger);
    this.createdAtMs = clock.now();
  }

  /** How long the cache has been waiting for its first list (0 once ready): ready.go check's downtime. */
  unreadyForMs(nowMs: number): number {
    return this.ready ? 0 : nowMs - this.createdAtMs;
  }

  get isReady(): boolean {
    return this.ready;
  }

  get resourceVersion(): number {
    return this.rv;
  }

  /** Grows by one whenever the cached objects may have changed (an applied event or a relist). */
  get changes(): number {
    return this.changeCount;
  }

  /** Lists the prefix, then watches from the list revision + 1. */
  start(): void {
    if (this.stopped) return;
    this.etcd.range({ key: this.prefix, rangeEnd: prefixEnd(this.prefix) }, (r) => {
      if (this.stopped) return;
      if (!r.ok) {
        this.clock.setTimer(RELIST_BACKOFF_MS, () => this.start());
        return;
      }
      this.changeCount++;
      this.objects.clear();
      this.keysByTrigger?.clear();
      this.sortedKeys = undefined;
      for (const kv of r.value.kvs) {
        const o = decodeShared(kv.value, kv.modRevision);
        if (o) this.setObject(kv.key, o, undefined);
      }
      this.rv = r.value.header.revision;
      this.listRv = this.rv;
      this.recent.clear();
      this.openWatch(this.rv + 1);
      if (!this.ready) {
        this.ready = true;
        this.scheduleBookmarks();
        for (const cb of this.readyCallbacks.splice(0)) cb();
      }
    });
  }

  stop(): void {
    this.stopped = true;
    this.etcdWatch?.cancel();
    for (const w of this.watchers.values()) w.sink({ type: 'ERROR', object: newResourceExpired('watch cache stopped') });
    this.watchers.clear();
  }

  onReady(cb: () => void): void {
    if (this.ready) cb();
    else this.readyCallbacks.push(cb);
  }

  /** Every cached object matching `p`, in key order. */
  list(p: Predicate): KubeObject[] {
    const pinned = this.keysByTrigger && pinnedValue(this.trigger, p);
    const keys = pinned !== undefined ? this.keysByTrigger!.keys(pinned).sort() : this.keysInOrder();
    const out: KubeObject[] = [];
    for (const k of keys) {
      const o = this.objects.get(k)!;
      if (matches(p, o)) out.push(o);
    }
    return out;
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  /**
   * Starts a watcher. resourceVersion "" or "0": synthetic ADDED events for the current state,
   * then changes; otherwise changes after that revision (or ERROR 410 if it left the window).
   * Returns a cancel function.
   */
  watch(p: Predicate, resourceVersion: number | undefined, bookmarks: boolean, sink: (ev: ApiWatchEvent) => void): () => void {
    const id = this.nextWatcherId++;
    if (resourceVersion === undefined || resourceVersion === 0) {
      for (const o of this.list(p)) sink({ type: 'ADDED', object: o });
    } else {
      // getAllEventsSinceLocked: while no event has left the window since the list, the window
      // reaches back to the list itself; after that, to its oldest event
      const oldest = this.recent.evicted ? (this.recent.oldestRevision ?? this.listRv + 1) : this.listRv + 1;
      if (resourceVersion < oldest - 1) {
        sink({ type: 'ERROR', object: newResourceExpired(tooOldResourceVersion(resourceVersion, oldest - 1)) });
        return () => {};
      }
      for (const ev of this.recent.after(resourceVersion)) this.deliver({ id, predicate: p, sink, bookmarks }, ev);
    }
    this.watchers.add({ id, predicate: p, sink, bookmarks });
    return () => {
      this.watchers.delete(id);
    };
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  private openWatch(fromRevision: number): void {
    this.etcdWatch?.cancel();
    const handle = this.etcd.watch({ key: this.prefix, rangeEnd: prefixEnd(this.prefix), startRevision: fromRevision, prevKv: true }, (resp) => {
      if (this.stopped || this.etcdWatch !== handle) return;
      if (resp.canceled) {
        // compacted past us (or the server canceled): relist, as the cacher's reflector does
        this.etcdWatch = undefined;
        this.clock.setTimer(RELIST_BACKOFF_MS, () => this.start());
        return;
      }
      for (const ev of resp.events) this.apply(ev);
      if (resp.events.length === 0 && !resp.created && resp.header.revision > this.rv) this.rv = resp.header.revision;
    });
    this.etcdWatch = handle;
  }

  private apply(ev: EtcdEvent): void {
    const rv = ev.kv.modRevision;
    if (rv <= this.rv) return; // a duplicate after the client re-opened the watch
    this.changeCount++;
    const prev = this.objects.get(ev.kv.key);
    let cached: CachedEvent;
    if (ev.type === 'DELETE') {
      const last = prev ?? (ev.prevKv ? decodeShared(ev.prevKv.value, ev.prevKv.modRevision) : undefined);
      if (prev) this.deleteObject(ev.kv.key, prev);
      this.rv = rv;
      if (!last) return;
      cached = { type: 'DELETED', object: { ...last, metadata: { ...last.metadata, resourceVersion: String(rv) } }, prevObject: last, rv, recordMs: this.clock.now() };
    } else {
      const obj = decodeShared(ev.kv.value, rv);
      this.rv = rv;
      if (!obj) return;
      this.setObject(ev.kv.key, obj, prev);
      const recordMs = this.clock.now();
      cached = prev ? { type: 'MODIFIED', object: obj, prevObject: prev, rv, recordMs } : { type: 'ADDED', object: obj, rv, recordMs };
    }
    this.recent.push(cached);
    for (const w of this.watchers.candidates(cached.object, cached.prevObject)) this.deliver(w, cached);
  }

  private setObject(key: string, obj: KubeObject, prev: KubeObject | undefined): void {
    if (!prev) this.sortedKeys = undefined;
    this.objects.set(key, obj);
    this.keysByTrigger?.update(key, obj, prev);
  }

  private deleteObject(key: string, prev: KubeObject): void {
    this.sortedKeys = undefined;
    this.objects.delete(key);
    this.keysByTrigger?.update(key, undefined, prev);
  }

  private keysInOrder(): string[] {
    return (this.sortedKeys ??= [...this.objects.keys()].sort());
  }

  /** Sends one event to one watcher, turning selector transitions into ADDED / DELETED. */
  private deliver(w: Watcher, ev: CachedEvent): void {
    const now = matches(w.predicate, ev.object);
    const before = ev.prevObject !== undefined && matches(w.predicate, ev.prevObject);
    if (ev.type === 'ADDED') {
      if (now) w.sink({ type: 'ADDED', object: ev.object });
    } else if (ev.type === 'DELETED') {
      if (before) w.sink({ type: 'DELETED', object: ev.object });
    } else if (now && before) {
      w.sink({ type: 'MODIFIED', object: ev.object });
    } else if (now) {
      w.sink({ type: 'ADDED', object: ev.object });
    } else if (before) {
      w.sink({ type: 'DELETED', object: ev.object });
    }
  }

  private scheduleBookmarks(): void {
    this.clock.setTimer(this.bookmarkIntervalMs, () => {
      if (this.stopped) return;
      const bookmark: KubeObject = {
        apiVersion: apiVersionOf(this.resource),
        kind: this.resource.kind,
        metadata: { resourceVersion: String(this.rv) },
      };
      for (const w of [...this.watchers.values()]) if (w.bookmarks) w.sink({ type: 'BOOKMARK', object: bookmark });
      this.scheduleBookmarks();
    });
  }
}
