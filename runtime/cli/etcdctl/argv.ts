// Shell-like argument splitting and a small pflag/cobra-style flag parser, so `etcdctl` input typed
// in the browser terminal behaves like it would in bash, with the same error texts as the real
// tool (spf13/pflag flag.go: "unknown flag: --foo", "flag needs an argument: --rev",
// `invalid argument "x" for "--rev" flag: ...`).
import { parseGoDuration } from '../../api/index.ts';

export type SplitResult = { ok: true; args: string[] } | { ok: false; error: string };

/** Splits a command line like a POSIX shell: whitespace, '...', "...", backslash escapes and line continuations. */
export function shellSplit(line: string): SplitResult {
  const args: string[] = [];
  let cur = '';
  let inArg = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { ok: false, error: 'unterminated single quote' };
      cur += line.slice(i + 1, end);
      i = end;
      inArg = true;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && line[j + 1] === '\n') {
          j++; // a line continuation
          continue;
        }
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        cur += line[j]!;
      }
      if (j >= line.length) return { ok: false, error: 'unterminated double quote' };
      i = j;
      inArg = true;
    } else if (ch === '\\' && line[i + 1] === '\n') {
      i++; // a line continuation: the backslash and the newline both go
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i]!;
      inArg = true;
    } else if (/\s/.test(ch)) {
      if (inArg) args.push(cur);
      cur = '';
      inArg = false;
    } else {
      cur += ch;
      inArg = true;
    }
  }
  if (inArg) args.push(cur);
  return { ok: true, args };
}

export type FlagKind = 'bool' | 'string' | 'int' | 'duration';

export interface FlagSpec {
  name: string;
  short?: string;
  kind: FlagKind;
}

export type FlagValue = string | number | boolean;

export type ParseResult =
  | { ok: true; flags: Map<string, FlagValue>; positional: string[] }
  | { ok: false; error: string };

/** Parses flags anywhere among the arguments (cobra interspersed mode); `--` ends flags. */
export function parseFlags(args: string[], specs: readonly FlagSpec[]): ParseResult {
  const flags = new Map<string, FlagValue>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const body = arg.slice(long ? 2 : 1);
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const spec = long ? specs.find((s) => s.name === name) : specs.find((s) => s.short === name[0]);
    if (!spec) {
      return { ok: false, error: long ? `unknown flag: --${name}` : `unknown shorthand flag: '${name[0]}' in ${arg}` };
    }
    let raw: string | undefined;
    if (long) raw = eq >= 0 ? body.slice(eq + 1) : undefined;
    else raw = body.length > 1 ? body.slice(body[1] === '=' ? 2 : 1) : undefined;
    const shown = long ? `--${spec.name}` : `-${spec.short}, --${spec.name}`;
    if (spec.kind === 'bool') {
      if (raw === undefined) flags.set(spec.name, true);
      else if (raw === 'true' || raw === 'false') flags.set(spec.name, raw === 'true');
      else return { ok: false, error: `invalid argument "${raw}" for "${shown}" flag: strconv.ParseBool: parsing "${raw}": invalid syntax` };
      continue;
    }
    if (raw === undefined) {
      if (i + 1 >= args.length) return { ok: false, error: `flag needs an argument: ${long ? '--' + spec.name : "'" + spec.short + "' in -" + spec.short}` };
      raw = args[++i]!;
    }
    const value = convert(spec, raw, shown);
    if (typeof value === 'object') return { ok: false, error: value.error };
    flags.set(spec.name, value);
  }
  return { ok: true, flags, positional };
}

function convert(spec: FlagSpec, raw: string, shown: string): FlagValue | { error: string } {
  if (spec.kind === 'string') return raw;
  if (spec.kind === 'int') {
    if (!/^[+-]?\d+$/.test(raw)) return { error: `invalid argument "${raw}" for "${shown}" flag: strconv.ParseInt: parsing "${raw}": invalid syntax` };
    const n = Number(raw);
    if (!Number.isSafeInteger(n)) return { error: `invalid argument "${raw}" for "${shown}" flag: strconv.ParseInt: parsing "${raw}": value out of range` };
    return n;
  }
  const ms = parseGoDuration(raw);
  if (ms === undefined) return { error: `invalid argument "${raw}" for "${shown}" flag: time: invalid duration "${raw}"` };
  return ms;
}
