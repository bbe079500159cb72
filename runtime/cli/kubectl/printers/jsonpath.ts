// kubectl's JSONPath templates: `-o jsonpath=`, custom-columns and --sort-by.
// mirrors staging/src/k8s.io/client-go/util/jsonpath (parser.go, jsonpath.go): text outside braces
// is printed as is; each {expression} prints its results separated by spaces, strings raw and
// maps/arrays as compact JSON; {range ...}...{end} repeats its body with each result as the root.
// Supported: $ @ .field .* .. [n] [-n] [a:b:c] [*] [a,b] ['x','y'] [?(@.f op v)] [?(@.f)]
// "literal" range end, and \. escapes in field names. Our own code.
import { compactJSON } from './json-emit.ts';

type Value = unknown;

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'wildcard' }
  | { kind: 'recursive' }
  | { kind: 'index'; start?: number; end?: number; step?: number; single: boolean }
  | { kind: 'union'; members: Step[][] }
  | { kind: 'filter'; left: Operand; op: FilterOp; right?: Operand };

type FilterOp = 'exists' | '==' | '!=' | '<' | '>' | '<=' | '>=';
type Operand =
  { kind: 'path'; steps: Step[] } | { kind: 'literal'; value: string | number | boolean };

type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'expr'; steps: Step[] }
  | { kind: 'range'; steps: Step[]; body: Segment[] };

export class JSONPathError extends Error {}

export interface JSONPathTemplate {
  readonly source: string;
  readonly segments: Segment[];
}

// ---------------------------------------------------------------- parsing

/** Parses a template; throws JSONPathError with client-go's message on bad syntax. */
export function parseJSONPath(source: string): JSONPathTemplate {
  const stack: Segment[][] = [[]];
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('{', i);
    if (open < 0) {
      stack[stack.length - 1]!.push({ kind: 'text', text: source.slice(i) });
      break;
    }
    if (open > i) stack[stack.length - 1]!.push({ kind: 'text', text: source.slice(i, open) });
    const close = findClose(source, open + 1);
    if (close < 0) throw new JSONPathError(`unclosed action`);
    parseAction(source.slice(open + 1, close).trim(), stack);
    i = close + 1;
  }
  if (stack.length > 1) throw new JSONPathError('unclosed range: missing {end}');
  return { source, segments: stack[0]! };
}

/** The closing brace of an action, skipping quoted strings. */
function findClose(s: string, from: number): number {
  let quote = '';
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '}') return i;
  }
  return -1;
}

function parseAction(body: string, stack: Segment[][]): void {
  const current = stack[stack.length - 1]!;
  if (body === 'end') {
    if (stack.length === 1) throw new JSONPathError('not in range, nothing to end');
    stack.pop();
    return;
  }
  if (body.startsWith('range ') || body === 'range') {
    const segment: Segment = { kind: 'range', steps: parseSteps(body.slice(5).trim()), body: [] };
    current.push(segment);
    stack.push(segment.body);
    return;
  }
  if (body.startsWith('"')) {
    current.push({ kind: 'text', text: unquote(body) });
    return;
  }
  current.push({ kind: 'expr', steps: parseSteps(body) });
}

function unquote(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    throw new JSONPathError(`invalid string literal ${literal}`);
  }
}

const FIELD_CHAR = /[\p{L}\p{N}_\-/]/u;

/** Parses a path like `.items[*].metadata.name`, `$.a`, `@.b`, `..c`, `[0]`. */
export function parseSteps(text: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  if (text[i] === '$' || text[i] === '@') i++;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ') {
      i++;
    } else if (c === '.' && text[i + 1] === '.') {
      if (text[i + 2] === '.' && text[i + 3] === '.')
        throw new JSONPathError('invalid multiple recursive descent');
      steps.push({ kind: 'recursive' });
      i += text[i + 2] === '.' ? 2 : 2;
      if (text[i] !== '.' && text[i] !== undefined && text[i] !== '[')
        i = readField(text, i, steps);
    } else if (c === '.') {
      i = readField(text, i + 1, steps);
    } else if (c === '[') {
      const close = findBracketClose(text, i);
      steps.push(parseBracket(text.slice(i + 1, close)));
      i = close + 1;
    } else {
      throw new JSONPathError(`unrecognized identifier ${text.slice(i).split(/[.[ ]/)[0]}`);
    }
  }
  return steps;
}

function readField(text: string, from: number, steps: Step[]): number {
  if (text[from] === '*') {
    steps.push({ kind: 'wildcard' });
    return from + 1;
  }
  let name = '';
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) name += text[++i];
    else if (FIELD_CHAR.test(c)) name += c;
    else break;
  }
  if (name !== '') steps.push({ kind: 'field', name });
  return i;
}

function findBracketClose(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  throw new JSONPathError('unterminated array');
}

function parseBracket(inner: string): Step {
  const body = inner.trim();
  if (body.startsWith('?(') && body.endsWith(')')) return parseFilter(body.slice(2, -1).trim());
  const members = splitTopLevel(body, ',').map((m) => m.trim());
  if (members.some((m) => m.startsWith("'") || m.startsWith('"'))) {
    return { kind: 'union', members: members.map((m) => parseSteps(`.${unquoteSingle(m)}`)) };
  }
  if (members.length > 1) return { kind: 'union', members: members.map((m) => [parseIndex(m)]) };
  return parseIndex(body);
}

function unquoteSingle(m: string): string {
  return m.slice(1, -1);
}

function parseIndex(text: string): Step {
  if (text === '*') return { kind: 'index', single: false };
  const parts = text.split(':');
  if (parts.length > 3) throw new JSONPathError(`invalid array index ${text}`);
  const nums = parts.map((p) => {
    const t = p.trim();
    if (t === '') return undefined;
    if (!/^-?\d+$/.test(t)) throw new JSONPathError(`invalid array index ${text}`);
    return Number(t);
  });
  if (parts.length === 1) return { kind: 'index', start: nums[0], single: true };
  return { kind: 'index', start: nums[0], end: nums[1], step: nums[2], single: false };
}

function splitTopLevel(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === sep && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

const OPERATORS = ['==', '!=', '<=', '>=', '<', '>'] as const;

function parseFilter(body: string): Step {
  const found = findOperator(body);
  if (!found) return { kind: 'filter', left: parseOperand(body), op: 'exists' };
  const { at, op } = found;
  return {
    kind: 'filter',
    left: parseOperand(body.slice(0, at).trim()),
    op,
    right: parseOperand(body.slice(at + op.length).trim()),
  };
}

function findOperator(body: string): { at: number; op: FilterOp } | undefined {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (depth === 0 && '=!<>'.includes(c)) {
      const two = body.slice(i, i + 2);
      if (two === '<>') throw new JSONPathError('unrecognized filter operator <>');
      const op = OPERATORS.find((o) => body.startsWith(o, i));
      if (!op) throw new JSONPathError(`unrecognized filter operator ${two}`);
      return { at: i, op };
    }
  }
  return undefined;
}

function parseOperand(text: string): Operand {
  if (text.startsWith('@') || text.startsWith('$'))
    return { kind: 'path', steps: parseSteps(text) };
  if (text.startsWith('"') || text.startsWith("'"))
    return { kind: 'literal', value: text.slice(1, -1) };
  if (text === 'true' || text === 'false') return { kind: 'literal', value: text === 'true' };
  if (/^-?\d+(\.\d+)?$/.test(text)) return { kind: 'literal', value: Number(text) };
  throw new JSONPathError(`unrecognized identifier ${text}`);
}

// ---------------------------------------------------------------- evaluation

export interface ExecuteOptions {
  /** kubectl's --allow-missing-template-keys, true by default. */
  allowMissingKeys?: boolean;
}

const isObject = (v: Value): v is Record<string, Value> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every {expression}'s results, in template order (FindResults). */
export function findResults(steps: Step[], data: Value, allowMissingKeys: boolean): Value[] {
  let current: Value[] = [data];
  for (const step of steps) current = applyStep(step, current, allowMissingKeys);
  return current;
}

function applyStep(step: Step, input: Value[], allowMissing: boolean): Value[] {
  switch (step.kind) {
    case 'field': {
      const out: Value[] = [];
      for (const v of input)
        // own keys only: {.constructor} finds nothing in a JSON object, as in Go's maps
        if (isObject(v) && Object.hasOwn(v, step.name) && v[step.name] !== undefined) out.push(v[step.name]);
      if (out.length === 0 && !allowMissing && input.length > 0)
        throw new JSONPathError(`${step.name} is not found`);
      return out;
    }
    case 'wildcard':
      return input.flatMap((v) =>
        isObject(v) ? Object.keys(v).map((k) => v[k]) : Array.isArray(v) ? v : [],
      );
    case 'recursive':
      return input.flatMap(descendants);
    case 'index':
      return input.flatMap((v) => sliceOf(v, step));
    case 'union':
      return step.members.flatMap((member) => {
        let current = input;
        for (const s of member) current = applyStep(s, current, allowMissing);
        return current;
      });
    case 'filter':
      return input.flatMap((v) => {
        if (!Array.isArray(v))
          throw new JSONPathError(`${goTypeName(v)} is not array or slice and cannot be filtered`);
        return v.filter((item) => filterPasses(step, item));
      });
  }
}

/** evalRecursive: the value and every nested container, depth first. */
function descendants(v: Value): Value[] {
  const children = isObject(v) ? Object.values(v) : Array.isArray(v) ? v : [];
  if (children.length === 0) return [];
  return [v, ...children.flatMap(descendants)];
}

function sliceOf(v: Value, step: Extract<Step, { kind: 'index' }>): Value[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new JSONPathError(`${goTypeName(v)} is not array or slice`);
  const length = v.length;
  let start = step.start ?? 0;
  if (start < 0) start += length;
  let end = step.single ? start + 1 : (step.end ?? length);
  if (!step.single && end < 0) end += length;
  if (end === start) return [];
  if (start >= length || start < 0)
    throw new JSONPathError(`array index out of bounds: index ${start}, length ${length}`);
  if (end > length || end < 0)
    throw new JSONPathError(`array index out of bounds: index ${end - 1}, length ${length}`);
  if (start > end)
    throw new JSONPathError(`starting index ${start} is greater than ending index ${end}`);
  const stride = step.step ?? 1;
  if (stride <= 0) throw new JSONPathError('step must be > 0');
  const out: Value[] = [];
  for (let i = start; i < end; i += stride) out.push(v[i]);
  return out;
}

function goTypeName(v: Value): string {
  if (isObject(v)) return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  return 'interface {}';
}

function operandValues(operand: Operand, item: Value): Value[] {
  if (operand.kind === 'literal') return [operand.value];
  try {
    return findResults(operand.steps, item, true);
  } catch {
    return [];
  }
}

function filterPasses(step: Extract<Step, { kind: 'filter' }>, item: Value): boolean {
  const lefts = operandValues(step.left, item);
  if (step.op === 'exists') return lefts.length > 0;
  const rights = step.right ? operandValues(step.right, item) : [];
  if (lefts.length === 0 || rights.length === 0) return false;
  if (lefts.length > 1 || rights.length > 1)
    throw new JSONPathError('can only compare one element at a time');
  const [l, r] = [lefts[0], rights[0]];
  switch (step.op) {
    case '==':
      return l === r;
    case '!=':
      return l !== r;
    default: {
      if (typeof l !== typeof r || (typeof l !== 'number' && typeof l !== 'string')) {
        throw new JSONPathError('incompatible types for comparison');
      }
      const [a, b] = [l as number | string, r as number | string];
      return step.op === '<' ? a < b : step.op === '>' ? a > b : step.op === '<=' ? a <= b : a >= b;
    }
  }
}

/** Prints one result: strings raw, maps and arrays as compact JSON, the rest as Go's fmt would. */
export function resultText(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null) return compactJSON(v);
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}

/** Executes a parsed template against data (the object, or a List for many objects). */
export function executeJSONPath(
  template: JSONPathTemplate,
  data: Value,
  options: ExecuteOptions = {},
): string {
  return run(template.segments, data, options.allowMissingKeys ?? true);
}

function run(segments: Segment[], data: Value, allowMissing: boolean): string {
  let out = '';
  for (const segment of segments) {
    if (segment.kind === 'text') out += segment.text;
    else if (segment.kind === 'expr')
      out += findResults(segment.steps, data, allowMissing).map(resultText).join(' ');
    else
      for (const item of findResults(segment.steps, data, allowMissing))
        out += run(segment.body, item, allowMissing);
  }
  return out;
}

/**
 * kubectl's RelaxedJSONPathExpression (custom-columns, --sort-by): "name1.name2", ".name1.name2",
 * "{name1.name2}" and "{.name1.name2}" all become "{.name1.name2}".
 */
export function relaxedJSONPathExpression(path: string): string {
  if (path === '') return path;
  const m = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/.exec(path);
  if (!m) {
    throw new JSONPathError(
      "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    );
  }
  return `{.${m[1] ?? m[2]}}`;
}
