// createEtcdCluster: N etcd members as kernel processes, plus clients that talk to them.
// Member IDs are derived from the member's process name and cluster token (etcd derives them from
// the peer URLs and token), so the same options always give the same IDs.
import { fnv1a32, type Kernel } from '../../kernel/index.ts';
import { SimEtcdClient } from '../client/client.ts';
import type { EtcdClient } from '../client/types.ts';
import type { MvccStore } from '../mvcc/store.ts';
import { DEFAULT_MAX_REQUEST_BYTES } from '../mvcc/types.ts';
import { startMember, type MemberConfig, type MemberHandle, type MemberSpec } from './member.ts';
import { decodeDataDir, type RestoredDataDir } from './restore.ts';
import { summarizeEntryData } from './state-machine.ts';
import { fail, ok, type Result } from '../errors.ts';

export interface EtcdClusterOptions {
  members?: 1 | 3 | 5;
  /** The members' process and network endpoint names. Default etcd-0, etcd-1, ... */
  names?: string[];
  /** etcd --name of the member run by each process; default the process name. */
  memberName?: (process: string) => string;
  /** Client URL of each member; default https://<process>:2379. */
  clientURL?: (process: string) => string;
  /** Peer URL of each member; default https://<process>:2380. */
  peerURL?: (process: string) => string;
  clusterToken?: string;
  /** The version members report (etcd --version). */
  version?: string;
  /** Raft tick (etcd --heartbeat-interval, default 100 ms). */
  tickMs?: number;
  /** Election timeout in ticks (etcd --election-timeout 1000 ms = 10 ticks). */
  electionTicks?: number;
  /** Applied entries between Raft snapshots (etcd --snapshot-count; default 10 000 as in etcd 3.6). */
  snapshotEvery?: number;
  /**
   * Entries kept behind a Raft snapshot for slow followers (etcd's SnapshotCatchUpEntries, 5 000):
   * a follower further behind than that gets the whole snapshot instead.
   */
  snapshotCatchUpEntries?: number;
  maxRequestBytes?: number;
  requestTimeoutMs?: number;
  /** Boot a NEW cluster from a snapshot file (the `etcdctl snapshot restore` data). */
  restoreFrom?: string;
}

export interface EtcdCluster {
  readonly clusterId: string;
  readonly members: readonly MemberSpec[];
  /** Client URLs of all members, in member order. */
  readonly endpoints: readonly string[];
  /**
   * A new client with its own network endpoint (name must be unique). `localMember` (a process
   * name) is the member on the client's own machine: 127.0.0.1:2379 and localhost:2379 reach it.
   */
  client(options?: { name?: string; endpoints?: string[]; timeoutMs?: number; isLive?: () => boolean; localMember?: string }): EtcdClient;
  /** Process name of the live member that leads in the highest term, if any. The methods below take process names too. */
  leader(): string | undefined;
  isUp(name: string): boolean;
  crash(name: string): void;
  restart(name: string): void;
  /** Read-only look at a live member's store (tests, invariant checks, the UI). */
  store(name: string): MvccStore | undefined;
  /** Raft status of a live member. */
  raftStatus(name: string): { term: number; lead: string; state: string; commit: number; applied: number } | undefined;
  /** The newest `count` entries of a live member's Raft log, and (on a leader) each member's match index: the live Raft view. */
  raftLog(name: string, count: number): RaftLogView | undefined;
  /**
   * `etcd --data-dir <restored>` on a stopped member: its old disk is replaced by a data directory
   * that `etcdutl snapshot restore` wrote (restore.ts), and it starts as a member of the NEW cluster
   * described there (member IDs and cluster ID from its token). Restore every member, each from its
   * own directory, before expecting a quorum.
   */
  startFromDataDir(name: string, dataDir: string): Result<{ clusterId: string }>;
}

/** A member's Raft log as the live Raft view draws it. */
export interface RaftLogView {
  lastIndex: number;
  /** Oldest first; fewer than asked when the log is shorter or compacted into a snapshot. */
  entries: { index: number; term: number; summary: string }[];
  /** On a leader: the highest index known to be replicated on each member (process name), itself included. */
  match?: Record<string, number>;
}

export const DEFAULT_ETCD_VERSION = '3.5.21';

function hex32(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

export function memberIdFor(name: string, token: string): string {
  return hex32(fnv1a32(`${token}/${name}/hi`)) + hex32(fnv1a32(`${name}/${token}/lo`));
}

export function createEtcdCluster(kernel: Kernel, options: EtcdClusterOptions = {}): EtcdCluster {
  const count = options.members ?? 3;
  const names = options.names ?? Array.from({ length: count }, (_, i) => `etcd-${i}`);
  if (names.length !== count && options.names && options.members) {
    throw new Error(`etcd cluster: ${options.members} members requested but ${names.length} names given`);
  }
  const token = options.clusterToken ?? 'etcd-cluster';
  const clientURL = options.clientURL ?? ((n: string) => `https://${n}:2379`);
  const peerURL = options.peerURL ?? ((n: string) => `https://${n}:2380`);
  const specs: MemberSpec[] = names.map((process) => ({
    name: options.memberName?.(process) ?? process,
    process,
    id: memberIdFor(process, token),
    peerURL: peerURL(process),
    clientURL: clientURL(process),
  }));
  let identity = { clusterId: clusterIdFor(specs, token), specs };
  const clusterId = identity.clusterId;
  const cfg: MemberConfig = {
    clusterId,
    members: specs,
    version: options.version ?? DEFAULT_ETCD_VERSION,
    tickMs: options.tickMs ?? 100,
    electionTicks: options.electionTicks ?? 10,
    snapshotEvery: options.snapshotEvery ?? 10_000,
    snapshotCatchUpEntries: options.snapshotCatchUpEntries ?? 5_000,
    maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
    requestTimeoutMs: options.requestTimeoutMs ?? 7000,
    ...(options.restoreFrom !== undefined ? { restoreFrom: options.restoreFrom } : {}),
  };
  const handles = new Map<string, MemberHandle>();
  for (const spec of specs) {
    kernel.spawn(spec.process, (ctx) => {
      // a restored data directory carries the new cluster's identity and the snapshot to boot from
      const restored = ctx.disk.get<RestoredDataDir>(RESTORED_DATA_DIR_KEY);
      const mine = restored ? restoredIdentity(specs, restored) : undefined;
      const memberCfg: MemberConfig = mine && restored ? { ...cfg, clusterId: mine.clusterId, members: mine.specs, restoreFrom: restored.snapshot } : cfg;
      startMember(ctx, mine?.specs.find((s) => s.process === spec.process) ?? spec, memberCfg, (h) => {
        if (h) handles.set(spec.process, h);
      });
    });
  }
  const live = (name: string): MemberHandle | undefined => (kernel.process(name)?.up ? handles.get(name) : undefined);
  let clients = 0;
  return {
    get clusterId() {
      return identity.clusterId;
    },
    get members() {
      return identity.specs;
    },
    endpoints: specs.map((s) => s.clientURL),
    client(o = {}) {
      const local = o.localMember !== undefined ? specs.find((s) => s.process === o.localMember) : undefined;
      if (o.localMember !== undefined && !local) throw new Error(`etcd client: no member process named ${o.localMember}`);
      // kubeadm's etcd listens on https://127.0.0.1:2379 besides its advertised URL; an etcdctl
      // --endpoints may name any member's URL, not just the client's own endpoints
      const aliases = [
        ...(local ? LOOPBACK_CLIENT_URLS.map((url) => ({ url, member: local.process })) : []),
        ...specs.map((s) => ({ url: s.clientURL, member: s.process })),
      ];
      const urls = o.endpoints ?? specs.map((s) => s.clientURL);
      const endpoints = urls.map((url) => {
        const spec = specs.find((s) => s.clientURL === url);
        const alias = aliases.find((a) => a.url === url);
        if (!spec && !alias) throw new Error(`etcd client: ${url} is not a member's client URL`);
        return { url, member: spec?.process ?? alias!.member };
      });
      return new SimEtcdClient(kernel, {
        name: o.name ?? `etcd-client-${clients++}`,
        endpoints,
        aliases,
        ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
        ...(o.isLive ? { isLive: o.isLive } : {}),
      });
    },
    leader() {
      let best: string | undefined;
      let bestTerm = -1;
      for (const s of specs) {
        const r = live(s.process)?.node.raft;
        if (r && r.state === 'StateLeader' && r.term > bestTerm) {
          best = s.process;
          bestTerm = r.term;
        }
      }
      return best;
    },
    isUp: (name) => live(name) !== undefined,
    crash: (name) => kernel.crash(name),
    restart: (name) => kernel.restart(name),
    store: (name) => live(name)?.store(),
    raftStatus(name) {
      const r = live(name)?.node.raft;
      return r && { term: r.term, lead: r.lead, state: r.state, commit: r.raftLog.committed, applied: r.raftLog.applied };
    },
    raftLog(name, count) {
      const r = live(name)?.node.raft;
      if (!r) return undefined;
      const lastIndex = r.raftLog.lastIndex();
      const lo = Math.max(r.raftLog.firstIndex(), lastIndex - count + 1);
      const slice = lo > lastIndex ? [] : r.raftLog.slice(lo, lastIndex + 1, count);
      const entries = (typeof slice === 'string' ? [] : slice).map((e) => ({
        index: e.index,
        term: e.term,
        summary: e.type === 'EntryConfChange' ? 'membership change' : summarizeEntryData(e.data),
      }));
      if (r.state !== 'StateLeader') return { lastIndex, entries };
      const match: Record<string, number> = {};
      for (const [id, pr] of r.prs.progress) match[id] = pr.match;
      return { lastIndex, entries, match };
    },
    startFromDataDir(process, dataDir) {
      const proc = kernel.process(process);
      const spec = specs.find((s) => s.process === process);
      if (!proc || !spec) return fail({ code: 'InvalidArgument', message: `no etcd member process named "${process}"` });
      const name = spec.name;
      if (proc.up) return fail({ code: 'FailedPrecondition', message: `etcd member ${name} is running: stop it before starting it from another data directory` });
      const dir = decodeDataDir(dataDir);
      if (!dir.ok) return dir;
      if (dir.value.name !== name) return fail({ code: 'InvalidArgument', message: `the data directory was restored for member "${dir.value.name}", not "${name}"` });
      const names = specs.map((s) => s.name);
      if (dir.value.members.length !== names.length || dir.value.members.some((m) => !names.includes(m))) {
        return fail({ code: 'InvalidArgument', message: `the data directory's initial cluster (${dir.value.members.join(', ')}) is not this cluster's members (${names.join(', ')})` });
      }
      identity = restoredIdentity(specs, dir.value);
      proc.disk.wipe();
      proc.disk.set(RESTORED_DATA_DIR_KEY, dir.value);
      proc.start();
      return ok({ clusterId: identity.clusterId });
    },
  };
}

/** The client URLs that reach the member on the client's own machine. */
const LOOPBACK_CLIENT_URLS = ['https://127.0.0.1:2379', 'https://localhost:2379'];

const RESTORED_DATA_DIR_KEY = 'restored-data-dir';

/** etcd derives the cluster ID from the member IDs (membership/cluster.go genID); we add the token. */
function clusterIdFor(specs: readonly MemberSpec[], token: string): string {
  return hex32(fnv1a32(specs.map((s) => s.id).join(','))) + hex32(fnv1a32(token));
}

/** The members and cluster ID a restored data directory describes (same names and URLs, IDs from its token). */
function restoredIdentity(specs: readonly MemberSpec[], dir: RestoredDataDir): { clusterId: string; specs: MemberSpec[] } {
  const renamed = specs.map((s) => ({ ...s, id: memberIdFor(s.process, dir.clusterToken) }));
  return { clusterId: clusterIdFor(renamed, dir.clusterToken), specs: renamed };
}
