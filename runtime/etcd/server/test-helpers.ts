// Drives a callback-based etcd call to completion on the kernel (for tests and benches only).
import type { Kernel } from '../../kernel/index.ts';
import type { Result } from '../errors.ts';
import type {
  CallOptions, Callback, EndpointStatus, EtcdClient, LeaseGrantResult, LeaseTimeToLiveResult, Member, SnapshotResult, WithHeader,
} from '../client/types.ts';
import type {
  DeleteRangeRequest, DeleteRangeResult, PutRequest, PutResult, RangeRequest, RangeResult, TxnRequest, TxnResult,
} from '../mvcc/types.ts';

export function callSync<T>(kernel: Kernel, start: (cb: (r: Result<T>) => void) => void, budgetEvents = 5_000_000): Result<T> {
  let out: Result<T> | undefined;
  start((r) => {
    out = r;
  });
  kernel.runUntil(() => out !== undefined, budgetEvents);
  if (out === undefined) throw new Error('test helper invariant: the call never completed (the client must always call back)');
  return out;
}

/** Runs until a leader exists (or the time budget passes); returns its name. */
export function waitForLeader(kernel: Kernel, leader: () => string | undefined, maxMs = 10_000): string | undefined {
  const until = kernel.now() + maxMs;
  while (kernel.now() < until) {
    const l = leader();
    if (l) return l;
    kernel.runFor(50);
  }
  return leader();
}

/** A client whose calls run the kernel until they answer (tests, benches and fault schedules only). */
export function syncClient(kernel: Kernel, client: EtcdClient) {
  const run = <T>(start: (cb: Callback<T>) => void): Result<WithHeader<T>> => callSync<WithHeader<T>>(kernel, start);
  return {
    put: (req: PutRequest, o?: CallOptions) => run<PutResult>((cb) => client.put(req, cb, o)),
    range: (req: RangeRequest, o?: CallOptions) => run<RangeResult>((cb) => client.range(req, cb, o)),
    deleteRange: (req: DeleteRangeRequest, o?: CallOptions) => run<DeleteRangeResult>((cb) => client.deleteRange(req, cb, o)),
    txn: (req: TxnRequest, o?: CallOptions) => run<TxnResult>((cb) => client.txn(req, cb, o)),
    compact: (rev: number, o?: CallOptions) => run<object>((cb) => client.compact(rev, cb, o)),
    leaseGrant: (ttl: number, o?: CallOptions) => run<LeaseGrantResult>((cb) => client.leaseGrant(ttl, cb, o)),
    leaseRevoke: (id: number, o?: CallOptions) => run<object>((cb) => client.leaseRevoke(id, cb, o)),
    leaseKeepAliveOnce: (id: number, o?: CallOptions) => run<LeaseGrantResult>((cb) => client.leaseKeepAliveOnce(id, cb, o)),
    leaseTimeToLive: (id: number, o?: CallOptions) => run<LeaseTimeToLiveResult>((cb) => client.leaseTimeToLive(id, cb, o)),
    memberList: (o?: CallOptions) => run<{ members: Member[] }>((cb) => client.memberList(cb, o)),
    status: (endpoint: string, o?: CallOptions) => run<EndpointStatus>((cb) => client.status(endpoint, cb, o)),
    snapshot: (o?: CallOptions) => run<SnapshotResult>((cb) => client.snapshot(cb, o)),
  };
}
