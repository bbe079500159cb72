// The EventCorrelator of client-go tools/record/events_cache.go: decides, before an event is
// written, whether it is new (create), a repeat of one already written (patch count and
// lastTimestamp), one of too many similar events (combine them), or spam (drop it).
// Pure bookkeeping over caches; the recorder does the API calls.
import type { CoreEvent } from '../../api/index.ts';

/** Similar events (same source, object, type, reason) allowed before messages are combined. */
export const MAX_SIMILAR_EVENTS = 10;
/** Window for counting similar events (events_cache.go defaultAggregateIntervalInSeconds). */
export const AGGREGATE_INTERVAL_MS = 600_000;
/** Spam filter token bucket: burst 25, one token back every 5 minutes (defaultSpamBurst/QPS). */
export const SPAM_BURST = 25;
export const SPAM_REFILL_MS = 300_000;
/** LRU sizes (maxLruCacheEntries = 4096). */
const MAX_CACHE_ENTRIES = 4096;

/** What the recorder should do with an event. */
export type Correlation =
  | { action: 'create'; event: CoreEvent; key: string }
  | { action: 'patch'; event: CoreEvent; key: string; patch: Record<string, unknown> }
  | { action: 'skip' };

interface Observed {
  count: number;
  firstTimestamp: string;
  name: string;
  resourceVersion: string;
}

/** A Map used as an LRU: re-inserting moves a key to the end, the oldest key is evicted. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
}

function refKey(e: CoreEvent): string[] {
  const o = e.involvedObject;
  return [e.source?.component ?? '', e.source?.host ?? '', o.kind ?? '', o.namespace ?? '', o.name ?? '', o.uid ?? '', o.apiVersion ?? ''];
}

/** events_cache.go getEventKey: everything that makes two events "the same". */
export function eventKey(e: CoreEvent): string {
  return [...refKey(e), e.involvedObject.fieldPath ?? '', e.type ?? '', e.reason ?? '', e.message ?? ''].join('');
}

/** EventAggregatorByReasonFunc: similar events differ only in their message. */
function aggregateKey(e: CoreEvent): string {
  return [...refKey(e), e.type ?? '', e.reason ?? '', e.reportingComponent ?? '', e.reportingInstance ?? ''].join('');
}

export class EventCorrelator {
  private readonly spam = new Lru<{ tokens: number; atMs: number }>(MAX_CACHE_ENTRIES);
  private readonly similar = new Lru<{ messages: Set<string>; lastMs: number }>(MAX_CACHE_ENTRIES);
  private readonly observed = new Lru<Observed>(MAX_CACHE_ENTRIES);

  /**
   * Correlates an event built at nowMs. `rename` gives a fresh event name when similar events
   * are combined into a new one.
   */
  correlate(event: CoreEvent, nowMs: number, timestamp: string, rename: () => string): Correlation {
    if (this.isSpam(event, nowMs)) return { action: 'skip' };
    const { event: aggregated, key } = this.aggregate(event, nowMs, timestamp, rename);
    const last = this.observed.get(key);
    if (!last) return { action: 'create', event: aggregated, key };
    const repeated: CoreEvent = {
      ...aggregated,
      metadata: { ...aggregated.metadata, name: last.name, resourceVersion: last.resourceVersion },
      count: last.count + 1,
      firstTimestamp: last.firstTimestamp,
    };
    // events_cache.go eventObserve: a two-way merge patch of count, lastTimestamp and message
    const patch: Record<string, unknown> = { count: repeated.count, lastTimestamp: repeated.lastTimestamp, message: repeated.message };
    return { action: 'patch', event: repeated, key, patch };
  }

  /** Records what the API server stored, so the next repeat patches it (updateState). */
  observe(key: string, stored: CoreEvent): void {
    this.observed.set(key, {
      count: stored.count ?? 1,
      firstTimestamp: stored.firstTimestamp ?? '',
      name: stored.metadata.name ?? '',
      resourceVersion: stored.metadata.resourceVersion ?? '',
    });
  }

  /** EventSourceObjectSpamFilter: a token bucket per source and object. */
  private isSpam(event: CoreEvent, nowMs: number): boolean {
    const key = [...refKey(event), event.type ?? ''].join('');
    const bucket = this.spam.get(key) ?? { tokens: SPAM_BURST, atMs: nowMs };
    const refilled = Math.floor((nowMs - bucket.atMs) / SPAM_REFILL_MS);
    const tokens = Math.min(SPAM_BURST, bucket.tokens + refilled);
    const atMs = refilled > 0 ? bucket.atMs + refilled * SPAM_REFILL_MS : bucket.atMs;
    if (tokens <= 0) {
      this.spam.set(key, { tokens, atMs });
      return true;
    }
    this.spam.set(key, { tokens: tokens - 1, atMs });
    return false;
  }

  /** EventAggregator.EventAggregate: past MAX_SIMILAR_EVENTS messages, combine into one event. */
  private aggregate(event: CoreEvent, nowMs: number, timestamp: string, rename: () => string): { event: CoreEvent; key: string } {
    const aKey = aggregateKey(event);
    let record = this.similar.get(aKey);
    if (!record || nowMs - record.lastMs > AGGREGATE_INTERVAL_MS) record = { messages: new Set(), lastMs: nowMs };
    record.messages.add(event.message ?? '');
    record.lastMs = nowMs;
    this.similar.set(aKey, record);
    if (record.messages.size < MAX_SIMILAR_EVENTS) return { event, key: eventKey(event) };
    // upstream pops one message so the set stays at the limit
    const first = record.messages.values().next().value as string;
    record.messages.delete(first);
    const combined: CoreEvent = {
      ...event,
      metadata: { ...event.metadata, name: rename() },
      message: `(combined from similar events): ${event.message ?? ''}`,
      count: 1,
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
    };
    return { event: combined, key: aKey };
  }
}
