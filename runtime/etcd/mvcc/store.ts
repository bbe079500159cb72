// A pure multi-version key-value store with etcd v3 semantics.
// mirrors server/storage/mvcc/kvstore.go, kvstore_txn.go and key_index.go: one global revision that
// grows by one per write request (a txn shares one main revision, its writes get sub-revisions);
// every key keeps its history since the last compaction, so reads at an old revision and watches
// from an old revision see exactly what was there.
import type { EtcdError, Result } from '../errors.ts';
import {
  ErrCompacted, ErrDuplicateKey, ErrEmptyKey, ErrFutureRev, ErrKeyNotFound, ErrLeaseExist,
  ErrLeaseNotFound, ErrLeaseProvided, ErrLeaseTTLTooLarge, ErrTooManyOps, ErrValueProvided, fail, ok,
} from '../errors.ts';
import { Crc32c } from './hash.ts';
import { compareKeys, FROM_KEY, inRange, rangesOverlap, utf8Length } from './keys.ts';
import type {
  Compare, DeleteRangeRequest, DeleteRangeResult, KeyValue, LeaseInfo, PutRequest, PutResult,
  RangeRequest, RangeResult, RequestOp, ResponseOp, StoreStatus, TxnRequest, TxnResult, WatchEvent,
} from './types.ts';
import { DEFAULT_MAX_TXN_OPS, MAX_LEASE_TTL_SECONDS } from './types.ts';

/** One revision of one key (a row of etcd's key bucket, indexed like key_index.go). */
export interface HistoryEntry {
  main: number;
  sub: number;
  value: string;
  createRevision: number;
  version: number;
  lease: number;
  /** A deletion marker: the key does not exist from this revision on. */
  tombstone: boolean;
}

/** Everything a snapshot needs to rebuild the store (the "db file"). */
export interface StoreSnapshot {
  format: 'etcd-sim-mvcc/1';
  revision: number;
  compactRevision: number;
  consistentIndex: number;
  keys: [string, HistoryEntry[]][];
  leases: { id: number; ttl: number }[];
}

export type StoreListener = (events: readonly WatchEvent[], revision: number) => void;

/** A write in progress: every change shares `main`, each gets the next `sub`. */
interface WriteSession {
  main: number;
  sub: number;
  events: WatchEvent[];
}

interface LeaseRecord {
  id: number;
  ttl: number;
  keys: Set<string>;
}

/** The run of new keys is merged into the big one past this size (or 1/16 of the big one). */
const MIN_PENDING_KEYS = 1024;

/** Page size and empty-file size of bbolt, for a DB size that looks like etcd's. */
const PAGE_BYTES = 4096;
const EMPTY_DB_BYTES = 20480;
const ROW_OVERHEAD_BYTES = 48;

export class MvccStore {
  private readonly index = new Map<string, HistoryEntry[]>();
  /**
   * Keys of `index` in key order, in two sorted runs: the big one, and the keys created since it
   * was last merged (kept sorted by insertion). A range reads both runs; the small run is merged
   * into the big one once it holds more than 1/16 of it, so a new key costs O(1) amortized and a
   * range costs O(log n + keys returned), however many keys were created between two ranges.
   * (etcd keeps its key index in a B-tree, key_index.go/index.go; this is the same contract.)
   */
  private sortedKeys: string[] = [];
  private pendingKeys: string[] = [];
  private readonly leases = new Map<number, LeaseRecord>();
  private readonly listeners: StoreListener[] = [];
  private currentRevision = 1; // a fresh etcd starts at revision 1
  private compactedRevision = -1; // kvstore.go compactMainRev
  private liveKeys = 0;
  private rowCount = 0;
  private inUseBytes = 0;
  private highWaterBytes = 0;
  /** The Raft index of the last applied entry (etcd's consistent_index). */
  consistentIndex = 0;

  constructor(private readonly maxTxnOps = DEFAULT_MAX_TXN_OPS) {}

  get revision(): number {
    return this.currentRevision;
  }

  get compactRevision(): number {
    return this.compactedRevision;
  }

  /** Called after every write that changed something, with its events in order. */
  subscribe(listener: StoreListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  // ---- reads ----------------------------------------------------------------------------------

  range(req: RangeRequest): Result<RangeResult> {
    const invalid = validateRange(req);
    if (invalid) return fail(invalid);
    return this.rangeAt(req, this.currentRevision);
  }

  /** mirrors applierV3backend.Range: fetch, sort, then cut to `limit` and set `more`. */
  private rangeAt(req: RangeRequest, newestRevision: number): Result<RangeResult> {
    const rev = req.revision && req.revision > 0 ? req.revision : newestRevision;
    if (rev > newestRevision) return fail(ErrFutureRev);
    if (rev < this.compactedRevision) return fail(ErrCompacted);
    const kvs: KeyValue[] = [];
    for (const key of this.keysInRange(req.key, req.rangeEnd)) {
      const kv = visibleAt(key, this.index.get(key)!, rev);
      if (kv) kvs.push(kv);
    }
    const count = kvs.length;
    if (req.countOnly) return ok({ kvs: [], more: false, count });
    sortKvs(kvs, req);
    const limit = req.limit ?? 0;
    const more = limit > 0 && kvs.length > limit;
    const cut = more ? kvs.slice(0, limit) : kvs;
    return ok({ kvs: req.keysOnly ? cut.map((kv) => ({ ...kv, value: '' })) : cut, more, count });
  }

  /** The live key-value of `key` now, or undefined. */
  get(key: string): KeyValue | undefined {
    const entries = this.index.get(key);
    return entries ? visibleAt(key, entries, this.currentRevision) : undefined;
  }

  // ---- writes ---------------------------------------------------------------------------------

  put(req: PutRequest): Result<PutResult> {
    const invalid = validatePut(req) ?? this.checkPut(req);
    if (invalid) return fail(invalid);
    const session = this.begin();
    const result = this.applyPut(session, req);
    this.end(session);
    return ok(result);
  }

  deleteRange(req: DeleteRangeRequest): Result<DeleteRangeResult> {
    if (!req.key) return fail(ErrEmptyKey);
    const session = this.begin();
    const result = this.applyDelete(session, req);
    this.end(session);
    return ok(result);
  }

  /** mirrors applierV3backend.Txn: validate, evaluate compares, check the chosen branch, then apply. */
  txn(req: TxnRequest): Result<TxnResult> {
    const invalid = this.validateTxn(req);
    if (invalid) return fail(invalid);
    // the compares see the same state in the check and the apply: evaluate them once
    const succeeded = this.comparesHold(req.compare);
    const branchError = this.checkTxnBranch(req, succeeded);
    if (branchError) return fail(branchError);
    const session = this.begin();
    const result = this.applyTxn(session, req, succeeded);
    this.end(session);
    return ok(result);
  }

  /** mirrors kvstore.go compactLockfree and key_index.go compact. */
  compact(revision: number): Result<{ compactRevision: number }> {
    if (revision <= this.compactedRevision) return fail(ErrCompacted);
    if (revision > this.currentRevision) return fail(ErrFutureRev);
    let removedKey = false;
    // forEach: no [key, entries] pair per key (deleting or replacing the visited key is allowed)
    this.index.forEach((entries, key) => {
      const kept = compactHistory(entries, revision);
      if (kept === entries) return;
      const dropped = entries.length - kept.length;
      this.rowCount -= dropped;
      for (let i = 0; i < dropped; i++) this.inUseBytes -= rowBytes(key, entries[i]!);
      if (kept.length === 0) {
        this.index.delete(key);
        removedKey = true;
      } else this.index.set(key, kept);
    });
    if (removedKey) this.sortedKeys = this.allKeysSorted().filter((k) => this.index.has(k));
    this.compactedRevision = revision;
    return ok({ compactRevision: revision });
  }

  // ---- leases (the replicated part of the lessor: IDs, TTLs, attached keys) -------------------

  leaseGrant(id: number, ttlSeconds: number): Result<{ id: number; ttl: number }> {
    if (this.leases.has(id)) return fail(ErrLeaseExist);
    if (ttlSeconds > MAX_LEASE_TTL_SECONDS) return fail(ErrLeaseTTLTooLarge);
    this.leases.set(id, { id, ttl: ttlSeconds, keys: new Set() });
    return ok({ id, ttl: ttlSeconds });
  }

  /** Deletes the lease and, in one revision, every key attached to it (lessor.go Revoke). */
  leaseRevoke(id: number): Result<{ deleted: number }> {
    const lease = this.leases.get(id);
    if (!lease) return fail(ErrLeaseNotFound);
    const keys = [...lease.keys].sort(compareKeys);
    const session = this.begin();
    for (const key of keys) this.applyDelete(session, { key });
    this.end(session);
    this.leases.delete(id);
    return ok({ deleted: keys.length });
  }

  lease(id: number): LeaseInfo | undefined {
    const lease = this.leases.get(id);
    return lease ? { id, ttl: lease.ttl, keys: [...lease.keys].sort(compareKeys) } : undefined;
  }

  leaseIds(): number[] {
    return [...this.leases.keys()].sort((a, b) => a - b);
  }

  // ---- history, hash, snapshot, status ---------------------------------------------------------

  /**
   * Events with revision >= fromRevision in the range, in revision order (what a watcher that
   * starts in the past must replay). Fails when that history was compacted.
   */
  eventsSince(fromRevision: number, key: string, rangeEnd?: string): Result<WatchEvent[]> {
    if (fromRevision < this.compactedRevision) return fail(ErrCompacted);
    const found: { main: number; sub: number; event: WatchEvent }[] = [];
    for (const k of this.keysInRange(key, rangeEnd)) {
      const entries = this.index.get(k)!;
      for (let i = entries.length - 1; i >= 0 && entries[i]!.main >= fromRevision; i--) {
        const entry = entries[i]!;
        const prior = entries[i - 1];
        const prevKv = prior && !prior.tombstone ? toKv(k, prior) : undefined;
        const kv = entry.tombstone ? deletedKv(k, entry.main) : toKv(k, entry);
        const type = entry.tombstone ? 'DELETE' : 'PUT';
        const event: WatchEvent = prevKv ? { type, kv, prevKv } : { type, kv };
        found.push({ main: entry.main, sub: entry.sub, event });
      }
    }
    found.sort((a, b) => a.main - b.main || a.sub - b.sub);
    return ok(found.map((f) => f.event));
  }

  /** mirrors mvcc HashByRev: CRC-32C over every revision <= `revision` kept since compaction. */
  hashKV(revision = 0): Result<{ hash: number; revision: number; compactRevision: number }> {
    const rev = revision > 0 ? revision : this.currentRevision;
    if (rev > this.currentRevision) return fail(ErrFutureRev);
    if (rev < this.compactedRevision) return fail(ErrCompacted);
    const crc = new Crc32c();
    crc.updateString('key');
    for (const key of this.allKeysSorted()) {
      for (const entry of this.index.get(key)!) {
        if (entry.main > rev) break;
        crc.updateInt(entry.main);
        crc.updateInt(entry.sub);
        crc.updateString(key);
        crc.updateString(entry.tombstone ? '\u0000tombstone' : entry.value);
        crc.updateInt(entry.createRevision);
        crc.updateInt(entry.version);
        crc.updateInt(entry.lease);
      }
    }
    return ok({ hash: crc.digest(), revision: this.currentRevision, compactRevision: this.compactedRevision });
  }

  status(): StoreStatus {
    return {
      revision: this.currentRevision,
      compactRevision: this.compactedRevision,
      totalKeys: this.liveKeys,
      dbSizeBytes: pageRound(EMPTY_DB_BYTES + this.highWaterBytes),
      dbSizeInUseBytes: pageRound(EMPTY_DB_BYTES + this.inUseBytes),
    };
  }

  /** Rows (revisions) stored, which is what `snapshot status` calls "total keys". */
  get totalRows(): number {
    return this.rowCount;
  }

  /**
   * The store's image. History rows are shared, not copied: a row never changes once appended
   * (compaction drops rows by building new arrays), and fromSnapshot copies them back.
   */
  toSnapshot(): StoreSnapshot {
    return {
      format: 'etcd-sim-mvcc/1',
      revision: this.currentRevision,
      compactRevision: this.compactedRevision,
      consistentIndex: this.consistentIndex,
      keys: this.allKeysSorted().map((k) => [k, this.index.get(k)!.slice()]),
      leases: [...this.leases.values()].map((l) => ({ id: l.id, ttl: l.ttl })),
    };
  }

  static fromSnapshot(snap: StoreSnapshot, maxTxnOps = DEFAULT_MAX_TXN_OPS): MvccStore {
    if (snap.format !== 'etcd-sim-mvcc/1') throw new Error(`snapshot: unknown format ${String(snap.format)}`);
    const store = new MvccStore(maxTxnOps);
    store.currentRevision = snap.revision;
    store.compactedRevision = snap.compactRevision;
    store.consistentIndex = snap.consistentIndex;
    for (const l of snap.leases) store.leases.set(l.id, { id: l.id, ttl: l.ttl, keys: new Set() });
    for (const [key, entries] of snap.keys) {
      const copy = entries.map((e) => ({ ...e }));
      store.index.set(key, copy);
      store.sortedKeys.push(key);
      store.rowCount += copy.length;
      for (const e of copy) store.inUseBytes += rowBytes(key, e);
      const last = copy[copy.length - 1]!;
      if (!last.tombstone) {
        store.liveKeys++;
        if (last.lease) store.leases.get(last.lease)?.keys.add(key);
      }
    }
    store.highWaterBytes = store.inUseBytes;
    return store;
  }

  // ---- internals -------------------------------------------------------------------------------

  private begin(): WriteSession {
    return { main: this.currentRevision + 1, sub: 0, events: [] };
  }

  private end(session: WriteSession): void {
    if (session.sub === 0) return; // nothing written: the revision does not move
    this.currentRevision = session.main;
    for (const listener of this.listeners) listener(session.events, session.main);
  }

  // The row is built in one literal (no entry object spread into a second one); its fields keep
  // the order they always had: main, sub, value, lease, createRevision, version, tombstone.
  private append(session: WriteSession, key: string, value: string, lease: number, createRevision: number, version: number, tombstone: boolean): HistoryEntry {
    const full: HistoryEntry = { main: session.main, sub: session.sub++, value, lease, createRevision, version, tombstone };
    const entries = this.index.get(key);
    if (entries) entries.push(full);
    else {
      // A one-element literal: most keys have a short history, and `[]` + push would reserve 17 slots.
      this.index.set(key, [full]);
      this.addKey(key);
    }
    this.rowCount++;
    const bytes = rowBytes(key, full);
    this.inUseBytes += bytes;
    this.highWaterBytes += bytes;
    return full;
  }

  private applyPut(session: WriteSession, req: PutRequest): PutResult {
    const prev = this.get(req.key);
    const value = req.ignoreValue ? prev!.value : req.value;
    const lease = req.ignoreLease ? prev!.lease : (req.lease ?? 0);
    const entry = this.append(session, req.key, value, lease, prev ? prev.createRevision : session.main, prev ? prev.version + 1 : 1, false);
    if (prev && prev.lease && prev.lease !== lease) this.leases.get(prev.lease)?.keys.delete(req.key);
    if (lease) this.leases.get(lease)!.keys.add(req.key);
    if (!prev) this.liveKeys++;
    const kv = toKv(req.key, entry);
    session.events.push(prev ? { type: 'PUT', kv, prevKv: prev } : { type: 'PUT', kv });
    return req.prevKv && prev ? { prevKv: prev } : {};
  }

  private applyDelete(session: WriteSession, req: DeleteRangeRequest): DeleteRangeResult {
    const prevKvs: KeyValue[] = [];
    for (const key of this.keysInRange(req.key, req.rangeEnd)) {
      const prev = this.get(key);
      if (!prev) continue;
      this.append(session, key, '', 0, 0, 0, true);
      if (prev.lease) this.leases.get(prev.lease)?.keys.delete(key);
      this.liveKeys--;
      prevKvs.push(prev);
      session.events.push({ type: 'DELETE', kv: deletedKv(key, session.main), prevKv: prev });
    }
    return { deleted: prevKvs.length, prevKvs: req.prevKv ? prevKvs : [] };
  }

  private applyTxn(session: WriteSession, req: TxnRequest, succeeded = this.comparesHold(req.compare)): TxnResult {
    const ops = succeeded ? req.success : req.failure;
    const responses: ResponseOp[] = [];
    for (let i = 0; i < ops.length; i++) responses.push(this.applyOp(session, ops[i]!));
    return { succeeded, responses };
  }

  private applyOp(session: WriteSession, op: RequestOp): ResponseOp {
    if ('range' in op) {
      // Reads inside a txn see the txn's own earlier writes (kvstore_txn.go storeTxnWrite.Range).
      const newest = session.sub > 0 ? session.main : this.currentRevision;
      const r = this.rangeAt(op.range, newest);
      if (!r.ok) throw new Error(`txn invariant: range was checked before apply but failed: ${r.error.message}`);
      return { range: r.value };
    }
    if ('put' in op) return { put: this.applyPut(session, op.put) };
    if ('deleteRange' in op) return { deleteRange: this.applyDelete(session, op.deleteRange) };
    return { txn: this.applyTxn(session, op.txn) };
  }

  // Index loops over a request's lists here: a proposed request is deep-frozen (state-machine.ts
  // rememberProposal), and V8 walks a frozen array with for-of on its slow path.
  private comparesHold(compares: readonly Compare[]): boolean {
    for (let i = 0; i < compares.length; i++) if (!this.compareHolds(compares[i]!)) return false;
    return true;
  }

  /** mirrors apply.go applyCompare: every key in the range must satisfy the compare. */
  private compareHolds(c: Compare): boolean {
    if (!c.rangeEnd) {
      // one key (how the API server compares): no list of matches to build
      const kv = this.get(c.key);
      if (kv !== undefined) return compareKv(c, kv);
      if (c.target === 'VALUE') return false;
      return compareKv(c, { key: c.key, createRevision: 0, modRevision: 0, version: 0, value: '', lease: 0 });
    }
    const kvs: KeyValue[] = [];
    for (const key of this.keysInRange(c.key, c.rangeEnd)) {
      const kv = this.get(key);
      if (kv) kvs.push(kv);
    }
    if (kvs.length === 0) {
      // A missing key has no value to compare, so VALUE compares fail; the rest compare zeros.
      if (c.target === 'VALUE') return false;
      return compareKv(c, { key: c.key, createRevision: 0, modRevision: 0, version: 0, value: '', lease: 0 });
    }
    return kvs.every((kv) => compareKv(c, kv));
  }

  private checkPut(req: PutRequest): EtcdError | undefined {
    if (req.ignoreValue || req.ignoreLease) {
      if (!this.get(req.key)) return ErrKeyNotFound;
    }
    const lease = req.ignoreLease ? this.get(req.key)!.lease : (req.lease ?? 0);
    if (lease && !this.leases.has(lease)) return ErrLeaseNotFound;
    return undefined;
  }

  /** The state checks of the branch the compares will pick (apply.go checkRequests). */
  private checkTxnBranch(req: TxnRequest, succeeded = this.comparesHold(req.compare)): EtcdError | undefined {
    const ops = succeeded ? req.success : req.failure;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      if ('put' in op) {
        const err = this.checkPut(op.put);
        if (err) return err;
      } else if ('range' in op) {
        const rev = op.range.revision ?? 0;
        if (rev > this.currentRevision) return ErrFutureRev;
        if (rev > 0 && rev < this.compactedRevision) return ErrCompacted;
      } else if ('txn' in op) {
        const err = this.checkTxnBranch(op.txn);
        if (err) return err;
      }
    }
    return undefined;
  }

  private validateTxn(req: TxnRequest): EtcdError | undefined {
    const max = this.maxTxnOps;
    if (req.compare.length > max || req.success.length > max || req.failure.length > max) return ErrTooManyOps;
    for (let i = 0; i < req.compare.length; i++) if (!req.compare[i]!.key) return ErrEmptyKey;
    const err = this.validateOps(req.success) ?? this.validateOps(req.failure);
    if (err) return err;
    if (hasDuplicateWrites(req.success) || hasDuplicateWrites(req.failure)) return ErrDuplicateKey;
    return undefined;
  }

  private validateOps(ops: RequestOp[]): EtcdError | undefined {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const err = 'txn' in op ? this.validateTxn(op.txn) : validateOp(op);
      if (err) return err;
    }
    return undefined;
  }

  private addKey(key: string): void {
    this.pendingKeys.splice(lowerBound(this.pendingKeys, key), 0, key);
    if (this.pendingKeys.length > Math.max(MIN_PENDING_KEYS, this.sortedKeys.length >> 4)) this.mergePendingKeys();
  }

  private mergePendingKeys(): void {
    if (this.pendingKeys.length === 0) return;
    this.sortedKeys = this.sortedKeys.length === 0 ? this.pendingKeys : mergeSorted(this.sortedKeys, this.pendingKeys);
    this.pendingKeys = [];
  }

  private allKeysSorted(): string[] {
    this.mergePendingKeys();
    return this.sortedKeys;
  }

  private keysInRange(key: string, rangeEnd: string | undefined): string[] {
    if (!rangeEnd) return this.index.has(key) ? [key] : [];
    const a = this.sortedKeys;
    const b = this.pendingKeys;
    const out: string[] = [];
    let i = lowerBound(a, key);
    let j = lowerBound(b, key);
    for (;;) {
      const x = i < a.length && inRange(a[i]!, key, rangeEnd) ? a[i] : undefined;
      const y = j < b.length && inRange(b[j]!, key, rangeEnd) ? b[j] : undefined;
      if (x === undefined && y === undefined) return out;
      if (y === undefined || (x !== undefined && compareKeys(x, y) < 0)) {
        out.push(x!);
        i++;
      } else {
        out.push(y);
        j++;
      }
    }
  }
}

// ---- pure helpers ----------------------------------------------------------------------------

function validateRange(req: RangeRequest): EtcdError | undefined {
  return req.key ? undefined : ErrEmptyKey;
}

/** mirrors api/v3rpc/key.go checkPutRequest. */
function validatePut(req: PutRequest): EtcdError | undefined {
  if (!req.key) return ErrEmptyKey;
  if (req.ignoreValue && req.value !== '') return ErrValueProvided;
  if (req.ignoreLease && req.lease) return ErrLeaseProvided;
  return undefined;
}

/** A range, put or delete op's own checks (a nested txn is validated by the store). */
function validateOp(op: RequestOp): EtcdError | undefined {
  if ('range' in op) return validateRange(op.range);
  if ('put' in op) return validatePut(op.put);
  if ('deleteRange' in op) return op.deleteRange.key ? undefined : ErrEmptyKey;
  return undefined;
}

/** mirrors api/v3rpc/key.go checkIntervals: a key may be written at most once per branch. */
function hasDuplicateWrites(ops: RequestOp[]): boolean {
  // a single put or delete cannot collide with anything (the API server's txns have one op)
  if (ops.length === 0 || (ops.length === 1 && !('txn' in ops[0]!))) return false;
  const puts = new Set<string>();
  const deletes: { key: string; rangeEnd?: string }[] = [];
  const collect = (list: RequestOp[]): boolean => {
    for (const op of list) {
      if ('put' in op) {
        if (puts.has(op.put.key)) return true;
        puts.add(op.put.key);
      } else if ('deleteRange' in op) deletes.push(op.deleteRange);
      else if ('txn' in op) {
        // Only one branch of a nested txn runs, but etcd checks each branch against the outer writes.
        const before = new Set(puts);
        if (collect(op.txn.success)) return true;
        const afterSuccess = new Set(puts);
        puts.clear();
        for (const k of before) puts.add(k);
        if (collect(op.txn.failure)) return true;
        for (const k of afterSuccess) puts.add(k);
      }
    }
    return false;
  };
  if (collect(ops)) return true;
  for (const key of puts) for (const d of deletes) if (rangesOverlap(key, undefined, d.key, d.rangeEnd)) return true;
  return false;
}

function compareKv(c: Compare, kv: KeyValue): boolean {
  let diff: number;
  switch (c.target) {
    case 'VALUE':
      diff = compareKeys(kv.value, String(c.operand));
      break;
    case 'VERSION':
      diff = kv.version - Number(c.operand);
      break;
    case 'CREATE':
      diff = kv.createRevision - Number(c.operand);
      break;
    case 'MOD':
      diff = kv.modRevision - Number(c.operand);
      break;
    case 'LEASE':
      diff = kv.lease - Number(c.operand);
      break;
  }
  switch (c.result) {
    case 'EQUAL':
      return diff === 0;
    case 'NOT_EQUAL':
      return diff !== 0;
    case 'GREATER':
      return diff > 0;
    case 'LESS':
      return diff < 0;
  }
}

/** mirrors apply.go: sort ascending by default when a non-key target is named. */
function sortKvs(kvs: KeyValue[], req: RangeRequest): void {
  const target = req.sortTarget ?? 'KEY';
  let order = req.sortOrder ?? 'NONE';
  if (order === 'NONE' && target !== 'KEY') order = 'ASCEND';
  if (order === 'NONE' || (order === 'ASCEND' && target === 'KEY')) return; // already in key order
  const by = (a: KeyValue, b: KeyValue): number => {
    switch (target) {
      case 'KEY':
        return compareKeys(a.key, b.key);
      case 'VERSION':
        return a.version - b.version;
      case 'CREATE':
        return a.createRevision - b.createRevision;
      case 'MOD':
        return a.modRevision - b.modRevision;
      case 'VALUE':
        return compareKeys(a.value, b.value);
    }
  };
  kvs.sort(order === 'ASCEND' ? by : (a, b) => by(b, a));
}

function visibleAt(key: string, entries: HistoryEntry[], rev: number): KeyValue | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.main <= rev) return e.tombstone ? undefined : toKv(key, e);
  }
  return undefined;
}

function toKv(key: string, e: HistoryEntry): KeyValue {
  return { key, createRevision: e.createRevision, modRevision: e.main, version: e.version, value: e.value, lease: e.lease };
}

/** A deletion event's kv carries only the key and the deleting revision (watchable_store_txn.go). */
function deletedKv(key: string, revision: number): KeyValue {
  return { key, createRevision: 0, modRevision: revision, version: 0, value: '', lease: 0 };
}

/**
 * Keep what reads at revision >= `rev` need: the newest entry at or before `rev` (unless it is a
 * deletion, which nobody can observe any more) and everything after it.
 */
function compactHistory(entries: HistoryEntry[], rev: number): HistoryEntry[] {
  let keepFrom = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]!.main <= rev) {
      keepFrom = entries[i]!.tombstone ? i + 1 : i;
      break;
    }
  }
  return keepFrom === 0 ? entries : entries.slice(keepFrom);
}

function rowBytes(key: string, e: HistoryEntry): number {
  return utf8Length(key) + utf8Length(e.value) + ROW_OVERHEAD_BYTES;
}

function pageRound(bytes: number): number {
  return Math.ceil(bytes / PAGE_BYTES) * PAGE_BYTES;
}

function lowerBound(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keys[mid]!, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function mergeSorted(a: string[], b: string[]): string[] {
  const out: string[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compareKeys(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

export { FROM_KEY };
