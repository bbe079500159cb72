// watch, lease, member, endpoint, snapshot, version.
// mirrors etcdctl/ctlv3/command/{watch,lease,member,ep,snapshot,version}_command.go.
import type { EndpointStatus, ResponseHeader, WithHeader } from '../../etcd/index.ts';
import { snapshotFileStatus, restoreDataDir, ErrMarkCompactedRequired } from '../../etcd/index.ts';
import type { FlagSpec } from './argv.ts';
import { ExitBadArgs, ExitError, ExitInterrupted, type CommandContext } from './context.ts';
import { base64Utf8 } from './format.ts';
import { formatGoDuration } from '../../api/index.ts';
import { keyRange, parseLeaseId } from './commands-kv.ts';
import {
  dbStatusTable, endpointHealthTable, endpointStatusTable, json, leaseHex, memberListTable, simple, simpleRows,
  table, type HealthRow,
} from './printers.ts';

export const ETCDCTL_VERSION = '3.5.21';

export const WATCH_FLAGS: FlagSpec[] = [
  { name: 'prefix', kind: 'bool' }, { name: 'rev', kind: 'int' }, { name: 'prev-kv', kind: 'bool' },
  { name: 'interactive', short: 'i', kind: 'bool' }, { name: 'progress-notify', kind: 'bool' },
];
export const LEASE_KEEPALIVE_FLAGS: FlagSpec[] = [{ name: 'once', kind: 'bool' }];
export const LEASE_TTL_FLAGS: FlagSpec[] = [{ name: 'keys', kind: 'bool' }];
export const ENDPOINT_FLAGS: FlagSpec[] = [{ name: 'cluster', kind: 'bool' }];
export const SNAPSHOT_RESTORE_FLAGS: FlagSpec[] = [
  { name: 'data-dir', kind: 'string' }, { name: 'name', kind: 'string' }, { name: 'initial-cluster', kind: 'string' },
  { name: 'initial-cluster-token', kind: 'string' }, { name: 'initial-advertise-peer-urls', kind: 'string' },
  { name: 'skip-hash-check', kind: 'bool' }, { name: 'wal-dir', kind: 'string' },
  { name: 'bump-revision', kind: 'int' }, { name: 'mark-compacted', kind: 'bool' },
];

const windowMs = (ctx: CommandContext): number => ctx.io.watchWindowMs ?? 2000;

/** Non-interactive watch: prints what arrives within the window, then returns (the shell is not a tty). */
export function runWatch(ctx: CommandContext): void {
  if (ctx.bool('interactive')) return ctx.fail(ExitBadArgs, 'interactive watch is not supported in this terminal; pass the key as an argument');
  const args = ctx.positional;
  if (args.length === 0 || args.length > 2) return ctx.fail(ExitBadArgs, 'watch in non-interactive mode requires one or two arguments as key or prefix, with range end');
  const range = keyRange(args, ctx.bool('prefix'), false);
  if (!range.ok) return ctx.fail(range.code, range.error);
  const handle = ctx.client.watch(
    { ...range.value, startRevision: ctx.int('rev'), prevKv: ctx.bool('prev-kv') },
    (resp) => {
      if (resp.canceled) {
        timer.cancel();
        const reason = resp.compactRevision ? 'etcdserver: mvcc: required revision has been compacted' : (resp.cancelReason ?? 'canceled');
        ctx.err(`watch was canceled (${reason})\n`);
        return ctx.fail(ExitInterrupted, 'watch is canceled by the server');
      }
      if (resp.progressNotify) ctx.out(`progress notify: ${resp.header.revision}\n`);
      if (resp.events.length === 0) return;
      ctx.out(ctx.format === 'json' ? json.watch(resp.header, resp.events) : simple.watch(resp.events));
    },
  );
  const timer = ctx.client.clock.setTimer(windowMs(ctx), () => {
    handle.cancel();
    ctx.finish();
  });
}

function leaseArg(ctx: CommandContext, command: string): number | undefined {
  if (ctx.positional.length !== 1) {
    ctx.fail(ExitBadArgs, `lease ${command} command needs 1 argument`);
    return undefined;
  }
  const id = parseLeaseId(ctx.positional[0]!);
  if (id === undefined) ctx.fail(ExitBadArgs, `bad lease ID arg (strconv.ParseInt: parsing "${ctx.positional[0]}": invalid syntax), expecting ID in Hex`);
  return id;
}

export function runLease(ctx: CommandContext, sub: string): void {
  switch (sub) {
    case 'grant': {
      if (ctx.positional.length !== 1) return ctx.fail(ExitBadArgs, 'lease grant command needs TTL argument');
      const text = ctx.positional[0]!;
      if (!/^-?\d+$/.test(text)) return ctx.fail(ExitBadArgs, `bad TTL (strconv.ParseInt: parsing "${text}": invalid syntax)`);
      return ctx.client.leaseGrant(Number(text), (r) => {
        if (!r.ok) return ctx.failWith(r.error);
        ctx.out(ctx.format === 'json' ? json.lease(r.value.header, { ID: r.value.id, TTL: r.value.ttl, Error: '' })
          : `lease ${leaseHex(r.value.id)} granted with TTL(${r.value.ttl}s)\n`);
        ctx.finish();
      }, ctx.call());
    }
    case 'revoke': {
      const id = leaseArg(ctx, 'revoke');
      if (id === undefined) return;
      return ctx.client.leaseRevoke(id, (r) => {
        if (!r.ok) return ctx.failWith(r.error);
        ctx.out(ctx.format === 'json' ? json.lease(r.value.header, {}) : `lease ${leaseHex(id)} revoked\n`);
        ctx.finish();
      }, ctx.call());
    }
    case 'timetolive': {
      const id = leaseArg(ctx, 'timetolive');
      if (id === undefined) return;
      return ctx.client.leaseTimeToLive(id, (r) => {
        if (!r.ok) return ctx.failWith(r.error);
        ctx.out(ctx.format === 'json'
          ? json.lease(r.value.header, { id: r.value.id, ttl: r.value.ttl, 'granted-ttl': r.value.grantedTtl, keys: ctx.bool('keys') ? r.value.keys.map(base64Utf8) : null })
          : simple.timeToLive(r.value, ctx.bool('keys')));
        ctx.finish();
      }, ctx.call());
    }
    case 'keep-alive':
      return keepAlive(ctx);
    default:
      return ctx.fail(ExitError, `unknown command "${sub}" for "etcdctl lease"`);
  }
}

function keepAlive(ctx: CommandContext): void {
  const id = leaseArg(ctx, 'keep-alive');
  if (id === undefined) return;
  const once = ctx.bool('once');
  const print = (header: ResponseHeader, ttl: number): void =>
    ctx.out(ctx.format === 'json' ? json.lease(header, { ID: id, TTL: ttl }) : `lease ${leaseHex(id)} keepalived with TTL(${ttl})\n`);
  const deadline = ctx.client.clock.now() + windowMs(ctx);
  const beat = (): void => {
    ctx.client.leaseKeepAliveOnce(id, (r) => {
      if (!r.ok) {
        if (once) return ctx.failWith(r.error);
        ctx.out(`lease ${leaseHex(id)} expired or revoked.\n`);
        return ctx.finish();
      }
      print(r.value.header, r.value.ttl);
      if (once) return ctx.finish();
      const nextMs = Math.max(500, Math.floor((r.value.ttl * 1000) / 3));
      if (ctx.client.clock.now() + nextMs > deadline) return ctx.finish();
      ctx.client.clock.setTimer(nextMs, beat);
    }, ctx.call());
  };
  beat();
}

export function runMemberList(ctx: CommandContext): void {
  ctx.client.memberList((r) => {
    if (!r.ok) return ctx.failWith(r.error);
    const t = memberListTable(r.value.members);
    if (ctx.format === 'json') ctx.out(json.memberList(r.value.header, r.value.members));
    else ctx.out(ctx.format === 'table' ? table(t) : simpleRows(t));
    ctx.finish();
  }, ctx.call());
}

/** The endpoints to visit: --cluster asks the member list for every client URL. */
function withEndpoints(ctx: CommandContext, then: (endpoints: string[]) => void): void {
  if (!ctx.bool('cluster')) return then(ctx.endpoints);
  ctx.client.memberList((r) => {
    if (!r.ok) return ctx.failWith(r.error);
    then(r.value.members.flatMap((m) => m.clientURLs));
  }, ctx.call());
}

/** Visits endpoints one after another (each with its own timeout), then calls `done`. */
function sequentially<T>(items: string[], visit: (ep: string, next: (v: T) => void) => void, done: (all: T[]) => void): void {
  const results: T[] = [];
  const step = (i: number): void => {
    if (i >= items.length) return done(results);
    visit(items[i]!, (v) => {
      results.push(v);
      step(i + 1);
    });
  };
  step(0);
}

export function runEndpoint(ctx: CommandContext, sub: string): void {
  if (sub === 'status') return endpointStatus(ctx);
  if (sub === 'health') return endpointHealth(ctx);
  if (sub === 'hashkv') return endpointHashKV(ctx);
  ctx.fail(ExitError, `unknown command "${sub}" for "etcdctl endpoint"`);
}

function endpointStatus(ctx: CommandContext): void {
  withEndpoints(ctx, (endpoints) => {
    let failed = false;
    sequentially<{ ep: string; status: WithHeader<EndpointStatus> } | undefined>(endpoints, (ep, next) => {
      ctx.client.status(ep, (r) => {
        if (r.ok) return next({ ep, status: r.value });
        failed = true;
        ctx.err(`Failed to get the status of endpoint ${ep} (${r.error.message})\n`);
        next(undefined);
      }, ctx.call(ep));
    }, (all) => {
      const list = all.filter((x) => x !== undefined);
      const t = endpointStatusTable(list);
      if (ctx.format === 'json') ctx.out(json.endpointStatus(list));
      else ctx.out(ctx.format === 'table' ? table(t) : simpleRows(t));
      ctx.finish(failed ? ExitError : 0);
    });
  });
}

/** ep_command.go epHealthCommandFunc: a linearizable get of the key "health" on each endpoint. */
function endpointHealth(ctx: CommandContext): void {
  withEndpoints(ctx, (endpoints) => {
    sequentially<HealthRow>(endpoints, (ep, next) => {
      const started = ctx.client.clock.now();
      ctx.client.range({ key: 'health' }, (r) => {
        const took = formatGoDuration(ctx.client.clock.now() - started);
        next({ ep, health: r.ok, took, error: r.ok ? '' : r.error.message });
      }, ctx.call(ep));
    }, (rows) => {
      if (ctx.format === 'json') ctx.out(json.endpointHealth(rows));
      else if (ctx.format === 'table') ctx.out(table(endpointHealthTable(rows)));
      else {
        for (const h of rows) {
          if (h.health) ctx.out(`${h.ep} is healthy: successfully committed proposal: took = ${h.took}\n`);
          else ctx.err(`${h.ep} is unhealthy: failed to commit proposal: ${h.error}\n`);
        }
      }
      if (rows.some((h) => !h.health)) return ctx.fail(ExitError, 'unhealthy cluster');
      ctx.finish();
    });
  });
}

function endpointHashKV(ctx: CommandContext): void {
  withEndpoints(ctx, (endpoints) => {
    sequentially<string>(endpoints, (ep, next) => {
      ctx.client.hashKV(ep, 0, (r) => {
        if (!r.ok) {
          ctx.err(`Failed to get the hash of endpoint ${ep} (${r.error.message})\n`);
          return next('');
        }
        next(`${ep}, ${r.value.hash}`);
      }, ctx.call(ep));
    }, (rows) => {
      for (const row of rows) if (row) ctx.out(row + '\n');
      ctx.finish(rows.includes('') ? ExitError : 0);
    });
  });
}

export function runSnapshot(ctx: CommandContext, sub: string): void {
  const path = ctx.positional[0];
  if (ctx.positional.length !== 1 || path === undefined) return ctx.fail(ExitBadArgs, `snapshot ${sub} expects one argument`);
  if (sub === 'save') {
    if (ctx.endpoints.length !== 1) return ctx.fail(ExitBadArgs, `snapshot must be requested to one selected node, not multiple [${ctx.endpoints.join(' ')}]`);
    return ctx.client.snapshot((r) => {
      if (!r.ok) return ctx.failWith(r.error);
      ctx.io.files.set(path, r.value.data);
      ctx.out(`Snapshot saved at ${path}\n`);
      ctx.finish();
    }, ctx.call(ctx.endpoints[0]));
  }
  const data = ctx.io.files.get(path);
  if (data === undefined) return ctx.fail(ExitError, `open ${path}: no such file or directory`);
  if (sub === 'status') {
    ctx.err('Deprecated: Use `etcdutl snapshot status` instead.\n\n');
    const st = snapshotFileStatus(data);
    if (!st.ok) return ctx.fail(ExitError, st.error.message);
    const t = dbStatusTable(st.value);
    ctx.out(ctx.format === 'table' ? table(t) : ctx.format === 'json' ? JSON.stringify(st.value) + '\n' : simpleRows(t));
    return ctx.finish();
  }
  if (sub === 'restore') {
    ctx.err('Deprecated: Use `etcdutl snapshot restore` instead.\n\n');
    return snapshotRestore(ctx, data);
  }
  ctx.fail(ExitError, `unknown command "${sub}" for "etcdctl snapshot"`);
}

/** etcdutl snapshot restore: writes a new member's data directory (etcd/server/restore.ts). */
function snapshotRestore(ctx: CommandContext, data: string): void {
  const name = ctx.str('name', 'default');
  const dataDir = ctx.str('data-dir', `${name}.etcd`);
  const bumpRevision = ctx.int('bump-revision', 0);
  const markCompacted = ctx.bool('mark-compacted');
  if ((bumpRevision === 0) === markCompacted) return ctx.fail(ExitBadArgs, ErrMarkCompactedRequired);
  if (ctx.io.files.has(dataDir)) return ctx.fail(ExitError, `data-dir "${dataDir}" exists`);
  const restored = restoreDataDir(data, {
    name, initialCluster: ctx.str('initial-cluster', `${name}=http://localhost:2380`),
    clusterToken: ctx.str('initial-cluster-token', 'etcd-cluster'), bumpRevision, markCompacted,
  });
  if (!restored.ok) return ctx.fail(ExitError, restored.error.message);
  ctx.io.files.set(dataDir, restored.value.dataDir);
  const bumped = bumpRevision > 0 ? `, revision bumped by ${bumpRevision} to ${restored.value.revision} and marked compacted` : '';
  ctx.err(`restored snapshot at revision ${restored.value.revision - bumpRevision} into data-dir "${dataDir}" (member "${name}"${bumped})\n`);
  ctx.finish();
}

export function runVersion(ctx: CommandContext): void {
  ctx.out(`etcdctl version: ${ETCDCTL_VERSION}\nAPI version: 3.5\n`);
  ctx.finish();
}
