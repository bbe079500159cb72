// A binary heap keyed by pod key, with removal by key (upstream's
// pkg/scheduler/backend/heap/heap.go: a heap plus an index from key to position).
export class KeyedHeap<T> {
  private readonly items: { key: string; value: T }[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i]!.value;
  }

  peek(): T | undefined {
    return this.items[0]?.value;
  }

  /** Adds or replaces the value for `key`. */
  push(key: string, value: T): void {
    const i = this.index.get(key);
    if (i !== undefined) {
      this.items[i]!.value = value;
      this.fix(i);
      return;
    }
    this.items.push({ key, value });
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  pop(): T | undefined {
    const top = this.items[0];
    if (!top) return undefined;
    this.removeAt(0);
    return top.value;
  }

  delete(key: string): T | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const v = this.items[i]!.value;
    this.removeAt(i);
    return v;
  }

  values(): T[] {
    return this.items.map((x) => x.value);
  }

  private removeAt(i: number): void {
    const last = this.items.length - 1;
    this.swap(i, last);
    const gone = this.items.pop()!;
    this.index.delete(gone.key);
    if (i < this.items.length) this.fix(i);
  }

  private fix(i: number): void {
    if (!this.down(i)) this.up(i);
  }

  private swap(i: number, j: number): void {
    const a = this.items[i]!;
    const b = this.items[j]!;
    this.items[i] = b;
    this.items[j] = a;
    this.index.set(b.key, i);
    this.index.set(a.key, j);
  }

  private up(i0: number): void {
    let i = i0;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.items[i]!.value, this.items[parent]!.value)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i0: number): boolean {
    let i = i0;
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const j = r < n && this.less(this.items[r]!.value, this.items[l]!.value) ? r : l;
      if (!this.less(this.items[j]!.value, this.items[i]!.value)) break;
      this.swap(i, j);
      i = j;
    }
    return i > i0;
  }
}
