/**
 * The work queue's core, mirroring client-go util/workqueue/queue.go (Typed queue):
 * - `dirty`: items that need processing. Adding an item that is already dirty does nothing (dedup).
 * - `processing`: items a worker holds (between get() and done()). An item added while it is
 *   being processed is only marked dirty; done() puts it back in the queue. So the same key is
 *   never processed by two workers at once, and no update is ever lost.
 * The runtime is synchronous, so get() does not block: it returns undefined when the queue is
 * empty, and `onAvailable` tells the owner (a controller) that an item is ready to be taken.
 */
export class WorkQueue<T> {
  private readonly fifo: T[] = [];
  private head = 0;
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private shuttingDown = false;

  /** Called after an item becomes ready to get() (the owner schedules a worker). */
  onAvailable: (() => void) | null = null;

  /** Marks item as needing processing. */
  add(item: T): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.dirty.add(item);
    if (this.processing.has(item)) return; // done() will requeue it
    this.fifo.push(item);
    this.onAvailable?.();
  }

  /** Items waiting to be taken (not counting those being processed). */
  len(): number {
    return this.fifo.length - this.head;
  }

  /** Takes the next item, or undefined when none is ready. Call done(item) when finished. */
  get(): T | undefined {
    if (this.head === this.fifo.length) return undefined;
    const item = this.fifo[this.head++] as T;
    if (this.head > 1024 && this.head * 2 > this.fifo.length) {
      this.fifo.splice(0, this.head);
      this.head = 0;
    }
    this.processing.add(item);
    this.dirty.delete(item);
    return item;
  }

  /** Ends processing of item; if it was added again meanwhile, it goes back in the queue. */
  done(item: T): void {
    if (!this.processing.delete(item)) {
      throw new Error('invariant violated: done() called for an item that is not being processed');
    }
    if (this.dirty.has(item)) {
      this.fifo.push(item);
      this.onAvailable?.();
    }
  }

  isProcessing(item: T): boolean {
    return this.processing.has(item);
  }

  /** Stops accepting new items; items already queued can still be taken. */
  shutDown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }
}
