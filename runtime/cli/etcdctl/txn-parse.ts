// Reads `etcdctl txn` input: compares, a blank line, success requests, a blank line, failure
// requests. mirrors etcdctl/ctlv3/command/txn_command.go (readCompares, readOps, parseCompare,
// parseRequestUnion) including its error texts.
import type { Compare, CompareResult, CompareTarget, RequestOp } from '../../etcd/index.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const TARGETS: Record<string, CompareTarget> = {
  ver: 'VERSION', version: 'VERSION', c: 'CREATE', create: 'CREATE', m: 'MOD', mod: 'MOD',
  val: 'VALUE', value: 'VALUE', lease: 'LEASE',
};
const RESULTS: Record<string, CompareResult> = { '=': 'EQUAL', '==': 'EQUAL', '!=': 'NOT_EQUAL', '>': 'GREATER', '<': 'LESS' };

/** Reads a Go %q string at `pos`; returns the value and the index after it. */
function readQuoted(s: string, pos: number): { value: string; end: number } | undefined {
  if (s[pos] === '`') {
    const end = s.indexOf('`', pos + 1);
    return end < 0 ? undefined : { value: s.slice(pos + 1, end), end: end + 1 };
  }
  if (s[pos] !== '"') return undefined;
  let value = '';
  for (let i = pos + 1; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '"') return { value, end: i + 1 };
    if (ch === '\\') {
      const next = s[++i];
      const map: Record<string, string> = { n: '\n', t: '\t', '"': '"', '\\': '\\', r: '\r', '0': '\0' };
      if (next === undefined || !(next in map)) return undefined;
      value += map[next]!;
    } else value += ch;
  }
  return undefined;
}

export function parseCompare(line: string): Parsed<Compare> {
  const malformed = { ok: false as const, error: `malformed comparison: ${line}` };
  const paren = line.indexOf('(');
  if (paren < 0) return malformed;
  const targetName = line.slice(0, paren).trim();
  const key = readQuoted(line, paren + 1);
  if (!key || line[key.end] !== ')') return malformed;
  const rest = line.slice(key.end + 1).trimStart();
  const opMatch = /^(\S+)\s+/.exec(rest);
  if (!opMatch) return malformed;
  const operand = readQuoted(rest, opMatch[0].length);
  if (!operand) return malformed;
  const target = Object.hasOwn(TARGETS, targetName) ? TARGETS[targetName] : undefined;
  if (!target) return { ok: false, error: `malformed comparison: ${line} (unknown target ${targetName})` };
  const result = Object.hasOwn(RESULTS, opMatch[1]!) ? RESULTS[opMatch[1]!] : undefined;
  if (!result) return { ok: false, error: `malformed comparison: ${line} (unknown op ${opMatch[1]})` };
  if (target === 'VALUE') return { ok: true, value: { key: key.value, target, result, operand: operand.value } };
  if (!/^-?\d+$/.test(operand.value)) {
    return { ok: false, error: `malformed comparison: ${line} (strconv.ParseInt: parsing "${operand.value}": invalid syntax)` };
  }
  const n = target === 'LEASE' ? parseInt(operand.value, 10) : Number(operand.value);
  return { ok: true, value: { key: key.value, target, result, operand: n } };
}

/** Parses one request line ("put k v", "get k --prefix", "del k") into an op. */
export type RequestLineParser = (args: string[]) => Parsed<RequestOp>;

export interface TxnInput {
  compares: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}

export function parseTxnInput(stdin: string, parseRequest: (line: string) => Parsed<RequestOp>): Parsed<TxnInput> {
  const lines = stdin.split('\n').map((l) => l.replace(/\r$/, ''));
  let i = 0;
  const section = (): string[] => {
    const out: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '') out.push(lines[i++]!.trim());
    i++; // the blank line that ends the section
    return out;
  };
  const compares: Compare[] = [];
  for (const line of section()) {
    const c = parseCompare(line);
    if (!c.ok) return c;
    compares.push(c.value);
  }
  const ops = (ls: string[]): Parsed<RequestOp[]> => {
    const out: RequestOp[] = [];
    for (const line of ls) {
      const r = parseRequest(line);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return { ok: true, value: out };
  };
  const success = ops(section());
  if (!success.ok) return success;
  const failure = ops(section());
  if (!failure.ok) return failure;
  return { ok: true, value: { compares, success: success.value, failure: failure.value } };
}
