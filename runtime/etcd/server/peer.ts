// Raft messages between members, as rafthttp carries them: every peer request names the sender's
// cluster (the X-Etcd-Cluster-ID header) and member (X-Server-From). A member answers a request
// from another cluster with 412 Precondition Failed "cluster ID mismatch" and never hands it to
// Raft, so members of an old cluster cannot disturb a cluster restored from a snapshot on the
// same addresses (their terms and commit indexes belong to another log).
// mirrors server/etcdserver/api/rafthttp/http.go (checkClusterCompatibilityFromHeader: the
// receiver's "request cluster ID mismatch" warning), util.go (checkPostResponse: the sender's
// "request sent was ignored due to cluster ID mismatch" error) and pipeline.go (a failed post
// reports the peer unreachable to Raft).
import type { Message } from '../../raft/index.ts';

/** A Raft message on the peer network, with the headers rafthttp sends along. */
export interface RaftPeerMessage {
  kind: 'etcd.raft';
  /** X-Etcd-Cluster-ID: the sender's cluster. */
  clusterId: string;
  /** X-Server-From: the sender's member ID. */
  memberId: string;
  message: Message;
}

/** The 412 answer to a peer request from another cluster. */
export interface RaftPeerRejection {
  kind: 'etcd.raft.rejected';
  /** The X-Etcd-Cluster-ID response header: the receiver's cluster. */
  clusterId: string;
  /** The cluster ID the rejected request carried (the sender's own, as it sent it). */
  requestClusterId: string;
  /** The receiver's member ID (the remote peer, for the sender). */
  memberId: string;
  /** The response body. */
  error: typeof ErrClusterIDMismatch;
}

/** rafthttp's errClusterIDMismatch text, the 412 response body. */
export const ErrClusterIDMismatch = 'cluster ID mismatch';

export function raftPeerMessage(clusterId: string, memberId: string, message: Message): RaftPeerMessage {
  return { kind: 'etcd.raft', clusterId, memberId, message };
}

export function isRaftPeerMessage(msg: unknown): msg is RaftPeerMessage {
  return (msg as { kind?: unknown } | null)?.kind === 'etcd.raft';
}

export function isRaftPeerRejection(msg: unknown): msg is RaftPeerRejection {
  return (msg as { kind?: unknown } | null)?.kind === 'etcd.raft.rejected';
}

/** What the receiving member does with a peer message: step it, or refuse it (and what it logs). */
export type PeerVerdict =
  | { accept: true; message: Message }
  | { accept: false; log: string; reply: RaftPeerRejection };

/** checkClusterCompatibilityFromHeader: only messages stamped with our cluster ID reach Raft. */
export function checkPeerMessage(local: { clusterId: string; memberId: string }, msg: RaftPeerMessage, from: string): PeerVerdict {
  if (msg.clusterId === local.clusterId) return { accept: true, message: msg.message };
  return {
    accept: false,
    log:
      `request cluster ID mismatch: local-member-id=${local.memberId} local-member-cluster-id=${local.clusterId} ` +
      `remote-peer-server-name=${from} remote-peer-id=${msg.memberId} remote-peer-cluster-id=${msg.clusterId}`,
    reply: { kind: 'etcd.raft.rejected', clusterId: local.clusterId, requestClusterId: msg.clusterId, memberId: local.memberId, error: ErrClusterIDMismatch },
  };
}

/** checkPostResponse's log line for a 412 "cluster ID mismatch". */
export function ignoredLog(rejection: RaftPeerRejection): string {
  return (
    `request sent was ignored due to cluster ID mismatch: remote-peer-id=${rejection.memberId} ` +
    `remote-peer-cluster-id=${rejection.clusterId} local-member-cluster-id=${rejection.requestClusterId}`
  );
}
