// Go's sort.Sort (sort/zsortinterface.go since Go 1.19): pattern-defeating quicksort over a
// Less/Swap interface. kubectl's --sort-by uses it (sorter.go: sort.Sort on a RuntimeSort or a
// TableSorter), and it is not stable, so objects whose sort keys tie (events stamped in the same
// second) come out in the order this exact algorithm leaves them, which a stable sort would not
// reproduce beyond 12 items. The steps, thresholds and the xorshift pattern breaker are Go's.

export interface SortData {
  len: number;
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

/** choosePivot's guess about the range (Go's sortedHint). */
type Hint = 'unknown' | 'increasing' | 'decreasing';

/** sort.Sort(data). */
export function goSort(data: SortData): void {
  const n = data.len;
  if (n <= 1) return;
  pdqsort(data, 0, n, bitsLen(n));
}

/** Sorts `items` in place by `less`, as sort.Sort would with that Less, and returns them. */
export function goSortArray<T>(items: T[], less: (a: T, b: T) => boolean): T[] {
  goSort({
    len: items.length,
    less: (i, j) => less(items[i]!, items[j]!),
    swap: (i, j) => {
      const t = items[i]!;
      items[i] = items[j]!;
      items[j] = t;
    },
  });
  return items;
}

/** math/bits.Len: the bits needed to represent n (n >= 0, below 2^32). */
function bitsLen(n: number): number {
  return 32 - Math.clz32(n);
}

function insertionSort(data: SortData, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && data.less(j, j - 1); j--) data.swap(j, j - 1);
  }
}

function siftDown(data: SortData, lo: number, hi: number, first: number): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && data.less(first + child, first + child + 1)) child++;
    if (!data.less(first + root, first + child)) return;
    data.swap(first + root, first + child);
    root = child;
  }
}

function heapSort(data: SortData, a: number, b: number): void {
  const first = a;
  const hi = b - a;
  for (let i = Math.trunc((hi - 1) / 2); i >= 0; i--) siftDown(data, i, hi, first);
  for (let i = hi - 1; i >= 0; i--) {
    data.swap(first, first + i);
    siftDown(data, 0, i, first);
  }
}

function pdqsort(data: SortData, a: number, b: number, limit: number): void {
  const maxInsertion = 12;
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= maxInsertion) return insertionSort(data, a, b);
    // too many bad pivots: heapsort bounds the worst case
    if (limit === 0) return heapSort(data, a, b);
    if (!wasBalanced) {
      breakPatterns(data, a, b);
      limit--;
    }
    let [pivot, hint] = choosePivot(data, a, b);
    if (hint === 'decreasing') {
      reverseRange(data, a, b);
      pivot = b - 1 - (pivot - a);
      hint = 'increasing';
    }
    // probably sorted already: a few shifts may finish it
    if (wasBalanced && wasPartitioned && hint === 'increasing' && partialInsertionSort(data, a, b)) return;
    // the pivot equals the element before this range: gather the run of equal elements
    if (a > 0 && !data.less(a - 1, pivot)) {
      a = partitionEqual(data, a, b, pivot);
      continue;
    }
    const [mid, alreadyPartitioned] = partition(data, a, b, pivot);
    wasPartitioned = alreadyPartitioned;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const balanceThreshold = Math.trunc(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold;
      pdqsort(data, a, mid, limit);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= balanceThreshold;
      pdqsort(data, mid + 1, b, limit);
      b = mid;
    }
  }
}

function partition(data: SortData, a: number, b: number, pivot: number): [number, boolean] {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && data.less(i, a)) i++;
  while (i <= j && !data.less(j, a)) j--;
  if (i > j) {
    data.swap(j, a);
    return [j, true];
  }
  data.swap(i, j);
  i++;
  j--;
  for (;;) {
    while (i <= j && data.less(i, a)) i++;
    while (i <= j && !data.less(j, a)) j--;
    if (i > j) break;
    data.swap(i, j);
    i++;
    j--;
  }
  data.swap(j, a);
  return [j, false];
}

function partitionEqual(data: SortData, a: number, b: number, pivot: number): number {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !data.less(a, i)) i++;
    while (i <= j && data.less(a, j)) j--;
    if (i > j) break;
    data.swap(i, j);
    i++;
    j--;
  }
  return i;
}

function partialInsertionSort(data: SortData, a: number, b: number): boolean {
  const maxSteps = 5;
  const shortestShifting = 50;
  let i = a + 1;
  for (let step = 0; step < maxSteps; step++) {
    while (i < b && !data.less(i, i - 1)) i++;
    if (i === b) return true;
    if (b - a < shortestShifting) return false;
    data.swap(i, i - 1);
    // shift the smaller one left (Go's loop runs down to index 1, not to a)
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1; j--) {
        if (!data.less(j, j - 1)) break;
        data.swap(j, j - 1);
      }
    }
    // and the greater one right
    if (b - i >= 2) {
      for (let j = i + 1; j < b; j++) {
        if (!data.less(j, j - 1)) break;
        data.swap(j, j - 1);
      }
    }
  }
  return false;
}

const MASK64 = (1n << 64n) - 1n;

/** Swaps three elements around the middle with pseudo-random others (xorshift 13/7/17 seeded by the length). */
function breakPatterns(data: SortData, a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  let random = BigInt(length);
  const modulus = 2 ** bitsLen(length);
  const start = a + Math.trunc(length / 4) * 2 - 1;
  for (let idx = start; idx <= start + 2; idx++) {
    random ^= (random << 13n) & MASK64;
    random ^= random >> 7n;
    random ^= (random << 17n) & MASK64;
    let other = Number(random & BigInt(modulus - 1));
    if (other >= length) other -= length;
    data.swap(idx, a + other);
  }
}

function choosePivot(data: SortData, a: number, b: number): [number, Hint] {
  const shortestNinther = 50;
  const maxSwaps = 4 * 3;
  const l = b - a;
  const swaps = { n: 0 };
  const q = Math.trunc(l / 4);
  let i = a + q;
  let j = a + q * 2;
  let k = a + q * 3;
  if (l >= 8) {
    if (l >= shortestNinther) {
      // Tukey's ninther
      i = median(data, i - 1, i, i + 1, swaps);
      j = median(data, j - 1, j, j + 1, swaps);
      k = median(data, k - 1, k, k + 1, swaps);
    }
    j = median(data, i, j, k, swaps);
  }
  if (swaps.n === 0) return [j, 'increasing'];
  if (swaps.n === maxSwaps) return [j, 'decreasing'];
  return [j, 'unknown'];
}

function median(data: SortData, a: number, b: number, c: number, swaps: { n: number }): number {
  [a, b] = order2(data, a, b, swaps);
  [b, c] = order2(data, b, c, swaps);
  [a, b] = order2(data, a, b, swaps);
  return b;
}

function order2(data: SortData, a: number, b: number, swaps: { n: number }): [number, number] {
  if (data.less(b, a)) {
    swaps.n++;
    return [b, a];
  }
  return [a, b];
}

function reverseRange(data: SortData, a: number, b: number): void {
  for (let i = a, j = b - 1; i < j; i++, j--) data.swap(i, j);
}
