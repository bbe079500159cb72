import { describe, expect, it } from 'vitest';
import { EVENT_FRESH_DURATION_MS, EventRing, LOWER_BOUND_CAPACITY, UPPER_BOUND_CAPACITY } from './event-ring.ts';

// mirrors watch_cache_test.go TestCacheIncreaseDoesNotBreakWatch / TestDynamicCache: the window
// doubles while full of fresh events, halves when a quarter of it is stale, within its bounds.

type Ev = { rv: number; recordMs: number };
const fill = (w: EventRing<Ev>, from: number, n: number, atMs: (i: number) => number): void => {
  for (let i = 0; i < n; i++) w.push({ rv: from + i, recordMs: atMs(i) });
};
const revisions = (w: EventRing<Ev>, after = 0): number[] => [...w.after(after)].map((e) => e.rv);

describe('the watch cache event window (watch_cache.go resizeCacheLocked)', () => {
  it('has upstream bounds: 100 to 100 * 1024 events, 75 s of freshness', () => {
    expect([LOWER_BOUND_CAPACITY, UPPER_BOUND_CAPACITY, EVENT_FRESH_DURATION_MS]).toEqual([100, 102_400, 75_000]);
  });

  it.each([
    // [events, ms between events, capacity after, size after, oldest kept]
    [4, 0, 4, 4, 1], // not full yet
    [5, 0, 8, 5, 1], // full of fresh events: doubles
    [17, 0, 16, 16, 2], // at the upper bound: the oldest goes
    [10, 30_000, 4, 4, 7], // every event older than 75 s when the window fills: it stays small
  ])('%i events %i ms apart: capacity %i, size %i, oldest rv %i', (n, gapMs, capacity, size, oldest) => {
    const w = new EventRing<Ev>(4, 16);
    fill(w, 1, n, (i) => i * gapMs);
    expect(w.capacity).toBe(capacity);
    expect(w.size).toBe(size);
    expect(w.oldestRevision).toBe(oldest);
    expect(revisions(w)).toEqual(Array.from({ length: size }, (_, i) => oldest + i));
  });

  it('halves when the newest quarter is older than the fresh duration, down to the lower bound', () => {
    const w = new EventRing<Ev>(4, 16);
    fill(w, 1, 16, () => 0); // a burst grows it to 16
    expect(w.capacity).toBe(16);
    w.push({ rv: 17, recordMs: 100_000 }); // the event 4 back from the newest is 100 s old: 16 -> 8
    expect(w.capacity).toBe(8);
    expect(revisions(w)).toEqual([10, 11, 12, 13, 14, 15, 16, 17]);
    fill(w, 18, 20, (i) => 200_000 + i * 80_000); // a trickle: back to the lower bound
    expect(w.capacity).toBe(4);
    expect(revisions(w)).toEqual([34, 35, 36, 37]);
  });

  it('replays only events newer than a revision, from any point in the ring', () => {
    const w = new EventRing<Ev>(4, 4);
    fill(w, 1, 7, () => 0); // the ring wrapped: holds 4..7
    expect(revisions(w, 0)).toEqual([4, 5, 6, 7]);
    expect(revisions(w, 5)).toEqual([6, 7]);
    expect(revisions(w, 7)).toEqual([]);
  });

  it('starts over at the lower bound when cleared (a relist)', () => {
    const w = new EventRing<Ev>(4, 16);
    fill(w, 1, 10, () => 0);
    w.clear();
    expect([w.capacity, w.size, w.oldestRevision]).toEqual([4, 0, undefined]);
  });
});
