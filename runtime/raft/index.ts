/**
 * runtime/raft: Raft consensus as a pure state machine, in the style of etcd-io/raft.
 *
 * - `RawNode` is the application's handle: tick(), step(msg), propose(data), readIndex(ctx),
 *   hasReady(), ready() -> Ready, advance(), status(), reportSnapshot(), reportUnreachable().
 *   Ready contract: persist hardState/entries/snapshot, then send messages, then apply the
 *   snapshot and committedEntries (and serve readStates), then advance().
 * - `Storage` is what Raft reads; `MemoryStorage` implements it and is the simulated disk
 *   (append, setHardState, applySnapshot, createSnapshot, compact).
 * - PreVote and CheckQuorum are on by default (etcd's server defaults); ReadIndex is ReadOnlySafe.
 * - `SimCluster` runs N members on the kernel (network, ticks, crash/restart, snapshots);
 *   `runRaftSchedule(seed)` is the seeded fault-schedule checker used by tests and soak.
 * Errors that are expected outcomes are values (RaftError strings); broken invariants throw.
 */
export {
  None,
  decodeConfChange,
  describeMessage,
  encodeConfChange,
  emptyHardState,
  isEmptyHardState,
  isEmptySnap,
  newMessage,
  type ConfChange,
  type ConfState,
  type Entry,
  type EntryType,
  type HardState,
  type Message,
  type MessageType,
  type NodeId,
  type ProgressStateType,
  type ProgressStatus,
  type RaftError,
  type ReadState,
  type Ready,
  type Snapshot,
  type SnapshotData,
  type SnapshotMetadata,
  type SoftState,
  type StateType,
  type Status,
} from './types.ts';
export { MemoryStorage, type Storage, type StorageError } from './storage.ts';
export { Raft, type Config, type RaftRng } from './raft.ts';
export { RawNode, type SnapshotStatus } from './rawnode.ts';
export {
  LogStateMachine,
  SimCluster,
  type SimClusterHooks,
  type SimClusterOptions,
  type StateMachine,
} from './sim-cluster.ts';
export {
  defaultCommitRule,
  majorityIndex,
  type CommitRule,
  type CommitState,
} from './commit-rule.ts';
export {
  defaultVoteRule,
  type VoteDecision,
  type VoteRequest,
  type VoteRule,
  type VoteState,
} from './vote-rule.ts';
export { SafetyChecker } from './safety-checker.ts';
export {
  REPLAY_HINT,
  runRaftSchedule,
  type RaftScheduleOptions,
  type RaftScheduleResult,
} from './schedule.ts';
