// A Map bounded to its newest `max` entries: a new key past the bound pushes out the oldest one
// (insertion order, as Map iteration gives). The oldest key comes from a queue of the keys in
// insertion order, not from `map.keys().next()`: a Map iterator starts at the table's first slot
// and steps over every slot a delete emptied since the last rehash, so evicting that way walked
// ~half the table per insert (the request-ID window of 4,096 cost ~2.6% of the HA hour's CPU).
export class FifoMemo<K, V> {
  private readonly map = new Map<K, V>();
  /** Keys in insertion order from index `oldest` on (earlier slots are spent). */
  private order: (K | undefined)[] = [];
  private oldest = 0;

  constructor(readonly max: number) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Sets `key` (a known key keeps its place); a new key past `max` entries evicts the oldest. */
  set(key: K, value: V): void {
    const known = this.map.has(key);
    this.map.set(key, value);
    if (known) return;
    this.order.push(key);
    if (this.map.size <= this.max) return;
    this.map.delete(this.order[this.oldest]!);
    this.order[this.oldest++] = undefined;
    // drop the spent slots now and then (amortized O(1) per insert)
    if (this.oldest >= this.max) {
      this.order = this.order.slice(this.oldest);
      this.oldest = 0;
    }
  }

  /** The entries, oldest first. */
  entries(): [K, V][] {
    return [...this.map];
  }
}
