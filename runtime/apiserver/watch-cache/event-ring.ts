// The watch cache's window of recent events, in a ring buffer whose capacity follows the event rate.
// mirrors staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go (resizeCacheLocked): the
// window starts at 100 events (defaultLowerBoundCapacity); when it is full and its oldest event is
// younger than eventFreshDuration (75 s), it doubles, up to 100 * 1024 (defaultUpperBoundCapacity);
// when it is full and even the event a quarter of the window back from the newest is older than that,
// it halves, down to 100. So a burst of writes keeps 75 s of history for watchers to resume from, and a
// quiet resource keeps a small window.

export const LOWER_BOUND_CAPACITY = 100;
export const UPPER_BOUND_CAPACITY = 100 * 1024;
/** DefaultEventFreshDuration: how much history the cache tries to keep (simulated ms). */
export const EVENT_FRESH_DURATION_MS = 75_000;

interface Timed {
  rv: number;
  recordMs: number;
}

export class EventRing<E extends Timed> {
  private buf: (E | undefined)[];
  /** Index in `buf` of the oldest event. */
  private start = 0;
  private count = 0;
  /** Whether an event was dropped since the last clear() (the window no longer starts at the list). */
  private dropped = false;

  constructor(
    private readonly lowerBound = LOWER_BOUND_CAPACITY,
    private readonly upperBound = UPPER_BOUND_CAPACITY,
    private readonly freshMs = EVENT_FRESH_DURATION_MS,
  ) {
    if (lowerBound < 1 || upperBound < lowerBound) throw new Error('invariant violated: 1 <= lower bound <= upper bound of the watch cache window');
    this.buf = new Array<E | undefined>(lowerBound);
  }

  get capacity(): number {
    return this.buf.length;
  }

  get size(): number {
    return this.count;
  }

  /** Whether any event has left the window since the last clear(). */
  get evicted(): boolean {
    return this.dropped;
  }

  /** The revision of the oldest event kept, or undefined when empty. */
  get oldestRevision(): number | undefined {
    return this.count === 0 ? undefined : this.at(0).rv;
  }

  clear(): void {
    this.buf = new Array<E | undefined>(this.lowerBound);
    this.start = 0;
    this.count = 0;
    this.dropped = false;
  }

  /** Adds the newest event (its rv above every kept one), resizing first as watch_cache.go does. */
  push(ev: E): void {
    this.resize(ev.recordMs);
    if (this.count === this.buf.length) {
      this.dropped = true;
      this.buf[this.start] = undefined;
      this.start = (this.start + 1) % this.buf.length;
      this.count--;
    }
    this.buf[(this.start + this.count) % this.buf.length] = ev;
    this.count++;
  }

  /** Events with rv > `revision`, oldest first. */
  *after(revision: number): Generator<E> {
    // binary search for the first event newer than `revision`
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).rv > revision) hi = mid;
      else lo = mid + 1;
    }
    for (let i = lo; i < this.count; i++) yield this.at(i);
  }

  private at(i: number): E {
    return this.buf[(this.start + i) % this.buf.length]!;
  }

  private resize(nowMs: number): void {
    if (this.count < this.buf.length) return;
    const capacity = this.buf.length;
    if (nowMs - this.at(0).recordMs < this.freshMs) {
      if (capacity < this.upperBound) this.reallocate(Math.min(capacity * 2, this.upperBound));
      return;
    }
    if (nowMs - this.at(this.count - Math.floor(capacity / 4)).recordMs > this.freshMs && capacity > this.lowerBound) {
      this.reallocate(Math.max(Math.floor(capacity / 2), this.lowerBound));
    }
  }

  /** doCacheResizeLocked: keep the newest events that fit. */
  private reallocate(capacity: number): void {
    const keep = Math.min(this.count, capacity);
    if (keep < this.count) this.dropped = true;
    const next = new Array<E | undefined>(capacity);
    for (let i = 0; i < keep; i++) next[i] = this.at(this.count - keep + i);
    this.buf = next;
    this.start = 0;
    this.count = keep;
  }
}
