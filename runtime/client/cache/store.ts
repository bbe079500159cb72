/**
 * An indexed local cache of objects, mirroring client-go tools/cache store.go, index.go and
 * thread_safe_store.go. Objects are keyed "namespace/name" (or "name" for cluster-scoped kinds,
 * MetaNamespaceKeyFunc); indexers map an object to index values (e.g. by namespace or node name)
 * so listers can answer "pods on node-1" without scanning everything.
 */
import type { KubeObject } from '../../api/index.ts';

export type IndexFunc<T> = (obj: T) => readonly string[];

/** MetaNamespaceKeyFunc: the key informers, listers and work queues use for an object. */
export function metaNamespaceKey(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  if (!name) throw new Error('invariant violated: an object in a cache must have metadata.name');
  return namespace ? `${namespace}/${name}` : name;
}

/** SplitMetaNamespaceKey. */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export const NAMESPACE_INDEX = 'namespace';
export const namespaceIndexFunc: IndexFunc<KubeObject> = (obj) => [obj.metadata.namespace ?? ''];

export class Indexer<T extends KubeObject> {
  private readonly items = new Map<string, T>();
  /** index name -> index value -> keys */
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  private readonly indexers: Record<string, IndexFunc<T>>;

  constructor(indexers: Record<string, IndexFunc<T>> = {}) {
    this.indexers = { ...indexers };
    for (const name of Object.keys(indexers)) this.indices.set(name, new Map());
  }

  hasIndex(name: string): boolean {
    return this.indices.has(name);
  }

  /**
   * AddIndexers: registers more indexes and indexes what is already stored (client-go allows this
   * on a running informer). A name already registered is a conflict, as in client-go.
   */
  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    for (const name of Object.keys(indexers)) {
      if (this.indices.has(name)) throw new Error(`invariant violated: indexer conflict: ${name} is already registered`);
    }
    const added = Object.entries(indexers);
    for (const [name, fn] of added) {
      this.indexers[name] = fn;
      const index = new Map<string, Set<string>>();
      this.indices.set(name, index);
      for (const [key, obj] of this.items) {
        for (const value of fn(obj)) {
          let keys = index.get(value);
          if (!keys) index.set(value, (keys = new Set()));
          keys.add(key);
        }
      }
    }
  }

  get size(): number {
    return this.items.size;
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  /** Adds or replaces the object under its key; returns the previous one. */
  upsert(obj: T): T | undefined {
    const key = metaNamespaceKey(obj);
    const old = this.items.get(key);
    this.items.set(key, obj);
    if (old) this.reindex(key, old, obj);
    else this.index(key, obj);
    return old;
  }

  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  /** Objects whose indexName index yields value. Throws for an index that was never registered. */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`invariant violated: index "${indexName}" does not exist`);
    const keys = index.get(value);
    return keys ? [...keys].map((k) => this.items.get(k)!) : [];
  }

  private index(key: string, obj: T): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      const index = this.indices.get(name)!;
      for (const value of fn(obj)) {
        let keys = index.get(value);
        if (!keys) index.set(value, (keys = new Set()));
        keys.add(key);
      }
    }
  }

  /**
   * updateIndices for a replaced object. An index whose single value did not change keeps its set
   * of keys (thread_safe_store.go updateSingleIndex skips it the same way) instead of emptying,
   * dropping and rebuilding it; the key still moves to the end of the set, as a removal and a new
   * insertion would leave it, so byIndex lists keys in the same order as before.
   */
  private reindex(key: string, old: T, obj: T): void {
    for (const name in this.indexers) {
      const fn = this.indexers[name]!;
      const before = fn(old);
      const after = fn(obj);
      const index = this.indices.get(name)!;
      if (before.length === 1 && after.length === 1 && before[0] === after[0]) {
        const keys = index.get(before[0]!);
        if (keys) {
          keys.delete(key);
          keys.add(key);
          continue;
        }
      }
      for (const value of before) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
      for (const value of after) {
        let keys = index.get(value);
        if (!keys) index.set(value, (keys = new Set()));
        keys.add(key);
      }
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      const index = this.indices.get(name)!;
      for (const value of fn(obj)) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  }
}
