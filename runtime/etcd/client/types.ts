// The client-facing etcd API (mirrors client/v3 KV, Lease, Watch, Cluster and Maintenance),
// callback-based: the answer arrives as a kernel event, never as a promise inside the runtime.
import type { Result } from '../errors.ts';
import type { WatchRequest, WatchResponse } from '../mvcc/watch.ts';
import type {
  DeleteRangeRequest, DeleteRangeResult, PutRequest, PutResult, RangeRequest, RangeResult, TxnRequest, TxnResult,
} from '../mvcc/types.ts';

/** mirrors etcdserverpb.ResponseHeader; IDs are 16-digit hex strings (uint64 in etcd). */
export interface ResponseHeader {
  clusterId: string;
  memberId: string;
  revision: number;
  raftTerm: number;
}

export type WithHeader<T> = T & { header: ResponseHeader };
export type Callback<T> = (result: Result<WithHeader<T>>) => void;

export interface CallOptions {
  /** Fail with "context deadline exceeded" after this long (simulated ms; default 5000). */
  timeoutMs?: number;
  /** Ask this endpoint only (no failover), as `etcdctl --endpoints=one endpoint status` does. */
  endpoint?: string;
  /** Fail over only among these client URLs (etcdctl --endpoints); default: all of them. */
  endpoints?: readonly string[];
}

export interface Member {
  /** 16-digit hex member ID. */
  id: string;
  name: string;
  peerURLs: string[];
  clientURLs: string[];
  isLearner: boolean;
}

/** mirrors etcdserverpb.StatusResponse */
export interface EndpointStatus {
  version: string;
  dbSize: number;
  dbSizeInUse: number;
  /** Hex ID of the leader this member knows of ('0000000000000000' if none). */
  leader: string;
  raftIndex: number;
  raftTerm: number;
  raftAppliedIndex: number;
  errors: string[];
  isLearner: boolean;
}

export interface LeaseGrantResult {
  id: number;
  ttl: number;
}

export interface LeaseTimeToLiveResult {
  id: number;
  /** Remaining seconds; -1 when the lease does not exist (expired or revoked). */
  ttl: number;
  grantedTtl: number;
  keys: string[];
}

export interface HashKVResult {
  hash: number;
  compactRevision: number;
}

export interface SnapshotResult {
  /** The serialized store (what `etcdctl snapshot save` writes to the file). */
  data: string;
}

export interface WatchHandle {
  cancel(): void;
  /**
   * Asks the serving member for a progress notification (clientv3 RequestProgress): a response
   * with no events whose header revision says "you have seen everything up to here".
   */
  requestProgress?(): void;
}

export type WatchListener = (response: WithHeader<WatchResponse>) => void;

/** Time as the client sees it (the kernel clock), for command timeouts and `took`. */
export interface ClientClock {
  now(): number;
  setTimer(delayMs: number, fn: () => void): { cancel(): void };
}

export interface EtcdClient {
  /** Client URLs this client may talk to (etcdctl's --endpoints). */
  readonly endpoints: readonly string[];
  readonly clock: ClientClock;
  range(req: RangeRequest, cb: Callback<RangeResult>, opts?: CallOptions): void;
  put(req: PutRequest, cb: Callback<PutResult>, opts?: CallOptions): void;
  deleteRange(req: DeleteRangeRequest, cb: Callback<DeleteRangeResult>, opts?: CallOptions): void;
  txn(req: TxnRequest, cb: Callback<TxnResult>, opts?: CallOptions): void;
  compact(revision: number, cb: Callback<object>, opts?: CallOptions): void;
  leaseGrant(ttlSeconds: number, cb: Callback<LeaseGrantResult>, opts?: CallOptions & { id?: number }): void;
  leaseRevoke(id: number, cb: Callback<object>, opts?: CallOptions): void;
  leaseKeepAliveOnce(id: number, cb: Callback<LeaseGrantResult>, opts?: CallOptions): void;
  leaseTimeToLive(id: number, cb: Callback<LeaseTimeToLiveResult>, opts?: CallOptions): void;
  memberList(cb: Callback<{ members: Member[] }>, opts?: CallOptions): void;
  status(endpoint: string, cb: Callback<EndpointStatus>, opts?: CallOptions): void;
  hashKV(endpoint: string, revision: number, cb: Callback<HashKVResult>, opts?: CallOptions): void;
  snapshot(cb: Callback<SnapshotResult>, opts?: CallOptions): void;
  /**
   * Opens a watch. The listener gets `created`, then events; if the serving member fails, the
   * client re-opens the watch on another member from the last revision it delivered + 1.
   */
  watch(req: WatchRequest, listener: WatchListener): WatchHandle;
}
