// Error texts exactly as etcd returns them, so a learner sees the same message the real tool prints.
// mirrors server/storage/mvcc/kvstore.go (ErrCompacted, ErrFutureRev) and
// api/v3rpc/rpctypes/error.go (the "etcdserver: ..." texts that gRPC clients receive).

/** gRPC status code names used by etcd's v3 API. */
export type EtcdErrorCode =
  | 'InvalidArgument'
  | 'OutOfRange'
  | 'NotFound'
  | 'FailedPrecondition'
  | 'Unavailable'
  | 'DeadlineExceeded'
  | 'AlreadyExists'
  | 'ResourceExhausted'
  | 'Canceled';

export interface EtcdError {
  readonly code: EtcdErrorCode;
  readonly message: string;
  /** For client-side failures: the operation that failed, e.g. "put /registry/pods/default/web". */
  readonly operation?: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: EtcdError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: EtcdError): Result<T> => ({ ok: false, error });

// Storage layer texts (server/storage/mvcc).
export const MVCC_COMPACTED = 'mvcc: required revision has been compacted';
export const MVCC_FUTURE_REV = 'mvcc: required revision is a future revision';

const e = (code: EtcdErrorCode, message: string): EtcdError => Object.freeze({ code, message });

// API layer texts (api/v3rpc/rpctypes/error.go).
export const ErrCompacted = e('OutOfRange', 'etcdserver: ' + MVCC_COMPACTED);
export const ErrFutureRev = e('OutOfRange', 'etcdserver: ' + MVCC_FUTURE_REV);
export const ErrEmptyKey = e('InvalidArgument', 'etcdserver: key is not provided');
export const ErrKeyNotFound = e('InvalidArgument', 'etcdserver: key not found');
export const ErrValueProvided = e('InvalidArgument', 'etcdserver: value is provided');
export const ErrLeaseProvided = e('InvalidArgument', 'etcdserver: lease is provided');
export const ErrTooManyOps = e('InvalidArgument', 'etcdserver: too many operations in txn request');
export const ErrDuplicateKey = e('InvalidArgument', 'etcdserver: duplicate key given in txn request');
export const ErrRequestTooLarge = e('InvalidArgument', 'etcdserver: request is too large');
export const ErrLeaseNotFound = e('NotFound', 'etcdserver: requested lease not found');
export const ErrLeaseExist = e('FailedPrecondition', 'etcdserver: lease already exists');
export const ErrLeaseTTLTooLarge = e('OutOfRange', 'etcdserver: too large lease TTL');
export const ErrNoLeader = e('Unavailable', 'etcdserver: no leader');
export const ErrNotLeader = e('FailedPrecondition', 'etcdserver: not leader');
export const ErrTimeout = e('Unavailable', 'etcdserver: request timed out');
export const ErrLeaderChanged = e('Unavailable', 'etcdserver: leader changed');
export const ErrStopped = e('Unavailable', 'etcdserver: server stopped');
export const ErrUnhealthy = e('Unavailable', 'etcdserver: unhealthy cluster');
export const ErrWatchCanceled = e('Canceled', 'watch is canceled by the server');
/** What a Go client prints when its context deadline passes (etcdctl's --command-timeout). */
export const ErrDeadlineExceeded = e('DeadlineExceeded', 'context deadline exceeded');
