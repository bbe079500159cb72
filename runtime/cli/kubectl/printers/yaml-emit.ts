// JSON values to YAML exactly as kubectl prints `-o yaml`: kubectl marshals the object to JSON
// and converts it with sigs.k8s.io/yaml, i.e. go-yaml v2's encoder. So: map keys sorted with
// go-yaml's natural order, block sequences not indented under their key, strings quoted only when
// needed (double quotes when the plain text would read as another type, single quotes when it
// contains indicators), multi-line strings as literal blocks, plain scalars folded past column 80.
// mirrors gopkg.in/yaml.v2 encode.go (stringv), emitterc.go (analyze_scalar, write_plain_scalar)
// and sorter.go (keyList.Less); our own code.

const BEST_WIDTH = 80;

export function toYAML(value: unknown): string {
  const out: string[] = [];
  emitNode(value, 0, out, '');
  return out.join('');
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Emits a value that follows "key:" or "- " on the same line (prefix holds that text). */
function emitNode(value: unknown, indent: number, out: string[], prefix: string): void {
  if (isMap(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort(goYamlKeyCompare);
    if (keys.length === 0) {
      out.push(`${prefix}{}\n`);
      return;
    }
    keys.forEach((key, i) => {
      const head = i === 0 && prefix !== '' ? prefix : ' '.repeat(indent);
      emitEntry(key, value[key], indent, out, head);
    });
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push(`${prefix}[]\n`);
      return;
    }
    value.forEach((item, i) => {
      const head = (i === 0 && prefix !== '' ? prefix : ' '.repeat(indent)) + '- ';
      emitItem(item, indent + 2, out, head);
    });
    return;
  }
  out.push(`${prefix}${scalar(value as Json, indent, prefix.length)}\n`);
}

function emitEntry(key: string, child: unknown, indent: number, out: string[], head: string): void {
  const keyText = `${head}${scalar(key, indent, head.length)}:`;
  if (isMap(child) && Object.keys(child).some((k) => child[k] !== undefined)) {
    out.push(`${keyText}\n`);
    emitNode(child, indent + 2, out, '');
  } else if (Array.isArray(child) && child.length > 0) {
    out.push(`${keyText}\n`);
    emitNode(child, indent, out, ''); // go-yaml does not indent a sequence under its key
  } else {
    emitNode(child, indent + 2, out, `${keyText} `);
  }
}

function emitItem(item: unknown, indent: number, out: string[], head: string): void {
  emitNode(item, indent, out, head);
}

// ---------------------------------------------------------------- scalars

function scalar(value: Json, indent: number, column: number): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return formatNumber(value);
  return stringScalar(String(value), indent, column);
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64) as go-yaml uses, and plain integers. */
function formatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const text = String(n);
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

function stringScalar(s: string, indent: number, column: number): string {
  if (s.includes('\n')) return literal(s, indent);
  if (!resolvesToString(s)) return doubleQuoted(s);
  const style = analyze(s);
  if (style === 'plain') return fold(s, indent, column);
  if (style === 'single') return fold(`'${s.replaceAll("'", "''")}'`, indent, column);
  return doubleQuoted(s);
}

/** A `|` block; "-" chomping when there is no final newline, "+" when there are several. */
function literal(s: string, indent: number): string {
  const chomp = s.endsWith('\n\n') ? '+' : s.endsWith('\n') ? '' : '-';
  const leadingSpace = s.startsWith(' ') || s.startsWith('\n') ? String(2) : '';
  const body = s.endsWith('\n') ? s.slice(0, -1) : s;
  const pad = ' '.repeat(indent);
  const lines = body.split('\n').map((l) => (l === '' ? '' : pad + l));
  return `|${leadingSpace}${chomp}\n${lines.join('\n')}`;
}

function doubleQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f)
      out += `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** YAML 1.1 values go-yaml's resolver turns into non-strings: these must be double-quoted. */
const SPECIAL = new Set([
  '',
  '~',
  'null',
  'Null',
  'NULL',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
  '.nan',
  '.NaN',
  '.NAN',
  '<<',
]);
const INT = /^[-+]?(0b[01_]+|0[0-7_]+|(0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+)$/;
const FLOAT = /^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60 = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP =
  /^\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?$/;

function resolvesToString(s: string): boolean {
  return !(SPECIAL.has(s) || INT.test(s) || FLOAT.test(s) || BASE60.test(s) || TIMESTAMP.test(s));
}

/** yaml_emitter_analyze_scalar, block context: can the text be plain, or single-quoted? */
function analyze(s: string): 'plain' | 'single' | 'double' {
  const chars = [...s];
  let blockIndicators = false;
  let special = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const code = c.codePointAt(0)!;
    const followedBySpace = i + 1 >= chars.length || chars[i + 1] === ' ' || chars[i + 1] === '\t';
    const precededBySpace = i > 0 && (chars[i - 1] === ' ' || chars[i - 1] === '\t');
    if (code < 0x20 && c !== '\t') special = true;
    if (code === 0x7f || code === 0xfeff) special = true;
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      if ((c === '?' || c === ':' || c === '-') && followedBySpace) blockIndicators = true;
    } else {
      if (c === ':' && followedBySpace) blockIndicators = true;
      if (c === '#' && precededBySpace) blockIndicators = true;
    }
  }
  if (special) return 'double';
  const leadingSpace = s.startsWith(' ') || s.startsWith('\t');
  const trailingSpace = s.endsWith(' ') || s.endsWith('\t');
  if (s.startsWith('---') || s.startsWith('...')) return 'single';
  if (leadingSpace || trailingSpace || blockIndicators) return 'single';
  if (s.includes('\t')) return 'single';
  return 'plain';
}

/** write_plain_scalar: at a space past column 80, break the line and indent instead. */
function fold(text: string, continuationIndent: number, startColumn: number): string {
  let out = '';
  let column = startColumn;
  let previousSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (
      c === ' ' &&
      !previousSpace &&
      column > BEST_WIDTH &&
      text[i + 1] !== ' ' &&
      i + 1 < text.length
    ) {
      out += `\n${' '.repeat(continuationIndent)}`;
      column = continuationIndent;
    } else {
      out += c;
      column++;
    }
    previousSpace = c === ' ';
  }
  return out;
}

/** gopkg.in/yaml.v2 sorter.go keyList.Less for string keys: letters after non-letters, digit runs by value. */
export function goYamlKeyCompare(a: string, b: string): number {
  if (a === b) return 0;
  return goYamlKeyLess(a, b) ? -1 : 1;
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isLetter = (c: string): boolean => /\p{L}/u.test(c);

function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = isDigit(ar[i]!);
      continue;
    }
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return digits ? al : bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}
