// The etcd v3 data model (mirrors api/mvccpb/kv.proto and api/etcdserverpb/rpc.proto), in camelCase.
// Keys and values are strings holding UTF-8 text; revisions and versions are plain numbers.

/** mirrors mvccpb.KeyValue */
export interface KeyValue {
  readonly key: string;
  /** Revision of the last creation of this key (0 for a deletion event's kv). */
  readonly createRevision: number;
  /** Revision of the last modification of this key. */
  readonly modRevision: number;
  /** Number of modifications since creation; a delete resets it to 0. */
  readonly version: number;
  readonly value: string;
  /** Lease ID attached to the key, 0 when none. */
  readonly lease: number;
}

export type SortOrder = 'NONE' | 'ASCEND' | 'DESCEND';
export type SortTarget = 'KEY' | 'VERSION' | 'CREATE' | 'MOD' | 'VALUE';

export interface RangeRequest {
  key: string;
  /** '' or absent: just `key`; '\0': every key >= key; otherwise [key, rangeEnd). */
  rangeEnd?: string;
  limit?: number;
  /** Read at this revision; 0 or absent means the newest. */
  revision?: number;
  sortOrder?: SortOrder;
  sortTarget?: SortTarget;
  /** Answer from the local member without a ReadIndex round (may be stale). */
  serializable?: boolean;
  keysOnly?: boolean;
  countOnly?: boolean;
}

export interface RangeResult {
  kvs: KeyValue[];
  /** True when `limit` cut the answer short. */
  more: boolean;
  /** Number of keys in the range (before `limit`). */
  count: number;
}

export interface PutRequest {
  key: string;
  value: string;
  lease?: number;
  prevKv?: boolean;
  ignoreValue?: boolean;
  ignoreLease?: boolean;
}

export interface PutResult {
  prevKv?: KeyValue;
}

export interface DeleteRangeRequest {
  key: string;
  rangeEnd?: string;
  prevKv?: boolean;
}

export interface DeleteRangeResult {
  deleted: number;
  prevKvs: KeyValue[];
}

export type CompareTarget = 'VERSION' | 'CREATE' | 'MOD' | 'VALUE' | 'LEASE';
export type CompareResult = 'EQUAL' | 'GREATER' | 'LESS' | 'NOT_EQUAL';

/** mirrors etcdserverpb.Compare: `target` of every key in the range compared against `operand`. */
export interface Compare {
  key: string;
  rangeEnd?: string;
  target: CompareTarget;
  result: CompareResult;
  /** A string for VALUE, a number for the other targets. */
  operand: string | number;
}

export type RequestOp =
  | { range: RangeRequest }
  | { put: PutRequest }
  | { deleteRange: DeleteRangeRequest }
  | { txn: TxnRequest };

export type ResponseOp =
  | { range: RangeResult }
  | { put: PutResult }
  | { deleteRange: DeleteRangeResult }
  | { txn: TxnResult };

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}

export interface TxnResult {
  succeeded: boolean;
  responses: ResponseOp[];
}

export type EventType = 'PUT' | 'DELETE';

/** mirrors mvccpb.Event */
export interface WatchEvent {
  readonly type: EventType;
  readonly kv: KeyValue;
  readonly prevKv?: KeyValue;
}

export interface LeaseInfo {
  id: number;
  /** The TTL the lease was granted with, in seconds. */
  ttl: number;
  /** Attached keys, in key order. */
  keys: string[];
}

/** What every write returns besides its own result: the store revision after it. */
export interface StoreStatus {
  revision: number;
  compactRevision: number;
  totalKeys: number;
  dbSizeBytes: number;
  dbSizeInUseBytes: number;
}

/** The limits etcd enforces by default (embed/config.go). */
export const DEFAULT_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;
export const DEFAULT_MAX_TXN_OPS = 128;
/** lease.MaxLeaseTTL, in seconds. */
export const MAX_LEASE_TTL_SECONDS = 9_000_000_000;
