/**
 * A shared informer: one reflector feeding one indexed cache, with event handlers and a lister,
 * mirroring client-go tools/cache/shared_informer.go. Handlers see onAdd / onUpdate(old, new) /
 * onDelete; a relist that finds an object gone delivers a DeletedFinalStateUnknown tombstone, and
 * every resyncPeriodMs all cached objects are re-delivered as updates (level-triggered controllers
 * use this to reconcile even when nothing changed).
 */
import type { KubeObject } from '../../api/index.ts';
import type { TimerHandle } from '../../kernel/index.ts';
import type { QueueClock } from '../workqueue/rate-limiting-queue.ts';
import type { ListerWatcher } from './list-watch.ts';
import { Reflector, type ReflectorOptions, type ReflectorSink } from './reflector.ts';
import {
  Indexer,
  NAMESPACE_INDEX,
  metaNamespaceKey,
  namespaceIndexFunc,
  type IndexFunc,
} from './store.ts';

/** What onDelete receives when the informer missed the deletion itself (it saw it by relisting). */
export interface DeletedFinalStateUnknown<T> {
  key: string;
  obj: T;
}

export interface EventHandlers<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

export interface InformerOptions<T> extends ReflectorOptions {
  /** Re-deliver every cached object as an update this often (0: never). */
  resyncPeriodMs?: number;
  /** Extra indexes (a namespace index is always present). */
  indexers?: Record<string, IndexFunc<T>>;
}

/** Read-only access to the cache, as client-go listers give controllers. */
export interface Lister<T> {
  get(namespace: string, name: string): T | undefined;
  list(filter?: (obj: T) => boolean): T[];
  listInNamespace(namespace: string, filter?: (obj: T) => boolean): T[];
  byIndex(indexName: string, value: string): T[];
}

export function isTombstone<T>(
  obj: T | DeletedFinalStateUnknown<T>,
): obj is DeletedFinalStateUnknown<T> {
  return (
    typeof obj === 'object' && obj !== null && 'key' in obj && 'obj' in obj && !('metadata' in obj)
  );
}

export class SharedInformer<T extends KubeObject> implements ReflectorSink<T> {
  private readonly cache: Indexer<T>;
  private readonly handlers: EventHandlers<T>[] = [];
  private readonly reflector: Reflector<T>;
  private resyncTimer: TimerHandle | null = null;

  constructor(
    private readonly clock: QueueClock & { every(intervalMs: number, fn: () => void): TimerHandle },
    lw: ListerWatcher<T>,
    private readonly options: InformerOptions<T> = {},
  ) {
    this.cache = new Indexer<T>({ [NAMESPACE_INDEX]: namespaceIndexFunc, ...options.indexers });
    this.reflector = new Reflector(clock, lw, this, options);
  }

  /** AddIndexers: more indexes on a shared (maybe running) informer; a name already there is a conflict. */
  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    this.cache.addIndexers(indexers);
  }

  hasIndex(name: string): boolean {
    return this.cache.hasIndex(name);
  }

  addEventHandler(handlers: EventHandlers<T>): void {
    this.handlers.push(handlers);
    // client-go replays the current cache to a handler added late, as adds.
    for (const obj of this.cache.list()) handlers.onAdd?.(obj);
  }

  get hasSynced(): boolean {
    return this.reflector.hasSynced;
  }

  get lastResourceVersion(): string {
    return this.reflector.lastResourceVersion;
  }

  readonly lister: Lister<T> = {
    get: (namespace, name) => this.cache.get(namespace ? `${namespace}/${name}` : name),
    list: (filter) => (filter ? this.cache.list().filter(filter) : this.cache.list()),
    listInNamespace: (namespace, filter) => {
      const items = this.cache.byIndex(NAMESPACE_INDEX, namespace);
      return filter ? items.filter(filter) : items;
    },
    byIndex: (indexName, value) => this.cache.byIndex(indexName, value),
  };

  start(): void {
    this.reflector.start();
    const period = this.options.resyncPeriodMs ?? 0;
    if (period > 0 && !this.resyncTimer) {
      this.resyncTimer = this.clock.every(period, () => this.resync());
    }
  }

  stop(): void {
    this.reflector.stop();
    this.resyncTimer?.cancel();
    this.resyncTimer = null;
  }

  replace(items: T[], _resourceVersion: string): void {
    const seen = new Set<string>();
    for (const obj of items) {
      seen.add(metaNamespaceKey(obj));
      this.upsert(obj);
    }
    for (const key of this.cache.keys()) {
      if (seen.has(key)) continue;
      const old = this.cache.delete(key)!;
      for (const h of this.handlers) h.onDelete?.({ key, obj: old });
    }
  }

  apply(event: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T }): void {
    if (event.type === 'DELETED') {
      const old = this.cache.delete(metaNamespaceKey(event.object));
      if (old) for (const h of this.handlers) h.onDelete?.(event.object);
      return;
    }
    this.upsert(event.object);
  }

  private upsert(obj: T): void {
    const old = this.cache.upsert(obj);
    for (const h of this.handlers) {
      if (old) h.onUpdate?.(old, obj);
      else h.onAdd?.(obj);
    }
  }

  private resync(): void {
    for (const obj of this.cache.list()) for (const h of this.handlers) h.onUpdate?.(obj, obj);
  }
}
