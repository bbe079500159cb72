// A small re-implementation of go-cmp's report (github.com/google/go-cmp/cmp, v0.7: report_compare.go,
// report_reflect.go, report_text.go), enough to print cmp.Diff(oldPodSpec, newPodSpec) the way
// ValidatePodUpdate appends it to its Forbidden error.
//
// Covered: structs, slices, maps, pointers, strings/ints/bools and leaf types with an Equal method
// (resource.Quantity); the "... // N identical fields" context rule (2 records either side), the
// verbosity limits, type elision (autoType/elideType), key alignment, the 80-column rule for
// inserted/removed values, and go-cmp's deterministic spacing (regular spaces after "-"/"+").
// Not covered (we print the generic form instead): go-cmp's specialised diff of long strings
// (>= 32 bytes on both sides) and of slices of primitives whose elements mostly differ
// (FormatDiffSlice), pointer-cycle references, and its Myers edit script: slices are aligned by
// common prefix/suffix, then pairwise (similar elements become "modified", others removed+inserted).
// Values are a Go-like model (GoValue) built by the caller: see pod-spec-go.ts.

/** A Go value as go-cmp sees it: its kind, its type name as reflect prints it, and its contents. */
export type GoValue =
  | { kind: 'prim'; type: string; value: string | number | boolean }
  | { kind: 'struct'; type: string; fields: (readonly [string, GoValue])[]; equalMethod?: boolean }
  | { kind: 'slice'; type: string; elems: GoValue[] | null }
  | { kind: 'map'; type: string; entries: (readonly [string, GoValue])[] | null }
  | { kind: 'ptr'; type: string; elem: GoValue | null };

type DiffMode = '' | ' ' | '-' | '+';
type TypeMode = 'emit' | 'elide' | 'auto';

interface ValueNode {
  kind: GoValue['kind'];
  type: string;
  x: GoValue | undefined;
  y: GoValue | undefined;
  records: { key: string; node: ValueNode }[];
  numSame: number;
  numDiff: number;
  numChildren: number;
  maxDepth: number;
}

// ------------------------------------------------------------------ comparison (compare.go)

export function isZero(v: GoValue): boolean {
  switch (v.kind) {
    case 'prim': return v.value === '' || v.value === 0 || v.value === false;
    case 'struct': return v.fields.every(([, f]) => isZero(f));
    case 'slice': return v.elems === null;
    case 'map': return v.entries === null;
    case 'ptr': return v.elem === null;
  }
}

function goEqual(a: GoValue, b: GoValue): boolean {
  return compare(a, b).numDiff === 0;
}

function leaf(x: GoValue | undefined, y: GoValue | undefined, same: boolean): ValueNode {
  const t = (x ?? y)!;
  return { kind: t.kind, type: t.type, x, y, records: [], numSame: same ? 1 : 0, numDiff: same ? 0 : 1, numChildren: 0, maxDepth: 0 };
}

function withChildren(x: GoValue, y: GoValue, records: { key: string; node: ValueNode }[]): ValueNode {
  const n: ValueNode = { kind: x.kind, type: x.type, x, y, records, numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0 };
  for (const { node: c } of records) {
    n.numSame += c.numSame;
    n.numDiff += c.numDiff;
    n.numChildren += c.numChildren + 1;
    n.maxDepth = Math.max(n.maxDepth, c.maxDepth + 1);
  }
  return n;
}

/** One side only: a removed or inserted slice element or map entry. */
function oneSided(x: GoValue | undefined, y: GoValue | undefined): ValueNode {
  return leaf(x, y, false);
}

function compare(x: GoValue, y: GoValue): ValueNode {
  if (x.kind === 'prim' && y.kind === 'prim') return leaf(x, y, x.value === y.value);
  if (x.kind === 'struct' && y.kind === 'struct') {
    if (x.equalMethod) return leaf(x, y, render(x) === render(y));
    return withChildren(x, y, x.fields.map(([name, f], i) => ({ key: name, node: compare(f, y.fields[i]![1]) })));
  }
  if (x.kind === 'ptr' && y.kind === 'ptr') {
    if (x.elem === null || y.elem === null) return leaf(x, y, x.elem === y.elem);
    return withChildren(x, y, [{ key: '', node: compare(x.elem, y.elem) }]);
  }
  if (x.kind === 'slice' && y.kind === 'slice') {
    if (x.elems === null || y.elems === null) return leaf(x, y, x.elems === y.elems);
    return withChildren(x, y, alignSlices(x.elems, y.elems));
  }
  if (x.kind === 'map' && y.kind === 'map') {
    if (x.entries === null || y.entries === null) return leaf(x, y, x.entries === y.entries);
    const xs = new Map(x.entries);
    const ys = new Map(y.entries);
    const keys = [...new Set([...xs.keys(), ...ys.keys()])].sort();
    return withChildren(x, y, keys.map((k) => {
      const [a, b] = [xs.get(k), ys.get(k)];
      return { key: k, node: a && b ? compare(a, b) : oneSided(a, b) };
    }));
  }
  throw new Error(`go-cmp-diff: both sides of a comparison must have the same kind (${x.kind} vs ${y.kind})`);
}

/** Equal prefix and suffix, then pairwise: similar elements are modified, others removed + inserted. */
function alignSlices(xs: GoValue[], ys: GoValue[]): { key: string; node: ValueNode }[] {
  let lo = 0;
  while (lo < xs.length && lo < ys.length && goEqual(xs[lo]!, ys[lo]!)) lo++;
  let hi = 0;
  while (hi < xs.length - lo && hi < ys.length - lo && goEqual(xs[xs.length - 1 - hi]!, ys[ys.length - 1 - hi]!)) hi++;
  const recs: { key: string; node: ValueNode }[] = [];
  for (let i = 0; i < lo; i++) recs.push({ key: '', node: compare(xs[i]!, ys[i]!) });
  const midX = xs.slice(lo, xs.length - hi);
  const midY = ys.slice(lo, ys.length - hi);
  for (let i = 0; i < Math.max(midX.length, midY.length); i++) {
    const [a, b] = [midX[i], midY[i]];
    if (a && b) {
      const n = compare(a, b);
      // diff.Result.Similar: NumSame+1 >= NumDiff
      if (n.numSame + 1 >= n.numDiff) recs.push({ key: '', node: n });
      else recs.push({ key: '', node: oneSided(a, undefined) }, { key: '', node: oneSided(undefined, b) });
    } else recs.push({ key: '', node: oneSided(a, b) });
  }
  for (let i = xs.length - hi; i < xs.length; i++) recs.push({ key: '', node: compare(xs[i]!, ys[i - xs.length + ys.length]!) });
  return recs;
}

// ------------------------------------------------------------------ text tree (report_text.go)

type TextNode = { t: 'line'; s: string } | { t: 'wrap'; prefix: string; value: TextNode; suffix: string } | { t: 'list'; recs: TextRecord[] };
interface TextRecord { diff: DiffMode; key: string; value: TextNode; elideComma?: boolean; comment?: string }

const line = (s: string): TextNode => ({ t: 'line', s });
const wrap = (prefix: string, value: TextNode, suffix = ''): TextNode => ({ t: 'wrap', prefix, value, suffix });
const TEXT_NIL = line('nil');
const TEXT_ELLIPSIS = line('...');
const MAX_COLUMN_LENGTH = 80;

function textLen(n: TextNode): number {
  if (n.t === 'line') return n.s.length;
  if (n.t === 'wrap') return n.prefix.length + textLen(n.value) + n.suffix.length;
  return n.recs.reduce((sum, r, i) => sum + r.key.length + (r.key ? 2 : 0) + textLen(r.value) + (i < n.recs.length - 1 ? 2 : 0), 0);
}

function textEqual(a: TextNode, b: TextNode): boolean {
  if (a.t === 'line' && b.t === 'line') return a.s === b.s;
  if (a.t === 'wrap' && b.t === 'wrap') return a.prefix === b.prefix && a.suffix === b.suffix && textEqual(a.value, b.value);
  if (a.t === 'list' && b.t === 'list') {
    return a.recs.length === b.recs.length && a.recs.every((r, i) => {
      const s = b.recs[i]!;
      return r.diff === s.diff && r.key === s.key && r.comment === s.comment && textEqual(r.value, s.value);
    });
  }
  return false;
}

interface Stats { name: string; identical: number; removed: number; inserted: number; modified: number }

/** diffStats.String: "5 identical fields", "1 removed and 2 inserted elements". */
function statsText(s: Stats): string {
  const parts: string[] = [];
  const labels = [['identical', s.identical], ['removed', s.removed], ['inserted', s.inserted], ['modified', s.modified]] as const;
  let sum = 0;
  for (const [label, n] of labels) {
    if (n > 0) parts.push(`${n} ${label}`);
    sum += n;
  }
  let name = s.name;
  if (sum > 1) name = name.endsWith('y') ? `${name.slice(0, -1)}ies` : `${name}s`;
  if (parts.length <= 2) return `${parts.join(' and ')} ${name}`;
  return `${parts.slice(0, -1).join(', ')}, and ${parts.at(-1)!} ${name}`;
}

function appendEllipsis(list: TextRecord[], stats?: Stats): void {
  const last = list.at(-1);
  if (!last || !textEqual(last.value, TEXT_ELLIPSIS)) {
    list.push({ diff: '', key: '', value: TEXT_ELLIPSIS, elideComma: true, ...(stats ? { comment: statsText(stats), stats } : {}) } as TextRecord);
    return;
  }
  const prev = (last as TextRecord & { stats?: Stats }).stats;
  if (stats && prev) {
    const merged = { ...prev, identical: prev.identical + stats.identical, removed: prev.removed + stats.removed, inserted: prev.inserted + stats.inserted, modified: prev.modified + stats.modified };
    Object.assign(last, { comment: statsText(merged), stats: merged });
  }
}

function indent(n: number, d: DiffMode): string {
  return (d === '-' ? '- ' : d === '+' ? '+ ' : '  ') + '\t'.repeat(n);
}

/** formatCompactTo: the one-line form, and the node with every collapsible part replaced by a line. */
function compact(n: TextNode, d: DiffMode): [string, TextNode] {
  if (n.t === 'line') return [n.s, n];
  if (n.t === 'wrap') {
    const [inner, v] = compact(n.value, d);
    const s = n.prefix + inner + n.suffix;
    return v.t === 'line' ? [s, line(s)] : [s, { ...n, value: v }];
  }
  let multiLine = false;
  let s = '';
  const recs = n.recs.map((r, i) => {
    if (r.diff === '-' || r.diff === '+') multiLine = true;
    s += r.key + (r.key ? ': ' : '');
    const [inner, v] = compact(r.value, d || r.diff);
    s += inner;
    if (v.t !== 'line' || r.comment !== undefined) multiLine = true;
    if (i < n.recs.length - 1) s += ', ';
    return { ...r, value: v };
  });
  if ((d === '-' || d === '+') && s.length > MAX_COLUMN_LENGTH) multiLine = true;
  return multiLine ? [s, { t: 'list', recs }] : [s, line(s)];
}

function alignLens(recs: TextRecord[], skip: (r: TextRecord) => boolean, len: (r: TextRecord) => number): number[] {
  const lens = recs.map(() => 0);
  let [start, end, max] = [0, 0, 0];
  const flush = (): void => {
    for (let j = start; j < end; j++) lens[j] = max - len(recs[j]!);
  };
  recs.forEach((r, i) => {
    if (skip(r)) {
      flush();
      [start, end, max] = [i + 1, i + 1, 0];
    } else {
      max = Math.max(max, len(r));
      end = i + 1;
    }
  });
  flush();
  return lens;
}

function expanded(node: TextNode, d: DiffMode, n: number): string {
  if (node.t === 'line') return node.s;
  if (node.t === 'wrap') return node.prefix + expanded(node.value, d, n) + node.suffix;
  const recs = node.recs;
  const keyPad = alignLens(recs, (r) => r.key === '' || r.value.t !== 'line', (r) => r.key.length);
  const valuePad = alignLens(
    recs,
    (r) => r.value.t !== 'line' || textEqual(r.value, TEXT_ELLIPSIS) || r.comment === undefined,
    (r) => (r.value as { s: string }).s.length,
  );
  const simple = recs.every((r) => r.diff === '' && r.key === '' && r.value.t === 'line' && r.comment === undefined);
  let b = '';
  if (simple && recs.length > 0) {
    let batch = '';
    const emit = (): void => {
      if (batch) b += `\n${indent(n + 1, d)}${batch.trimEnd()}`;
      batch = '';
    };
    for (const r of recs) {
      const s = (r.value as { s: string }).s;
      if (batch.length + s.length + 2 > MAX_COLUMN_LENGTH) emit();
      batch += `${s}, `;
    }
    emit();
    return `${b}\n${indent(n, d)}`;
  }
  recs.forEach((r, i) => {
    b += `\n${indent(n + 1, d || r.diff)}`;
    if (r.key) b += `${r.key}: `;
    b += ' '.repeat(keyPad[i]!);
    b += expanded(r.value, d || r.diff, n + 1);
    if (!r.elideComma) b += ',';
    b += ' '.repeat(valuePad[i]!);
    if (r.comment !== undefined) b += ` // ${r.comment}`;
  });
  return `${b}\n${indent(n, d)}`;
}

function textString(node: TextNode): string {
  const [, c] = compact(node, '');
  return `${indent(0, '')}${expanded(c, '', 0)}\n`;
}

// ------------------------------------------------------------------ formatting (report_compare.go, report_reflect.go)

interface Opts { diff: DiffMode; type: TypeMode; verbosity: number; limit: boolean }

const COMPOSITE = new Set(['struct', 'slice', 'map']);
const MAX_VERBOSITY_PRESET = 6;

function formatType(o: Opts, v: { kind: GoValue['kind']; type: string }, s: TextNode): TextNode {
  if (o.type === 'elide') return s;
  if (o.type === 'auto') {
    if (!COMPOSITE.has(v.kind) || textEqual(s, TEXT_NIL) || o.diff === ' ') return s;
  }
  const name = v.kind === 'ptr' ? `(${v.type})` : v.type;
  if (s.t === 'wrap' && ((s.prefix.startsWith('{') && s.suffix.endsWith('}')) || (s.prefix.startsWith('(') && s.suffix.endsWith(')')))) return wrap(name, s);
  return wrap(`${name}(`, s, ')');
}

const verbosityOf = (o: Opts): number => Math.min(16, Math.max(0, o.verbosity));
const listLimit = (o: Opts): number => ((1 << verbosityOf(o)) >> 1) << 2;

/** Go's strconv.Quote for the ASCII texts Kubernetes specs hold, or a raw string when shorter. */
function goQuote(s: string): string {
  const q = JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, (_m, h: string) => `\\x${h.slice(2)}`);
  if (q.length === s.length + 2) return q;
  return /[`\n]/.test(s) || /[^\t\x20-\x7e]/.test(s) ? q : `\`${s}\``;
}

function formatValue(o: Opts, v: GoValue | undefined): TextNode | undefined {
  if (!v) return undefined;
  let opts = o;
  const body = ((): TextNode => {
    switch (v.kind) {
      case 'prim': {
        if (typeof v.value !== 'string') return line(String(v.value));
        const maxLen = opts.limit ? (1 << verbosityOf(opts)) << 5 : Infinity;
        const raw = v.value;
        return raw.length > maxLen + 3 ? line(`${goQuote(raw.slice(0, maxLen))}...`) : line(goQuote(raw));
      }
      case 'ptr':
        return v.elem === null ? TEXT_NIL : wrap('&', formatValue(opts, v.elem)!);
      case 'struct':
      case 'slice':
      case 'map': {
        const items: (readonly [string, GoValue])[] | null =
          v.kind === 'struct' ? v.fields.filter(([, f]) => !isZero(f)) : v.kind === 'slice' ? v.elems?.map((e) => ['', e] as const) ?? null : v.entries;
        if (items === null) return TEXT_NIL;
        const maxLen = opts.limit ? listLimit(opts) : Infinity;
        if (opts.limit) opts = { ...opts, verbosity: opts.verbosity - 1 };
        const list: TextRecord[] = [];
        for (const [key, item] of items) {
          if (list.length === maxLen) {
            appendEllipsis(list);
            break;
          }
          list.push({ diff: '', key, value: formatValue({ ...opts, type: v.kind === 'struct' ? 'auto' : 'elide' }, item)! });
        }
        return wrap('{', { t: 'list', recs: list }, '}');
      }
    }
  })();
  return v.kind === 'ptr' ? body : formatType(o, v, body);
}

function formatDiff(o: Opts, v: ValueNode): TextNode | undefined {
  let opts = o.diff === ' ' ? { ...o, verbosity: 1, limit: true } : verbosityOf(o) < 3 || !o.limit ? { ...o, verbosity: 3, limit: true } : o;
  if (v.maxDepth === 0) {
    switch (opts.diff) {
      case '':
      case ' ': {
        if (v.numDiff === 0) {
          const [ox, oy] = [formatValue(opts, v.x)!, formatValue(opts, v.y)!];
          return textLen(ox) < textLen(oy) ? ox : oy;
        }
        let [ox, oy] = [formatValue({ ...opts, type: 'elide' }, v.x), formatValue({ ...opts, type: 'elide' }, v.y)];
        for (let i = 0; i <= MAX_VERBOSITY_PRESET && ox && oy && textEqual(ox, oy); i++) {
          const o2: Opts = { ...opts, type: 'elide', verbosity: verbosityOf(opts) + 2 * i };
          [ox, oy] = [formatValue(o2, v.x), formatValue(o2, v.y)];
        }
        const list: TextRecord[] = [];
        if (ox) list.push({ diff: '-', key: '', value: ox });
        if (oy) list.push({ diff: '+', key: '', value: oy });
        return formatType({ ...opts, type: 'emit' }, v, { t: 'list', recs: list });
      }
      case '-':
        return formatValue(opts, v.x);
      case '+':
        return formatValue(opts, v.y);
    }
  }
  if (v.kind === 'ptr') return wrap('&', formatDiff(opts, v.records[0]!.node)!);
  opts = { ...opts };
  return formatType(opts, v, formatDiffList(opts, v));
}

function formatDiffList(o: Opts, v: ValueNode): TextNode {
  const isStruct = v.kind === 'struct';
  const name = isStruct ? 'field' : v.kind === 'slice' ? 'element' : 'entry';
  let opts: Opts = { ...o, type: isStruct ? 'auto' : 'elide' };
  let maxLen = -1;
  if (opts.limit) {
    maxLen = opts.diff === ' ' ? listLimit(opts) : (1 << verbosityOf(opts)) << 1;
    opts = { ...opts, verbosity: opts.verbosity - 1 };
  }
  const list: TextRecord[] = [];
  let recs = v.records;
  if (opts.diff !== '') {
    let deferredEllipsis = false;
    for (const r of recs) {
      if (list.length === maxLen) {
        deferredEllipsis = true;
        break;
      }
      if (isStruct) {
        const side = opts.diff === '-' ? [r.node.x] : opts.diff === '+' ? [r.node.y] : [r.node.x, r.node.y];
        if (side.some((s) => !s || isZero(s))) continue;
      }
      const out = formatDiff(opts, r.node);
      if (out) list.push({ diff: '', key: r.key, value: out });
    }
    if (deferredEllipsis) appendEllipsis(list);
    return wrap('{', { t: 'list', recs: list }, '}');
  }
  const groups = coalesce(name, recs);
  let numDiffs = 0;
  const overflow: Stats = { name, identical: 0, removed: 0, inserted: 0, modified: 0 };
  groups.forEach((g, i) => {
    const groupDiffs = g.removed + g.inserted + g.modified;
    if (maxLen >= 0 && numDiffs >= maxLen) {
      Object.assign(overflow, { identical: overflow.identical + g.identical, removed: overflow.removed + g.removed, inserted: overflow.inserted + g.inserted, modified: overflow.modified + g.modified });
      return;
    }
    if (groupDiffs === 0) {
      const numEqual = g.identical;
      let [lo, hi] = [0, 0];
      while (lo < 2 && lo + hi < numEqual && i !== 0) lo++;
      while (hi < 2 && lo + hi < numEqual && i !== groups.length - 1) hi++;
      if (numEqual - (lo + hi) === 1) hi++;
      const identical = { ...opts, diff: ' ' as const };
      for (const r of recs.slice(0, lo)) list.push({ diff: '', key: r.key, value: formatDiff(identical, r.node)! });
      if (numEqual > lo + hi) appendEllipsis(list, { ...g, identical: numEqual - lo - hi });
      for (const r of recs.slice(numEqual - hi, numEqual)) list.push({ diff: '', key: r.key, value: formatDiff(identical, r.node)! });
      recs = recs.slice(numEqual);
      return;
    }
    for (const r of recs.slice(0, groupDiffs)) list.push(...unequalRecord(opts, r));
    recs = recs.slice(groupDiffs);
    numDiffs += groupDiffs;
  });
  if (overflow.identical + overflow.removed + overflow.inserted + overflow.modified > 0) appendEllipsis(list, overflow);
  return wrap('{', { t: 'list', recs: list }, '}');
}

function unequalRecord(opts: Opts, r: { key: string; node: ValueNode }): TextRecord[] {
  const n = r.node;
  if (n.numChildren !== n.maxDepth) return [{ diff: '', key: r.key, value: formatDiff(opts, n)! }];
  let [ox, oy] = [formatDiff({ ...opts, diff: '-' }, n), formatDiff({ ...opts, diff: '+' }, n)];
  for (let i = 0; i <= MAX_VERBOSITY_PRESET && ox && oy && textEqual(ox, oy); i++) {
    const o2: Opts = { ...opts, verbosity: verbosityOf(opts) + 2 * i };
    [ox, oy] = [formatDiff({ ...o2, diff: '-' }, n), formatDiff({ ...o2, diff: '+' }, n)];
  }
  const out: TextRecord[] = [];
  if (ox) out.push({ diff: '-', key: r.key, value: ox });
  if (oy) out.push({ diff: '+', key: r.key, value: oy });
  return out;
}

function coalesce(name: string, recs: { node: ValueNode }[]): Stats[] {
  const groups: Stats[] = [];
  let prev = 0;
  const last = (c: number): Stats => {
    if (prev !== c) {
      groups.push({ name, identical: 0, removed: 0, inserted: 0, modified: 0 });
      prev = c;
    }
    return groups.at(-1)!;
  };
  for (const { node } of recs) {
    if (node.numDiff === 0) last(1).identical++;
    else if (!node.y) last(2).removed++;
    else if (!node.x) last(2).inserted++;
    else last(2).modified++;
  }
  return groups;
}

/** The one-line %v-like rendering of a value, used to compare leaf types with an Equal method. */
function render(v: GoValue): string {
  return textString(formatValue({ diff: ' ', type: 'elide', verbosity: 0, limit: false }, v)!);
}

/** cmp.Diff(x, y): "" when equal, else the report: "-" lines from x, "+" lines from y. */
export function goCmpDiff(x: GoValue, y: GoValue): string {
  const root = compare(x, y);
  if (root.numDiff === 0) return '';
  return textString(formatDiff({ diff: '', type: 'emit', verbosity: 0, limit: false }, root)!);
}
