// Messages between etcd clients and members on the simulated network (the gRPC API), and the
// commands members replicate through Raft (etcdserverpb.InternalRaftRequest).
import type { Result } from '../errors.ts';
import type { DeleteRangeRequest, PutRequest, RangeRequest, TxnRequest } from '../mvcc/types.ts';
import type { WatchRequest, WatchResponse } from '../mvcc/watch.ts';
import type { ResponseHeader } from '../client/types.ts';

/** A write that goes through the Raft log (mirrors InternalRaftRequest's fields). */
export type WriteCommand =
  | { op: 'put'; req: PutRequest }
  | { op: 'deleteRange'; req: DeleteRangeRequest }
  | { op: 'txn'; req: TxnRequest }
  | { op: 'compact'; revision: number }
  | { op: 'leaseGrant'; id: number; ttl: number }
  | { op: 'leaseRevoke'; id: number };

/** A Raft entry's payload: the command and the unique request ID its proposer waits on. */
export interface Proposal {
  id: string;
  cmd: WriteCommand;
}

export type ClientRequest =
  | WriteCommand
  | { op: 'range'; req: RangeRequest }
  | { op: 'leaseKeepAlive'; id: number }
  | { op: 'leaseTimeToLive'; id: number }
  | { op: 'memberList' }
  | { op: 'status' }
  | { op: 'hashKV'; revision: number }
  | { op: 'snapshot' }
  | { op: 'watchCreate'; watchKey: string; req: WatchRequest }
  | { op: 'watchCancel'; watchKey: string }
  /** One keepalive per client connection, naming every watch stream it carries on this member. */
  | { op: 'watchPing'; watchKeys: readonly string[] }
  | { op: 'watchProgress'; watchKey: string };

export interface RequestMessage {
  kind: 'etcd.request';
  reqId: string;
  /** Network endpoint of the client (or of the member that forwarded the request). */
  replyTo: string;
  request: ClientRequest;
}

export interface ResponseMessage {
  kind: 'etcd.response';
  reqId: string;
  result: Result<{ header: ResponseHeader } & Record<string, unknown>>;
}

export interface WatchMessage {
  kind: 'etcd.watch';
  watchKey: string;
  /**
   * Position in the stream (0, 1, 2, ...), so the client can restore order and notice a lost
   * message the way TCP would under gRPC. For 'alive' it is the last position sent so far.
   */
  seq: number;
  /** 'gone': the member dropped the stream (it lost its leader or restored a snapshot); resume elsewhere. */
  response: (WatchResponse & { header: ResponseHeader }) | 'gone' | 'alive';
}

/** The answer to one watchPing: an 'alive' or 'gone' WatchMessage per stream it named. */
export interface WatchPingResponseMessage {
  kind: 'etcd.watch.pong';
  streams: readonly WatchMessage[];
}

export type EtcdMessage = RequestMessage | ResponseMessage | WatchMessage | WatchPingResponseMessage;

export function isEtcdMessage(msg: unknown): msg is EtcdMessage {
  const kind = (msg as { kind?: unknown } | null)?.kind;
  return kind === 'etcd.request' || kind === 'etcd.response' || kind === 'etcd.watch' || kind === 'etcd.watch.pong';
}

/** Writes that are safe to retry on another member only when we know they were never proposed. */
export const WRITE_OPS: ReadonlySet<string> = new Set(['put', 'deleteRange', 'txn', 'compact', 'leaseGrant', 'leaseRevoke']);
