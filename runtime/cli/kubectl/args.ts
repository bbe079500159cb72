// kubectl's command line: the command tree, global and per-command flags, parsed with pflag's
// rules (--name=value and --name value, -n value and -nvalue, combined boolean shorthands like
// -Aw, "--" ends flags, flags may follow positionals) and cobra/kubectl's error texts:
//   error: unknown command "foo" for "kubectl"          (cobra command.go Find + suggestions)
//   error: unknown flag: --foo                          (pflag flag.go failf)
//   error: unknown shorthand flag: 'z' in -z
//   error: flag needs an argument: --namespace
//   See 'kubectl get --help' for usage.                 (kubectl cmd.go SetFlagErrorFunc)
import { parseGoDuration } from '../../api/index.ts';

/** 'strings' is pflag's StringSlice (commas split values), 'array' its StringArray (each flag one value). */
export type FlagKind = 'bool' | 'string' | 'int' | 'strings' | 'array' | 'duration';

export interface FlagSpec {
  name: string;
  shorthand?: string;
  kind: FlagKind;
  /** For a string flag written without a value (--dry-run means --dry-run=unchanged upstream). */
  noOptDefault?: string;
}

const f = (name: string, kind: FlagKind, shorthand?: string, noOptDefault?: string): FlagSpec => ({
  name,
  kind,
  shorthand,
  noOptDefault,
});

/** Flags every kubectl command accepts (kubectl's persistent flags). */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  f('namespace', 'string', 'n'),
  f('as', 'string'),
  f('as-group', 'array'),
  f('token', 'string'),
  f('server', 'string', 's'),
  f('context', 'string'),
  f('kubeconfig', 'string'),
  f('request-timeout', 'string'),
  f('v', 'int', 'v'),
  f('help', 'bool', 'h'),
];

const OUTPUT = f('output', 'string', 'o');
const SELECTOR = f('selector', 'string', 'l');
const FIELD_SELECTOR = f('field-selector', 'string');
const ALL_NAMESPACES = f('all-namespaces', 'bool', 'A');
const FILENAME = f('filename', 'array', 'f');
const RECURSIVE = f('recursive', 'bool', 'R');
const DRY_RUN = f('dry-run', 'string', undefined, 'unchanged');
const ALL = f('all', 'bool');
const OVERWRITE = f('overwrite', 'bool');
const GRACE = f('grace-period', 'int');
const FORCE = f('force', 'bool');
const TIMEOUT = f('timeout', 'duration');
/** cmdutil.AddValidateFlags: strict by default, and --validate alone is strict. */
const VALIDATE = f('validate', 'string', undefined, 'strict');

export const COMMAND_FLAGS: Readonly<Record<string, readonly FlagSpec[]>> = {
  get: [
    OUTPUT,
    SELECTOR,
    FIELD_SELECTOR,
    ALL_NAMESPACES,
    FILENAME,
    RECURSIVE,
    f('sort-by', 'string'),
    f('watch', 'bool', 'w'),
    f('watch-only', 'bool'),
    f('show-labels', 'bool'),
    f('no-headers', 'bool'),
    f('raw', 'string'),
    f('label-columns', 'strings', 'L'),
    f('show-kind', 'bool'),
    f('ignore-not-found', 'bool'),
    f('chunk-size', 'int'),
    f('output-watch-events', 'bool'),
  ],
  describe: [SELECTOR, ALL_NAMESPACES, FILENAME, RECURSIVE, f('show-events', 'bool')],
  apply: [
    FILENAME,
    RECURSIVE,
    OUTPUT,
    DRY_RUN,
    VALIDATE,
    f('server-side', 'bool'),
    FORCE,
    f('prune', 'bool'),
    SELECTOR,
  ],
  create: [
    FILENAME,
    RECURSIVE,
    OUTPUT,
    DRY_RUN,
    VALIDATE,
    f('image', 'strings'),
    f('replicas', 'int', 'r'),
    f('port', 'int'),
    f('save-config', 'bool'),
    // create poddisruptionbudget
    f('selector', 'string'),
    f('min-available', 'string'),
    f('max-unavailable', 'string'),
    // create service clusterip|nodeport|loadbalancer|externalname
    f('tcp', 'strings'),
    f('clusterip', 'string'),
    f('node-port', 'int'),
    f('external-name', 'string'),
    // create configmap | secret generic|docker-registry|tls
    f('from-literal', 'array'),
    f('from-file', 'strings'),
    f('from-env-file', 'strings'),
    f('type', 'string'),
    f('docker-server', 'string'),
    f('docker-username', 'string'),
    f('docker-password', 'string'),
    f('docker-email', 'string'),
    f('cert', 'string'),
    f('key', 'string'),
    // create role|clusterrole|rolebinding|clusterrolebinding
    f('verb', 'strings'),
    f('resource', 'strings'),
    f('resource-name', 'array'),
    f('non-resource-url', 'strings'),
    f('aggregation-rule', 'string'),
    f('role', 'string'),
    f('clusterrole', 'string'),
    f('user', 'array'),
    f('group', 'array'),
    f('serviceaccount', 'array'),
    // create quota | priorityclass
    f('hard', 'string'),
    f('scopes', 'string'),
    f('value', 'int'),
    f('global-default', 'bool'),
    f('description', 'string'),
    f('preemption-policy', 'string'),
    // create token
    f('duration', 'duration'),
    f('audience', 'array'),
    f('bound-object-kind', 'string'),
    f('bound-object-name', 'string'),
    f('bound-object-uid', 'string'),
  ],
  replace: [FILENAME, RECURSIVE, OUTPUT, DRY_RUN, VALIDATE, FORCE, GRACE, f('save-config', 'bool')],
  delete: [
    FILENAME,
    RECURSIVE,
    SELECTOR,
    FIELD_SELECTOR,
    ALL,
    ALL_NAMESPACES,
    GRACE,
    FORCE,
    f('now', 'bool'),
    f('ignore-not-found', 'bool'),
    f('wait', 'bool'),
    OUTPUT,
    DRY_RUN,
    TIMEOUT,
  ],
  scale: [
    FILENAME,
    SELECTOR,
    ALL,
    f('replicas', 'int'),
    f('current-replicas', 'int'),
    f('resource-version', 'string'),
    OUTPUT,
    DRY_RUN,
    TIMEOUT,
  ],
  'rollout status': [f('watch', 'bool', 'w'), f('revision', 'int'), TIMEOUT, SELECTOR, FILENAME],
  'rollout history': [f('revision', 'int'), OUTPUT, SELECTOR, FILENAME],
  'rollout undo': [f('to-revision', 'int'), DRY_RUN, OUTPUT, SELECTOR, FILENAME],
  'rollout restart': [SELECTOR, FILENAME, OUTPUT, DRY_RUN],
  'set image': [FILENAME, SELECTOR, ALL, OUTPUT, DRY_RUN, f('local', 'bool')],
  cordon: [SELECTOR, DRY_RUN],
  uncordon: [SELECTOR, DRY_RUN],
  drain: [
    SELECTOR,
    FORCE,
    GRACE,
    TIMEOUT,
    DRY_RUN,
    f('ignore-daemonsets', 'bool'),
    f('delete-emptydir-data', 'bool'),
    f('disable-eviction', 'bool'),
    f('pod-selector', 'string'),
  ],
  taint: [SELECTOR, ALL, OVERWRITE, OUTPUT, DRY_RUN],
  patch: [
    FILENAME,
    RECURSIVE,
    OUTPUT,
    DRY_RUN,
    f('patch', 'string', 'p'),
    f('patch-file', 'string'),
    f('type', 'string'),
    f('subresource', 'string'),
  ],
  label: [
    SELECTOR,
    ALL,
    ALL_NAMESPACES,
    OVERWRITE,
    OUTPUT,
    DRY_RUN,
    FILENAME,
    f('list', 'bool'),
    f('resource-version', 'string'),
    FIELD_SELECTOR,
  ],
  logs: [
    f('container', 'string', 'c'),
    f('follow', 'bool', 'f'),
    f('previous', 'bool', 'p'),
    f('tail', 'int'),
    f('timestamps', 'bool'),
    f('all-containers', 'bool'),
    SELECTOR,
    f('since', 'duration'),
    f('since-time', 'string'),
    f('limit-bytes', 'int'),
    f('prefix', 'bool'),
  ],
  wait: [FILENAME, RECURSIVE, SELECTOR, FIELD_SELECTOR, ALL, ALL_NAMESPACES, OUTPUT, f('for', 'string'), TIMEOUT],
  exec: [f('container', 'string', 'c'), f('stdin', 'bool', 'i'), f('tty', 'bool', 't'), f('quiet', 'bool', 'q'), f('pod-running-timeout', 'duration'), FILENAME],
  events: [OUTPUT, ALL_NAMESPACES, f('watch', 'bool', 'w'), f('for', 'string'), f('types', 'strings'), f('no-headers', 'bool'), f('chunk-size', 'int')],
  'auth whoami': [OUTPUT],
  'auth can-i': [
    ALL_NAMESPACES,
    f('list', 'bool'),
    f('subresource', 'string'),
    f('quiet', 'bool', 'q'),
    f('no-headers', 'bool'),
  ],
  'api-versions': [],
  'api-resources': [
    OUTPUT,
    f('namespaced', 'string'),
    f('no-headers', 'bool'),
    f('api-group', 'string'),
    f('verbs', 'strings'),
    f('sort-by', 'string'),
  ],
  version: [f('client', 'bool'), OUTPUT],
  'rollout pause': [SELECTOR, FILENAME, OUTPUT],
  'rollout resume': [SELECTOR, FILENAME, OUTPUT],
  annotate: [SELECTOR, ALL, ALL_NAMESPACES, OVERWRITE, OUTPUT, DRY_RUN, FILENAME, f('list', 'bool'), f('resource-version', 'string'), FIELD_SELECTOR],
  run: [
    f('image', 'string'),
    f('labels', 'string', 'l'),
    f('port', 'string'),
    f('env', 'strings'),
    f('restart', 'string'),
    f('command', 'bool'),
    f('expose', 'bool'),
    f('image-pull-policy', 'string'),
    f('stdin', 'bool', 'i'),
    f('tty', 'bool', 't'),
    f('rm', 'bool'),
    f('attach', 'bool'),
    f('quiet', 'bool', 'q'),
    f('pod-running-timeout', 'duration'),
    f('annotations', 'strings'),
    OUTPUT,
    DRY_RUN,
  ],
  expose: [
    FILENAME,
    SELECTOR,
    OUTPUT,
    DRY_RUN,
    f('port', 'string'),
    f('target-port', 'string'),
    f('protocol', 'string'),
    f('name', 'string'),
    f('type', 'string'),
    f('labels', 'string', 'l'),
    f('external-ip', 'string'),
    f('cluster-ip', 'string'),
    f('session-affinity', 'string'),
  ],
  'cluster-info': [],
  'top node': [SELECTOR, f('no-headers', 'bool')],
  'top nodes': [SELECTOR, f('no-headers', 'bool')],
  'top pod': [SELECTOR, ALL_NAMESPACES, f('no-headers', 'bool')],
  'top pods': [SELECTOR, ALL_NAMESPACES, f('no-headers', 'bool')],
  'config view': [OUTPUT, f('minify', 'bool')],
  'config get-contexts': [OUTPUT, f('no-headers', 'bool')],
  'config get-clusters': [],
  'config get-users': [],
  'config current-context': [],
  'config use-context': [],
  'config set-context': [f('current', 'bool'), f('cluster', 'string'), f('user', 'string')],
  'config set-credentials': [f('client-certificate', 'string'), f('client-key', 'string'), f('embed-certs', 'bool'), f('username', 'string'), f('password', 'string')],
  'config delete-context': [],
};

/** Commands with subcommands: the parent alone prints its help, like cobra. */
export const PARENT_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  rollout: ['history', 'pause', 'restart', 'resume', 'status', 'undo'],
  set: ['env', 'image', 'resources', 'selector', 'serviceaccount', 'subject'],
  auth: ['can-i', 'reconcile', 'whoami'],
  top: ['node', 'pod'],
  config: ['current-context', 'delete-cluster', 'delete-context', 'delete-user', 'get-clusters', 'get-contexts', 'get-users', 'rename-context', 'set', 'set-cluster', 'set-context', 'set-credentials', 'unset', 'use-context', 'view'],
};

export type FlagValue = string | boolean | number | string[];

export interface ParsedArgs {
  /** "get", "rollout status", ... */
  command: string;
  positionals: string[];
  flags: Map<string, FlagValue>;
  /** cobra's ArgsLenAtDash: how many positionals came before "--" (-1 without one). */
  argsLenAtDash?: number;
}

export type ParseResult = { ok: true; args: ParsedArgs } | { ok: false; error: string };

const usage = (command: string): string => `See 'kubectl ${command} --help' for usage.`;

/** Parses argv (without the leading "kubectl"). */
export function parseArgs(argv: readonly string[]): ParseResult {
  const found = findCommand(argv);
  if (!found.ok) return found;
  const specs = [...GLOBAL_FLAGS, ...(COMMAND_FLAGS[found.command] ?? [])];
  const parsed = parseFlags(argv, specs, found.commandWords);
  if (!parsed.ok) return { ok: false, error: `error: ${parsed.error}\n${usage(found.command)}` };
  return {
    ok: true,
    args: { command: found.command, positionals: parsed.positionals, flags: parsed.flags, argsLenAtDash: parsed.argsLenAtDash },
  };
}

/** cobra's Find: the first non-flag words name the command (global flags may come first). */
function findCommand(
  argv: readonly string[],
): { ok: true; command: string; commandWords: number[] } | { ok: false; error: string } {
  const words: { word: string; at: number }[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a.startsWith('-') && a !== '-') {
      const spec = globalSpecFor(a);
      if (
        spec &&
        spec.kind !== 'bool' &&
        !a.includes('=') &&
        !(a.length > 2 && !a.startsWith('--'))
      )
        i++;
      continue;
    }
    words.push({ word: a, at: i });
    if (!Object.hasOwn(PARENT_COMMANDS, a) && words.length === 1) break;
  }
  const first = words[0];
  if (!first)
    return {
      ok: false,
      error: 'error: You must specify a command. Run "kubectl --help" for the list of commands.',
    };
  // own keys only: a word like "constructor" or "valueOf" names no command
  if (Object.hasOwn(PARENT_COMMANDS, first.word)) {
    const sub = words[1];
    if (!sub)
      return {
        ok: false,
        error: `error: You must specify a subcommand of "kubectl ${first.word}": ${PARENT_COMMANDS[first.word]!.join(', ')}`,
      };
    const name = `${first.word} ${sub.word}`;
    // a real subcommand this simulation lacks: say so, rather than suggest the word just typed
    if (!Object.hasOwn(COMMAND_FLAGS, name) && PARENT_COMMANDS[first.word]!.includes(sub.word))
      return { ok: false, error: `error: "kubectl ${name}" is not available in this simulated cluster` };
    if (!Object.hasOwn(COMMAND_FLAGS, name))
      return {
        ok: false,
        error: unknownCommand(sub.word, `kubectl ${first.word}`, PARENT_COMMANDS[first.word]!),
      };
    return { ok: true, command: name, commandWords: [first.at, sub.at] };
  }
  if (!Object.hasOwn(COMMAND_FLAGS, first.word)) {
    return {
      ok: false,
      error: unknownCommand(first.word, 'kubectl', [
        ...Object.keys(COMMAND_FLAGS).filter((c) => !c.includes(' ')),
        ...Object.keys(PARENT_COMMANDS),
      ]),
    };
  }
  return { ok: true, command: first.word, commandWords: [first.at] };
}

function globalSpecFor(arg: string): FlagSpec | undefined {
  if (arg.startsWith('--')) return GLOBAL_FLAGS.find((s) => s.name === arg.slice(2).split('=')[0]);
  return GLOBAL_FLAGS.find((s) => s.shorthand === arg[1]);
}

/** cobra's "unknown command" error with "Did you mean this?" suggestions (Levenshtein <= 2 or prefix). */
function unknownCommand(word: string, path: string, candidates: readonly string[]): string {
  const suggestions = [...new Set(candidates)]
    .filter((c) => levenshtein(word.toLowerCase(), c) <= 2 || c.startsWith(word.toLowerCase()))
    .sort();
  const hint =
    suggestions.length > 0
      ? `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}\n`).join('')}`
      : '';
  return `error: unknown command "${word}" for "${path}"${hint}`;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = cur;
  }
  return prev[b.length]!;
}

type FlagParse =
  | { ok: true; positionals: string[]; flags: Map<string, FlagValue>; argsLenAtDash: number }
  | { ok: false; error: string };

function parseFlags(argv: readonly string[], specs: FlagSpec[], commandWords: number[]): FlagParse {
  const flags = new Map<string, FlagValue>();
  const positionals: string[] = [];
  let argsLenAtDash = -1;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (commandWords.includes(i)) continue;
    if (a === '--') {
      argsLenAtDash = positionals.length;
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const spec = specs.find((s) => s.name === name);
      if (!spec) return { ok: false, error: `unknown flag: --${name}` };
      let value: string | undefined = eq < 0 ? undefined : a.slice(eq + 1);
      if (value === undefined && spec.kind !== 'bool' && spec.noOptDefault === undefined) {
        if (i + 1 >= argv.length) return { ok: false, error: `flag needs an argument: --${name}` };
        value = argv[++i]!;
      }
      const set = setFlag(flags, spec, value ?? spec.noOptDefault);
      if (set) return { ok: false, error: set };
    } else if (a.startsWith('-') && a.length > 1) {
      const error = parseShorthands(a, specs, flags, () => argv[++i]);
      if (error) return { ok: false, error };
    } else {
      positionals.push(a);
    }
  }
  return { ok: true, positionals, flags, argsLenAtDash };
}

/** -abc: booleans in a row, then one flag that takes the rest (or the next word) as its value. */
function parseShorthands(
  arg: string,
  specs: FlagSpec[],
  flags: Map<string, FlagValue>,
  next: () => string | undefined,
): string | undefined {
  const chars = arg.slice(1);
  for (let j = 0; j < chars.length; j++) {
    const c = chars[j]!;
    const spec = specs.find((s) => s.shorthand === c);
    if (!spec) return `unknown shorthand flag: '${c}' in ${arg}`;
    if (spec.kind === 'bool') {
      const explicit = chars[j + 1] === '=' ? chars.slice(j + 2) : undefined;
      const err = setFlag(flags, spec, explicit);
      if (err) return err;
      if (explicit !== undefined) return undefined;
      continue;
    }
    let value = chars.slice(j + 1);
    if (value.startsWith('=')) value = value.slice(1);
    else if (value === '') {
      const n = next();
      if (n === undefined) return `flag needs an argument: '${c}' in ${arg}`;
      value = n;
    }
    return setFlag(flags, spec, value);
  }
  return undefined;
}

/** Stores a flag value, or returns pflag's "invalid argument" text. */
function setFlag(
  flags: Map<string, FlagValue>,
  spec: FlagSpec,
  raw: string | undefined,
): string | undefined {
  const flagName = spec.shorthand ? `-${spec.shorthand}, --${spec.name}` : `--${spec.name}`;
  switch (spec.kind) {
    case 'bool': {
      if (
        raw === undefined ||
        raw === 'true' ||
        raw === '1' ||
        raw === 't' ||
        raw === 'T' ||
        raw === 'TRUE' ||
        raw === 'True'
      )
        flags.set(spec.name, true);
      else if (
        raw === 'false' ||
        raw === '0' ||
        raw === 'f' ||
        raw === 'F' ||
        raw === 'FALSE' ||
        raw === 'False'
      )
        flags.set(spec.name, false);
      else
        return `invalid argument "${raw}" for "${flagName}" flag: strconv.ParseBool: parsing "${raw}": invalid syntax`;
      return undefined;
    }
    case 'int': {
      if (raw === undefined || !/^[-+]?\d+$/.test(raw)) {
        return `invalid argument "${raw ?? ''}" for "${flagName}" flag: strconv.ParseInt: parsing "${raw ?? ''}": invalid syntax`;
      }
      flags.set(spec.name, Number(raw));
      return undefined;
    }
    case 'strings':
    case 'array': {
      const prev = (flags.get(spec.name) as string[] | undefined) ?? [];
      flags.set(spec.name, [...prev, ...(spec.kind === 'array' ? [raw ?? ''] : (raw ?? '').split(','))]);
      return undefined;
    }
    case 'string':
      flags.set(spec.name, raw ?? '');
      return undefined;
    case 'duration':
      // pflag's DurationVar: time.ParseDuration at parse time; kept as text, read with flagDurationMs
      if (raw === undefined || parseGoDuration(raw) === undefined) {
        return `invalid argument "${raw ?? ''}" for "${flagName}" flag: time: invalid duration "${raw ?? ''}"`;
      }
      flags.set(spec.name, raw);
      return undefined;
  }
}

// ---------------------------------------------------------------- typed access

/** A duration flag in milliseconds (already validated by the parser), or undefined when absent. */
export const flagDurationMs = (a: ParsedArgs, name: string): number | undefined => {
  const v = a.flags.get(name);
  return typeof v === 'string' ? parseGoDuration(v) : undefined;
};

export const flagString = (a: ParsedArgs, name: string): string | undefined => {
  const v = a.flags.get(name);
  return typeof v === 'string' ? v : undefined;
};
export const flagBool = (a: ParsedArgs, name: string): boolean => a.flags.get(name) === true;
export const flagInt = (a: ParsedArgs, name: string): number | undefined => {
  const v = a.flags.get(name);
  return typeof v === 'number' ? v : undefined;
};
export const flagStrings = (a: ParsedArgs, name: string): string[] => {
  const v = a.flags.get(name);
  return Array.isArray(v) ? v : [];
};
