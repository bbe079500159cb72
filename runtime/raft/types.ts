/**
 * Raft's data types, shaped like etcd-io/raft's raftpb (raft.proto). Node ids are strings (the
 * simulation's endpoint names); `None` is the empty id. Entry data is a string: the state machine's
 * serialized command.
 */
export type NodeId = string;
/** No node: no leader known, no vote cast. Mirrors raft.None. */
export const None: NodeId = '';

/** Mirrors raftpb.MessageType. Local messages (MsgHup, MsgBeat...) never cross the network. */
export type MessageType =
  | 'MsgHup'
  | 'MsgBeat'
  | 'MsgProp'
  | 'MsgApp'
  | 'MsgAppResp'
  | 'MsgVote'
  | 'MsgVoteResp'
  | 'MsgSnap'
  | 'MsgHeartbeat'
  | 'MsgHeartbeatResp'
  | 'MsgUnreachable'
  | 'MsgSnapStatus'
  | 'MsgCheckQuorum'
  | 'MsgReadIndex'
  | 'MsgReadIndexResp'
  | 'MsgPreVote'
  | 'MsgPreVoteResp';

export type EntryType = 'EntryNormal' | 'EntryConfChange';

export interface Entry {
  term: number;
  index: number;
  type: EntryType;
  /** The command; "" for the empty entry a new leader appends. */
  data: string;
}

/** What must be on disk before messages are sent: current term, vote in it, commit index. */
export interface HardState {
  term: number;
  vote: NodeId;
  commit: number;
}

export interface ConfState {
  voters: NodeId[];
}

export interface SnapshotMetadata {
  index: number;
  term: number;
  confState: ConfState;
}

/**
 * The state machine's image at a snapshot's index. Raft only stores and ships it, never reads it.
 * A small state machine may serialize itself to a string; a large one hands over an immutable
 * structured image instead, because no JavaScript string holds more than ~512 MB (real etcd streams
 * its bbolt file to a follower in chunks rather than building one buffer: rafthttp snapshot_sender.go).
 */
export type SnapshotData = string | object;

export interface Snapshot {
  metadata: SnapshotMetadata;
  /** The state machine at metadata.index (treated as immutable once taken). */
  data: SnapshotData;
}

/**
 * One Raft message. All fields are always present (zero values when unused), as in raftpb, so the
 * objects share one shape. For MsgReadIndex/MsgReadIndexResp the request context travels in
 * entries[0].data; heartbeats carry it in `context`.
 */
export interface Message {
  type: MessageType;
  to: NodeId;
  from: NodeId;
  term: number;
  /** MsgApp: term of the entry at `index`; a rejecting MsgAppResp: the hint's term. */
  logTerm: number;
  index: number;
  entries: Entry[];
  commit: number;
  snapshot: Snapshot | null;
  reject: boolean;
  /** A rejecting MsgAppResp: the follower's suggested index to probe next. */
  rejectHint: number;
  context: string;
}

/** A single-member membership change (mirrors raftpb.ConfChange V1: no joint consensus). */
export interface ConfChange {
  type: 'ConfChangeAddNode' | 'ConfChangeRemoveNode';
  nodeId: NodeId;
}

/** The data of an EntryConfChange entry. */
export function encodeConfChange(cc: ConfChange): string {
  return JSON.stringify({ type: cc.type, nodeId: cc.nodeId });
}

export function decodeConfChange(data: string): ConfChange {
  const cc = JSON.parse(data) as Partial<ConfChange>;
  if (
    (cc.type !== 'ConfChangeAddNode' && cc.type !== 'ConfChangeRemoveNode') ||
    typeof cc.nodeId !== 'string' ||
    cc.nodeId === None
  ) {
    throw new Error(`invariant violated: malformed conf change entry ${data}`);
  }
  return { type: cc.type, nodeId: cc.nodeId };
}

export type StateType = 'StateFollower' | 'StateCandidate' | 'StateLeader' | 'StatePreCandidate';

/** Volatile state that changes rarely; not persisted. */
export interface SoftState {
  lead: NodeId;
  raftState: StateType;
}

/** The answer to a ReadIndex request: reads at or after `index` are linearizable. */
export interface ReadState {
  index: number;
  requestCtx: string;
}

/**
 * What the application must do, in order (mirrors raft.Ready, synchronous-storage flavor):
 * 1. persist `hardState`, `entries` and `snapshot` (if present) to Storage;
 * 2. send `messages`;
 * 3. apply `snapshot` (if present), then `committedEntries`, to the state machine;
 * 4. call `advance()`.
 */
export interface Ready {
  softState: SoftState | null;
  hardState: HardState | null;
  readStates: ReadState[];
  entries: Entry[];
  snapshot: Snapshot | null;
  committedEntries: Entry[];
  messages: Message[];
  /** True if hardState or entries changed and must be fsynced before sending. */
  mustSync: boolean;
}

export type ProgressStateType = 'StateProbe' | 'StateReplicate' | 'StateSnapshot';

export interface ProgressStatus {
  match: number;
  next: number;
  state: ProgressStateType;
  pendingSnapshot: number;
  recentActive: boolean;
  paused: boolean;
  inflight: number;
}

/** A snapshot of a node's Raft state for UIs and tests (mirrors raft.Status). */
export interface Status {
  id: NodeId;
  term: number;
  vote: NodeId;
  commit: number;
  lead: NodeId;
  raftState: StateType;
  applied: number;
  lastIndex: number;
  firstIndex: number;
  /** Only on the leader: per-voter replication progress. */
  progress: Record<NodeId, ProgressStatus>;
}

/** Errors that are expected outcomes, returned as values (mirrors raft's exported errors). */
export type RaftError =
  | 'ErrProposalDropped'
  | 'ErrStepLocalMsg'
  | 'ErrStepPeerNotFound'
  | 'ErrCompacted'
  | 'ErrSnapOutOfDate'
  | 'ErrUnavailable';

export function emptyHardState(): HardState {
  return { term: 0, vote: None, commit: 0 };
}

export function isEmptyHardState(h: HardState): boolean {
  return h.term === 0 && h.vote === None && h.commit === 0;
}

export function hardStateEqual(a: HardState, b: HardState): boolean {
  return a.term === b.term && a.vote === b.vote && a.commit === b.commit;
}

export function isEmptySnap(s: Snapshot | null): boolean {
  return s === null || s.metadata.index === 0;
}

/** The entries of a message that carries none: shared by every such message, so frozen. */
const NO_ENTRIES: Entry[] = Object.freeze([]) as unknown as Entry[];

/** A message with every field at its zero value except those given. */
export function newMessage(fields: Partial<Message> & { type: MessageType }): Message {
  return {
    type: fields.type,
    to: fields.to ?? None,
    from: fields.from ?? None,
    term: fields.term ?? 0,
    logTerm: fields.logTerm ?? 0,
    index: fields.index ?? 0,
    entries: fields.entries ?? NO_ENTRIES,
    commit: fields.commit ?? 0,
    snapshot: fields.snapshot ?? null,
    reject: fields.reject ?? false,
    rejectHint: fields.rejectHint ?? 0,
    context: fields.context ?? '',
  };
}

/** Local messages are created by the node for itself and must never be stepped from the network. */
export function isLocalMsg(t: MessageType): boolean {
  return (
    t === 'MsgHup' ||
    t === 'MsgBeat' ||
    t === 'MsgUnreachable' ||
    t === 'MsgSnapStatus' ||
    t === 'MsgCheckQuorum'
  );
}

export function isResponseMsg(t: MessageType): boolean {
  return (
    t === 'MsgAppResp' ||
    t === 'MsgVoteResp' ||
    t === 'MsgHeartbeatResp' ||
    t === 'MsgUnreachable' ||
    t === 'MsgPreVoteResp'
  );
}

/** The response type for a vote request type. */
export function voteRespMsgType(t: MessageType): MessageType {
  if (t === 'MsgVote') return 'MsgVoteResp';
  if (t === 'MsgPreVote') return 'MsgPreVoteResp';
  throw new Error(`invariant violated: not a vote message: ${t}`);
}

/** A compact, readable rendering of a message for traces and transcripts. */
export function describeMessage(m: Message): string {
  let s = `${m.from}->${m.to} ${m.type} term=${m.term}`;
  if (m.type === 'MsgApp')
    s += ` logTerm=${m.logTerm} index=${m.index} commit=${m.commit} entries=${m.entries.length}`;
  else if (m.type === 'MsgAppResp')
    s += m.reject
      ? ` reject index=${m.index} hint=${m.rejectHint}/${m.logTerm}`
      : ` index=${m.index}`;
  else if (m.type === 'MsgVote' || m.type === 'MsgPreVote')
    s += ` logTerm=${m.logTerm} index=${m.index}`;
  else if (m.type === 'MsgVoteResp' || m.type === 'MsgPreVoteResp')
    s += m.reject ? ' rejected' : ' granted';
  else if (m.type === 'MsgHeartbeat') s += ` commit=${m.commit}`;
  else if (m.type === 'MsgSnap') s += ` snapshot=${m.snapshot?.metadata.index ?? 0}`;
  return s;
}
