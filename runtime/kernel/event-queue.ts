/**
 * The kernel's event queue: a binary min-heap ordered by (time, insertion sequence), so events due
 * at the same millisecond run in the order they were scheduled (a stable, replayable order).
 * Cancelled events stay in the heap and are skipped when popped (lazy deletion keeps cancel O(1)).
 */

/** A scheduled call of `fn(arg)`. It doubles as the timer handle returned to callers. */
export class SimEvent {
  timeMs: number;
  seq: number;
  readonly fn: (arg: unknown) => void;
  /** Set once: at construction, or by a subclass that is its own argument (the network's envelopes). */
  arg: unknown;
  /** For `every` timers: the period; 0 for one-shot events. */
  readonly intervalMs: number;
  cancelled = false;

  constructor(
    timeMs: number,
    seq: number,
    fn: (arg: unknown) => void,
    arg: unknown,
    intervalMs: number,
  ) {
    this.timeMs = timeMs;
    this.seq = seq;
    this.fn = fn;
    this.arg = arg;
    this.intervalMs = intervalMs;
  }

  /**
   * Stops the event (and, for a periodic timer, all later firings). Idempotent. The event stays in
   * the heap until its time (lazy deletion), so it lets go of its argument now: a cancelled
   * deadline would otherwise keep its closure, and everything that closure captured, alive until
   * then (an etcd call's 5 s deadline held the whole call: request, callbacks, reply handler).
   */
  cancel(): void {
    this.cancelled = true;
    this.arg = undefined;
  }
}

function before(x: SimEvent, y: SimEvent): boolean {
  return x.timeMs < y.timeMs || (x.timeMs === y.timeMs && x.seq < y.seq);
}

export class EventQueue {
  private readonly heap: SimEvent[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(ev: SimEvent): void {
    const heap = this.heap;
    let i = heap.length;
    heap.push(ev);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent]!;
      if (!before(ev, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = ev;
  }

  /** The earliest event, or undefined when empty. Cancelled events are returned too. */
  peek(): SimEvent | undefined {
    return this.heap[0];
  }

  pop(): SimEvent | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    const n = heap.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let child = l;
      if (r < n && before(heap[r]!, heap[l]!)) child = r;
      const c = heap[child]!;
      if (!before(c, last)) break;
      heap[i] = c;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
