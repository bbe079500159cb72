// put, get, del, txn, compaction. mirrors etcdctl/ctlv3/command/{put,get,del,txn,compaction}_command.go.
import type { PutRequest, RangeRequest, RequestOp, SortOrder, SortTarget } from '../../etcd/index.ts';
import { prefixEnd } from '../../etcd/index.ts';
import { parseFlags, type FlagSpec, shellSplit } from './argv.ts';
import { ExitBadArgs, ExitBadFeature, ExitError, ExitInvalidInput, type CommandContext } from './context.ts';
import { json, simple } from './printers.ts';
import { parseTxnInput, type Parsed } from './txn-parse.ts';

export const PUT_FLAGS: FlagSpec[] = [
  { name: 'lease', kind: 'string' }, { name: 'prev-kv', kind: 'bool' },
  { name: 'ignore-value', kind: 'bool' }, { name: 'ignore-lease', kind: 'bool' },
];
export const GET_FLAGS: FlagSpec[] = [
  { name: 'prefix', kind: 'bool' }, { name: 'from-key', kind: 'bool' }, { name: 'keys-only', kind: 'bool' },
  { name: 'rev', kind: 'int' }, { name: 'limit', kind: 'int' }, { name: 'print-value-only', kind: 'bool' },
  { name: 'count-only', kind: 'bool' }, { name: 'order', kind: 'string' }, { name: 'sort-by', kind: 'string' },
  { name: 'consistency', kind: 'string' },
];
export const DEL_FLAGS: FlagSpec[] = [
  { name: 'prefix', kind: 'bool' }, { name: 'prev-kv', kind: 'bool' }, { name: 'from-key', kind: 'bool' },
  { name: 'range', kind: 'bool' },
];
export const TXN_FLAGS: FlagSpec[] = [{ name: 'interactive', short: 'i', kind: 'bool' }];
export const COMPACTION_FLAGS: FlagSpec[] = [{ name: 'physical', kind: 'bool' }];

/** strconv.ParseInt(s, 16, 64) for lease IDs. */
export function parseLeaseId(text: string): number | undefined {
  if (!/^[0-9a-fA-F]{1,16}$/.test(text)) return undefined;
  const n = parseInt(text, 16);
  return Number.isSafeInteger(n) ? n : undefined;
}

type OpBuild<T> = { ok: true; value: T } | { ok: false; code: number; error: string };

function buildPut(ctx: Pick<CommandContext, 'bool' | 'str'>, args: string[], stdin: string | undefined): OpBuild<{ put: PutRequest }> {
  const ignoreValue = ctx.bool('ignore-value');
  if (args.length === 0 || args.length > 2) return { ok: false, code: ExitBadArgs, error: 'put command needs 1 argument and input from stdin or 2 arguments' };
  if (ignoreValue && args.length > 1) return { ok: false, code: ExitBadArgs, error: "put command needs only 1 argument when 'ignore-value' is set" };
  let value = args[1];
  if (value === undefined && !ignoreValue) {
    if (stdin === undefined || stdin === '') return { ok: false, code: ExitBadArgs, error: 'put command needs 1 argument and input from stdin or 2 arguments' };
    value = stdin;
  }
  let lease = 0;
  const leaseText = ctx.str('lease', '0');
  if (leaseText !== '0') {
    const parsed = parseLeaseId(leaseText);
    if (parsed === undefined) return { ok: false, code: ExitBadArgs, error: `bad lease ID (strconv.ParseInt: parsing "${leaseText}": invalid syntax), expecting ID in Hex` };
    lease = parsed;
  }
  return {
    ok: true,
    value: { put: { key: args[0]!, value: value ?? '', lease, prevKv: ctx.bool('prev-kv'), ignoreValue, ignoreLease: ctx.bool('ignore-lease') } },
  };
}

const SORT_TARGETS: Record<string, SortTarget> = { CREATE: 'CREATE', KEY: 'KEY', MODIFY: 'MOD', VALUE: 'VALUE', VERSION: 'VERSION' };

function buildGet(ctx: Pick<CommandContext, 'bool' | 'str' | 'int'>, args: string[]): OpBuild<RangeRequest> {
  if (args.length === 0 || args.length > 2) return { ok: false, code: ExitBadArgs, error: 'get command needs one argument as key and an optional argument as range_end' };
  const prefix = ctx.bool('prefix');
  const fromKey = ctx.bool('from-key');
  if (prefix && fromKey) return { ok: false, code: ExitBadArgs, error: '`--prefix` and `--from-key` cannot be set at the same time, choose one' };
  const consistency = ctx.str('consistency', 'l');
  if (consistency !== 'l' && consistency !== 's') return { ok: false, code: ExitBadArgs, error: `unknown consistency flag "${consistency}"` };
  const order = ctx.str('order').toUpperCase();
  if (order !== '' && order !== 'ASCEND' && order !== 'DESCEND') return { ok: false, code: ExitBadArgs, error: `bad sort order ${ctx.str('order')}` };
  const sortBy = ctx.str('sort-by').toUpperCase();
  if (sortBy !== '' && !(sortBy in SORT_TARGETS)) return { ok: false, code: ExitBadArgs, error: `bad sort target ${ctx.str('sort-by')}` };
  const range = keyRange(args, prefix, fromKey);
  if (!range.ok) return range;
  const sortOrder: SortOrder = order === '' ? (sortBy !== '' ? 'ASCEND' : 'NONE') : (order as SortOrder);
  return {
    ok: true,
    value: {
      ...range.value,
      limit: ctx.int('limit'),
      revision: ctx.int('rev'),
      sortOrder,
      sortTarget: sortBy === '' ? 'KEY' : SORT_TARGETS[sortBy]!,
      serializable: consistency === 's',
      keysOnly: ctx.bool('keys-only'),
      countOnly: ctx.bool('count-only'),
    },
  };
}

/** The key/range_end pair of get/del/watch, as clientv3.WithPrefix/WithFromKey build it. */
export function keyRange(args: string[], prefix: boolean, fromKey: boolean): OpBuild<{ key: string; rangeEnd?: string }> {
  const key = args[0]!;
  if (args.length > 1) {
    if (prefix || fromKey) return { ok: false, code: ExitBadArgs, error: 'too many arguments, only accept one argument when `--prefix` or `--from-key` is set.' };
    return { ok: true, value: { key, rangeEnd: args[1]! } };
  }
  if (prefix) return { ok: true, value: key === '' ? { key: '\0', rangeEnd: '\0' } : { key, rangeEnd: prefixEnd(key) } };
  if (fromKey) return { ok: true, value: { key: key === '' ? '\0' : key, rangeEnd: '\0' } };
  return { ok: true, value: { key } };
}

export function runPut(ctx: CommandContext): void {
  const op = buildPut(ctx, ctx.positional, ctx.io.stdin);
  if (!op.ok) return ctx.fail(op.code, op.error);
  ctx.client.put(op.value.put, (r) => {
    if (!r.ok) return ctx.failWith(r.error);
    ctx.out(ctx.format === 'json' ? json.put(r.value) : simple.put(r.value));
    ctx.finish();
  }, ctx.call());
}

export function runGet(ctx: CommandContext): void {
  const req = buildGet(ctx, ctx.positional);
  if (!req.ok) return ctx.fail(req.code, req.error);
  if (ctx.bool('print-value-only') && ctx.format !== 'simple') return ctx.fail(ExitBadArgs, '`--print-value-only` is only for `-w simple`');
  if (ctx.bool('count-only') && ctx.format !== 'json') return ctx.fail(ExitBadFeature, '`--count-only` is only for `-w json`');
  ctx.client.range(req.value, (r) => {
    if (!r.ok) return ctx.failWith(r.error);
    ctx.out(ctx.format === 'json' ? json.get(r.value) : simple.get(r.value, ctx.bool('print-value-only')));
    ctx.finish();
  }, ctx.call());
}

export function runDel(ctx: CommandContext): void {
  const args = ctx.positional;
  if (args.length === 0 || args.length > 2) return ctx.fail(ExitBadArgs, 'del command needs one argument as key and an optional argument as range_end');
  if (ctx.bool('prefix') && ctx.bool('from-key')) return ctx.fail(ExitBadArgs, '`--prefix` and `--from-key` cannot be set at the same time, choose one');
  const range = keyRange(args, ctx.bool('prefix'), ctx.bool('from-key'));
  if (!range.ok) return ctx.fail(range.code, range.error);
  ctx.client.deleteRange({ ...range.value, prevKv: ctx.bool('prev-kv') }, (r) => {
    if (!r.ok) return ctx.failWith(r.error);
    ctx.out(ctx.format === 'json' ? json.del(r.value) : simple.del(r.value));
    ctx.finish();
  }, ctx.call());
}

/** One line of a txn's success/failure section (txn_command.go parseRequestUnion). */
function parseRequestLine(line: string): Parsed<RequestOp> {
  const split = shellSplit(line);
  const invalid = { ok: false as const, error: `invalid txn request: ${line}` };
  if (!split.ok || split.args.length < 2) return invalid;
  const [verb, ...rest] = split.args;
  const specs = verb === 'put' ? PUT_FLAGS : verb === 'get' ? GET_FLAGS : verb === 'del' ? DEL_FLAGS : undefined;
  if (!specs) return invalid;
  const parsed = parseFlags(rest, specs);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const view = {
    bool: (n: string) => parsed.flags.get(n) === true,
    str: (n: string, f = '') => (typeof parsed.flags.get(n) === 'string' ? (parsed.flags.get(n) as string) : f),
    int: (n: string, f = 0) => (typeof parsed.flags.get(n) === 'number' ? (parsed.flags.get(n) as number) : f),
  };
  if (verb === 'put') {
    const op = buildPut(view, parsed.positional, undefined);
    return op.ok ? { ok: true, value: op.value } : invalid;
  }
  if (verb === 'get') {
    const op = buildGet(view, parsed.positional);
    return op.ok ? { ok: true, value: { range: op.value } } : invalid;
  }
  const range = keyRange(parsed.positional, view.bool('prefix'), view.bool('from-key'));
  return range.ok ? { ok: true, value: { deleteRange: { ...range.value, prevKv: view.bool('prev-kv') } } } : invalid;
}

export function runTxn(ctx: CommandContext): void {
  if (ctx.positional.length > 0) return ctx.fail(ExitBadArgs, 'txn command does not accept argument');
  const input = parseTxnInput(ctx.io.stdin ?? '', parseRequestLine);
  if (!input.ok) return ctx.fail(ExitInvalidInput, input.error);
  if (ctx.bool('interactive')) {
    ctx.out('compares:\n\nsuccess requests (get, put, del):\n\nfailure requests (get, put, del):\n\n');
  }
  const { compares, success, failure } = input.value;
  ctx.client.txn({ compare: compares, success, failure }, (r) => {
    if (!r.ok) return ctx.failWith(r.error);
    ctx.out(ctx.format === 'json' ? json.txn(r.value) : simple.txn(r.value));
    ctx.finish();
  }, ctx.call());
}

export function runCompaction(ctx: CommandContext): void {
  if (ctx.positional.length !== 1) return ctx.fail(ExitBadArgs, 'compaction command needs 1 argument');
  const text = ctx.positional[0]!;
  if (!/^-?\d+$/.test(text)) return ctx.fail(ExitError, `strconv.ParseInt: parsing "${text}": invalid syntax`);
  const rev = Number(text);
  ctx.client.compact(rev, (r) => {
    if (!r.ok) return ctx.failWith(r.error);
    ctx.out(`compacted revision ${rev}\n`);
    ctx.finish();
  }, ctx.call());
}
