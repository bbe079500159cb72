// Indexed triggers: which watchers and which cached objects an exact field value selects, so one
// event is offered to the watchers it can concern instead of to all of them, and a kubelet's list
// of its own pods does not scan every pod in the cluster.
// mirrors staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go (indexedTrigger,
// valueWatchers vs allWatchers in dispatchEvent) with the trigger functions the registries give:
// pkg/registry/core/pod/storage/storage.go ("spec.nodeName": NodeNameTriggerFunc) and, in the
// releases that had one, pkg/registry/core/node (metadata.name). Delivery order is unchanged:
// candidates are returned in watcher registration order.
import type { KubeObject } from '../../api/index.ts';
import type { Predicate } from './filter.ts';

export interface Trigger {
  field: string;
  valueOf(obj: KubeObject): string;
}

const TRIGGERS: Readonly<Record<string, Trigger>> = {
  Pod: { field: 'spec.nodeName', valueOf: (o) => String((o as { spec?: { nodeName?: unknown } }).spec?.nodeName ?? '') },
  Node: { field: 'metadata.name', valueOf: (o) => o.metadata.name ?? '' },
};

export function triggerFor(kind: string): Trigger | undefined {
  return TRIGGERS[kind];
}

/** The value a predicate pins the trigger field to, if it does (e.g. a kubelet's spec.nodeName=node-7). */
export function pinnedValue(trigger: Trigger | undefined, p: Predicate): string | undefined {
  return trigger && p.field ? p.field.requiresExactMatch(trigger.field) : undefined;
}

interface Indexed {
  id: number;
  predicate: Predicate;
}

/** The watchers of one cache, indexed by the trigger value their selector pins (if any). */
export class WatcherIndex<W extends Indexed> {
  private readonly all = new Map<number, W>();
  private readonly unpinned = new Map<number, W>();
  private readonly byValue = new Map<string, Map<number, W>>();

  constructor(private readonly trigger: Trigger | undefined) {}

  get size(): number {
    return this.all.size;
  }

  add(w: W): void {
    this.all.set(w.id, w);
    const v = pinnedValue(this.trigger, w.predicate);
    if (v === undefined) return void this.unpinned.set(w.id, w);
    let group = this.byValue.get(v);
    if (!group) this.byValue.set(v, (group = new Map()));
    group.set(w.id, w);
  }

  delete(id: number): void {
    const w = this.all.get(id);
    if (!w) return;
    this.all.delete(id);
    const v = pinnedValue(this.trigger, w.predicate);
    if (v === undefined) return void this.unpinned.delete(id);
    const group = this.byValue.get(v)!;
    group.delete(id);
    if (group.size === 0) this.byValue.delete(v);
  }

  clear(): void {
    this.all.clear();
    this.unpinned.clear();
    this.byValue.clear();
  }

  /** Every watcher, in registration order. */
  values(): W[] {
    return [...this.all.values()];
  }

  /** The watchers an event on `obj` (formerly `prev`) may concern, in registration order. */
  candidates(obj: KubeObject, prev: KubeObject | undefined): W[] {
    if (!this.trigger || this.byValue.size === 0) return [...this.all.values()];
    const now = this.byValue.get(this.trigger.valueOf(obj));
    const before = prev ? this.byValue.get(this.trigger.valueOf(prev)) : undefined;
    const out = [...this.unpinned.values()];
    if (!now && !before) return out;
    if (now) for (const w of now.values()) out.push(w);
    if (before && before !== now) for (const w of before.values()) out.push(w);
    return out.sort((a, b) => a.id - b.id);
  }
}

/** Keys of the cached objects, grouped by trigger value (cacher's storeIndexers for pods). */
export class KeyIndex {
  private readonly byValue = new Map<string, Set<string>>();

  constructor(private readonly trigger: Trigger) {}

  clear(): void {
    this.byValue.clear();
  }

  /** Records that `key` now holds `obj` (undefined: deleted), having held `prev`. */
  update(key: string, obj: KubeObject | undefined, prev: KubeObject | undefined): void {
    const was = prev && this.trigger.valueOf(prev);
    const now = obj && this.trigger.valueOf(obj);
    if (was === now) return;
    if (was !== undefined) {
      const set = this.byValue.get(was);
      set?.delete(key);
      if (set?.size === 0) this.byValue.delete(was);
    }
    if (now !== undefined) {
      let set = this.byValue.get(now);
      if (!set) this.byValue.set(now, (set = new Set()));
      set.add(key);
    }
  }

  keys(value: string): string[] {
    return [...(this.byValue.get(value) ?? [])];
  }
}
