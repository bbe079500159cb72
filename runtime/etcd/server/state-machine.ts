// The replicated application of one member: the MVCC store plus a window of recently applied
// request IDs. Every member applies the same committed entries in the same order, so every
// member computes the same result for each request; the member the client asked answers it.
//
// The ID window exists because our simulated network may duplicate a forwarded proposal, and
// clients retransmit writes whose answer was lost (real etcd rides on TCP, which hides both);
// applying a request twice would replay an old write, so a repeat returns the first result.
import type { Result } from '../errors.ts';
import { fail, ok } from '../errors.ts';
import type { SnapshotData } from '../../raft/index.ts';
import { FifoMemo } from '../../kernel/index.ts';
import { MvccStore, type StoreSnapshot } from '../mvcc/store.ts';
import type { Proposal, WriteCommand } from './protocol.ts';

const RECENT_IDS_MAX = 4096;
const PARSED_CACHE_MAX = 1024;

/**
 * Every member parses the same entry strings (they travel by reference in the simulation), so a
 * small memo of JSON.parse saves most of the decoding work. Parsed proposals are never mutated.
 * The memo is keyed by the proposal's ID, read off the front of the entry (`{"id":"...","cmd":...`),
 * not by the entry itself: a Map keyed by a fresh multi-kilobyte string hashes all of it, once per
 * write. The entry is kept beside the proposal, so a different entry under a known ID is parsed.
 */
const parsedProposals = new FifoMemo<string, { data: string; proposal: Proposal }>(PARSED_CACHE_MAX);

const ID_HEAD = '{"id":"';

/** The proposal ID at the front of an entry JSON.stringify made from a Proposal; '' if it is not plainly there. */
function idOf(data: string): string {
  if (!data.startsWith(ID_HEAD)) return '';
  const end = data.indexOf('"', ID_HEAD.length);
  if (end < 0) return '';
  const id = data.slice(ID_HEAD.length, end);
  return id.includes('\\') ? '' : id; // an escaped character: the text is not the ID itself
}

/**
 * The proposing member hands over the object it encoded as `data`, so no member parses the entry
 * (the value inside, an escaped JSON document, made parsing a large part of applying a write).
 * Only plain JSON data qualifies (what JSON.parse of `data` would rebuild exactly: no undefined,
 * no -0 or non-finite numbers, no other prototypes); it is frozen, as a parsed proposal would be
 * private to the member, so nothing can change it behind the log's back.
 */
export function rememberProposal(data: string, proposal: Proposal): void {
  if (!isPlainJson(proposal)) return;
  deepFreeze(proposal);
  const id = idOf(data);
  if (id !== '') parsedProposals.set(id, { data, proposal });
}

function isPlainJson(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object': {
      if (v === null) return true;
      if (Array.isArray(v)) return v.every(isPlainJson);
      if (Object.getPrototypeOf(v) !== Object.prototype) return false;
      for (const k in v) if (!Object.hasOwn(v, k) || !isPlainJson((v as Record<string, unknown>)[k])) return false;
      return true;
    }
    default:
      return false;
  }
}

function deepFreeze(v: unknown): void {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return;
  Object.freeze(v);
  // walk the keys in place (no Object.values array per object); isPlainJson saw only own keys
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) deepFreeze(v[i]);
  else for (const k in v) deepFreeze((v as Record<string, unknown>)[k]);
}

function parseProposal(data: string): Proposal {
  const id = idOf(data);
  const known = id === '' ? undefined : parsedProposals.get(id);
  if (known !== undefined && known.data === data) return known.proposal;
  const proposal = JSON.parse(data) as Proposal;
  if (id !== '') parsedProposals.set(id, { data, proposal });
  return proposal;
}

/**
 * A Raft entry's command in a few words, for the live Raft view: "put /registry/leases/...",
 * "txn /registry/pods/default/web-1", "compact 120", "lease grant 60s"; the empty entry a new
 * leader appends is "(new leader's empty entry)". Never throws: unreadable data is "(unreadable)".
 */
export function summarizeEntryData(data: string): string {
  if (data === '') return "(new leader's empty entry)";
  let cmd: WriteCommand;
  try {
    cmd = parseProposal(data).cmd;
  } catch {
    return '(unreadable)';
  }
  switch (cmd?.op) {
    case 'put': return `put ${cmd.req.key}`;
    case 'deleteRange': return `delete ${cmd.req.key}${cmd.req.rangeEnd ? ' (range)' : ''}`;
    case 'txn': {
      const op = cmd.req.success[0] ?? cmd.req.failure[0];
      const key = cmd.req.compare[0]?.key ?? (op && ('put' in op ? op.put.key : 'deleteRange' in op ? op.deleteRange.key : 'range' in op ? op.range.key : undefined));
      return key === undefined ? 'txn' : `txn ${key}`;
    }
    case 'compact': return `compact ${cmd.revision}`;
    case 'leaseGrant': return `lease grant ${cmd.ttl}s`;
    case 'leaseRevoke': return 'lease revoke';
    default: return '(unknown command)';
  }
}

export interface AppliedRequest {
  id: string;
  proposal: Proposal;
  result: Result<Record<string, unknown>>;
  /** The store revision right after this request applied (its response header revision). */
  revision: number;
  /** False when this ID was applied before (a duplicate entry that changed nothing). */
  fresh: boolean;
}

interface Remembered {
  result: Result<Record<string, unknown>>;
  revision: number;
}

/**
 * The Raft snapshot of one member: the store's image plus the request-ID window. It is a structured
 * object, never one JSON string: at 30,000 pods the key space alone is hundreds of megabytes, past
 * the longest string V8 can build. Nothing mutates it after it is taken (the store shares its
 * immutable history rows with it and copies them on restore).
 */
export interface SmSnapshot {
  format: 'etcd-sim-member/1';
  store: StoreSnapshot;
  recent: [string, Remembered][];
}

/** The snapshot a restored member boots from (etcdutl snapshot restore: no request IDs yet). */
export function memberSnapshotOf(store: StoreSnapshot): SmSnapshot {
  return { format: 'etcd-sim-member/1', store, recent: [] };
}

export class EtcdStateMachine {
  store: MvccStore;
  private recent = new FifoMemo<string, Remembered>(RECENT_IDS_MAX);

  constructor(private readonly minLeaseTtlSeconds: number, store?: MvccStore) {
    this.store = store ?? new MvccStore();
  }

  /** Applies one committed entry's data at Raft index `index`. Empty entries (leader no-ops) return undefined. */
  apply(data: string, index: number): AppliedRequest | undefined {
    this.store.consistentIndex = index;
    if (data === '') return undefined;
    const proposal = parseProposal(data);
    const seen = this.recent.get(proposal.id);
    if (seen) return { id: proposal.id, proposal, result: seen.result, revision: seen.revision, fresh: false };
    const result = this.execute(proposal.cmd);
    const revision = this.store.revision;
    this.recent.set(proposal.id, { result, revision });
    return { id: proposal.id, proposal, result, revision, fresh: true };
  }

  private execute(cmd: WriteCommand): Result<Record<string, unknown>> {
    const s = this.store;
    switch (cmd.op) {
      case 'put':
        return asRecord(s.put(cmd.req));
      case 'deleteRange':
        return asRecord(s.deleteRange(cmd.req));
      case 'txn':
        return asRecord(s.txn(cmd.req));
      case 'compact':
        return asRecord(s.compact(cmd.revision));
      case 'leaseGrant':
        // mirrors lease/lessor.go Grant: TTLs below the minimum are raised to it.
        return asRecord(s.leaseGrant(cmd.id, Math.max(cmd.ttl, this.minLeaseTtlSeconds)));
      case 'leaseRevoke':
        return asRecord(s.leaseRevoke(cmd.id));
    }
  }

  snapshot(): SmSnapshot {
    return { format: 'etcd-sim-member/1', store: this.store.toSnapshot(), recent: this.recent.entries() };
  }

  restore(data: SnapshotData): void {
    const snap = data as Partial<SmSnapshot>;
    if (typeof data === 'string' || snap.format !== 'etcd-sim-member/1' || !snap.store || !snap.recent) {
      throw new Error('invariant violated: an etcd member restores only snapshots taken by an etcd member');
    }
    this.store = MvccStore.fromSnapshot(snap.store);
    this.recent = new FifoMemo(RECENT_IDS_MAX);
    for (const [id, remembered] of snap.recent) this.recent.set(id, remembered);
  }
}

function asRecord<T extends object>(r: Result<T>): Result<Record<string, unknown>> {
  return r.ok ? ok({ ...r.value } as Record<string, unknown>) : fail(r.error);
}
