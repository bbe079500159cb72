// runEtcdctl: one etcdctl invocation against a client, answered through a callback once the
// simulated requests complete. mirrors etcdctl/ctlv3/ctl.go (global flags) and cobra's dispatch.
import type { EtcdClient } from '../../etcd/index.ts';
import { parseFlags, shellSplit, type FlagSpec } from './argv.ts';
import {
  COMPACTION_FLAGS, DEL_FLAGS, GET_FLAGS, PUT_FLAGS, TXN_FLAGS, runCompaction, runDel, runGet, runPut, runTxn,
} from './commands-kv.ts';
import {
  ENDPOINT_FLAGS, LEASE_KEEPALIVE_FLAGS, LEASE_TTL_FLAGS, SNAPSHOT_RESTORE_FLAGS, WATCH_FLAGS, runEndpoint, runLease,
  runMemberList, runSnapshot, runVersion, runWatch,
} from './commands-cluster.ts';
import { CommandContext, ExitBadFeature, ExitError, type EtcdctlIo, type EtcdctlResult } from './context.ts';
import type { OutputFormat } from './printers.ts';

const GLOBAL_FLAGS: FlagSpec[] = [
  { name: 'endpoints', kind: 'string' }, { name: 'write-out', short: 'w', kind: 'string' },
  { name: 'command-timeout', kind: 'duration' }, { name: 'dial-timeout', kind: 'duration' },
  { name: 'keepalive-time', kind: 'duration' }, { name: 'keepalive-timeout', kind: 'duration' },
  { name: 'hex', kind: 'bool' }, { name: 'debug', kind: 'bool' }, { name: 'insecure-transport', kind: 'bool' },
  { name: 'insecure-skip-tls-verify', kind: 'bool' }, { name: 'insecure-discovery', kind: 'bool' },
  { name: 'cacert', kind: 'string' }, { name: 'cert', kind: 'string' }, { name: 'key', kind: 'string' },
  { name: 'user', kind: 'string' }, { name: 'password', kind: 'string' }, { name: 'discovery-srv', short: 'd', kind: 'string' },
  { name: 'help', short: 'h', kind: 'bool' },
];

type Runner = (ctx: CommandContext, sub: string) => void;
interface CommandDef {
  flags: FlagSpec[];
  run: Runner;
  use: string;
}

const COMMANDS: Record<string, CommandDef> = {
  put: { flags: PUT_FLAGS, run: runPut, use: 'put [options] <key> <value> (<value> can also be given from stdin)' },
  get: { flags: GET_FLAGS, run: runGet, use: 'get [options] <key> [range_end]' },
  del: { flags: DEL_FLAGS, run: runDel, use: 'del [options] <key> [range_end]' },
  txn: { flags: TXN_FLAGS, run: runTxn, use: 'txn [options]' },
  compaction: { flags: COMPACTION_FLAGS, run: runCompaction, use: 'compaction [options] <revision>' },
  watch: { flags: WATCH_FLAGS, run: runWatch, use: 'watch [options] [key or prefix] [range_end] [--] [exec-command arg1 arg2 ...]' },
  version: { flags: [], run: runVersion, use: 'version' },
};

const GROUPS: Record<string, Record<string, CommandDef>> = {
  lease: {
    grant: { flags: [], run: runLease, use: 'lease grant <ttl>' },
    revoke: { flags: [], run: runLease, use: 'lease revoke <leaseID>' },
    timetolive: { flags: LEASE_TTL_FLAGS, run: runLease, use: 'lease timetolive <leaseID> [options]' },
    'keep-alive': { flags: LEASE_KEEPALIVE_FLAGS, run: runLease, use: 'lease keep-alive [options] <leaseID>' },
  },
  member: { list: { flags: [], run: runMemberList, use: 'member list' } },
  endpoint: {
    status: { flags: ENDPOINT_FLAGS, run: runEndpoint, use: 'endpoint status [flags]' },
    health: { flags: ENDPOINT_FLAGS, run: runEndpoint, use: 'endpoint health [flags]' },
    hashkv: { flags: ENDPOINT_FLAGS, run: runEndpoint, use: 'endpoint hashkv [flags]' },
  },
  snapshot: {
    save: { flags: [], run: runSnapshot, use: 'snapshot save <filename>' },
    status: { flags: [], run: runSnapshot, use: 'snapshot status <filename>' },
    restore: { flags: SNAPSHOT_RESTORE_FLAGS, run: runSnapshot, use: 'snapshot restore <filename> [options]' },
  },
};

const HELP = `NAME:
\tetcdctl - A simple command line client for etcd3.

USAGE:
\tetcdctl [flags]

COMMANDS:
\tcompaction\tCompacts the event history in etcd
\tdel\t\tRemoves the specified key or range of keys [key, range_end)
\tendpoint health\tChecks the healthiness of endpoints specified in \`--endpoints\` flag
\tendpoint status\tPrints out the status of endpoints specified in \`--endpoints\` flag
\tget\t\tGets the key or a range of keys
\tlease grant\tCreates leases
\tlease keep-alive\tKeeps leases alive (renew)
\tlease revoke\tRevokes leases
\tlease timetolive\tGet lease information
\tmember list\tLists all members in the cluster
\tput\t\tPuts the given key into the store
\tsnapshot restore\tRestores an etcd member snapshot to an etcd directory
\tsnapshot save\tStores an etcd node backend snapshot to a given file
\tsnapshot status\tGets backend snapshot status of a given file
\ttxn\t\tTxn processes all the requests in one transaction
\tversion\t\tPrints the version of etcdctl
\twatch\t\tWatches events stream on keys or prefixes
`;

/** Splits off the command words (e.g. ["lease", "grant"]) from the flags and arguments. */
function findCommand(args: string[]): { words: string[]; rest: string[] } {
  const words: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const wanted = words.length === 0 || (words.length === 1 && Object.hasOwn(GROUPS, words[0]!));
    if (wanted && !a.startsWith('-')) {
      words.push(a);
      continue;
    }
    rest.push(a);
    // A global flag given as "--flag value" consumes the next word, which is not a command.
    const spec = a.startsWith('--') && !a.includes('=') ? GLOBAL_FLAGS.find((s) => s.name === a.slice(2)) : undefined;
    if (spec && spec.kind !== 'bool' && i + 1 < args.length) rest.push(args[++i]!);
  }
  return { words, rest };
}

/** Runs one etcdctl command line; `done` is called exactly once, from a kernel event or right away. */
export function runEtcdctl(argv: string, client: EtcdClient, io: EtcdctlIo, done: (r: EtcdctlResult) => void): void {
  const bail = (message: string, code = ExitError, extra = ''): void =>
    done({ stdout: '', stderr: `Error: ${message}\n${extra}`, exitCode: code });
  const split = shellSplit(argv.trim().replace(/^etcdctl(\s+|$)/, ''));
  if (!split.ok) return bail(split.error);
  const { words, rest } = findCommand(split.args);
  if (words.length === 0) return done({ stdout: HELP, stderr: '', exitCode: 0 });
  const [name, sub = ''] = words;
  // own keys only: a word like "constructor" or "toString" names no command
  const group = Object.hasOwn(GROUPS, name!) ? GROUPS[name!] : undefined;
  const def = group ? (Object.hasOwn(group, sub) ? group[sub] : undefined) : Object.hasOwn(COMMANDS, name!) ? COMMANDS[name!] : undefined;
  if (!def) {
    if (group && sub === '') return done({ stdout: groupHelp(name!), stderr: '', exitCode: 0 });
    const where = group ? `etcdctl ${name}` : 'etcdctl';
    return bail(`unknown command "${group ? sub : name}" for "${where}"`, ExitError, `Run '${where} --help' for usage.\n`);
  }
  const parsed = parseFlags(rest, [...GLOBAL_FLAGS, ...def.flags]);
  if (!parsed.ok) return bail(parsed.error, ExitError, `Usage:\n  etcdctl ${def.use} [flags]\n`);
  if (parsed.flags.get('help') === true) return done({ stdout: `Usage:\n  etcdctl ${def.use} [flags]\n`, stderr: '', exitCode: 0 });
  const format = (parsed.flags.get('write-out') as string | undefined) ?? 'simple';
  if (format !== 'simple' && format !== 'json' && format !== 'table') {
    return bail(`unsupported output format "${format}" (this simulator prints simple, json and table)`, ExitBadFeature);
  }
  const explicit = parsed.flags.get('endpoints') as string | undefined;
  const endpoints = explicit ? explicit.split(',').filter((e) => e !== '') : (io.defaultEndpoints ?? client.endpoints.slice(0, 1));
  const ctx = new CommandContext(client, io, parsed.flags, parsed.positional, format as OutputFormat, endpoints, done);
  def.run(ctx, sub);
}

function groupHelp(group: string): string {
  const subs = Object.values(GROUPS[group]!).map((d) => `\tetcdctl ${d.use}`);
  return `Usage:\n${subs.join('\n')}\n`;
}
