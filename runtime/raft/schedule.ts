/**
 * Seeded fault schedules for Raft, in the spirit of TigerBeetle's VOPR: from one seed, pick a
 * cluster size and network quality, then for a fault phase mix client proposals with crashes,
 * restarts, symmetric partitions, one-way blocks, heals, loss, duplication and reordering, while
 * SafetyChecker watches every Ready. Then stop the faults (heal, restart everyone, clean links)
 * and check liveness: a leader appears within a bound, and fresh proposals commit on every member.
 *
 * One seed in five (drawn from its own RNG fork, so the other seeds' schedules are unchanged) runs
 * the 'figure8' family instead: a scripted adversary on 5 members that steers the cluster towards
 * the interleaving of the Raft paper's Figure 8 (section 5.4.2), which random faults almost never
 * reach: a leader's entries reach one follower only and the leader crashes; a member with a
 * shorter log wins the next term and crashes before replicating anything; the old leader (or the
 * follower holding its entries) wins again and, the moment it commits an entry nobody had
 * committed before, is cut off and crashed; then the shorter-log member comes back, facing the two
 * members that hold the most entries cut off. A leader that commits an old-term entry by
 * counting replicas (no term check) has then committed an entry the shorter-log member overwrites.
 * Replay any seed with `npm run soak -- --only raft --from <seed> --seeds 1`.
 */
import { createKernel, type Kernel, type Rng, type TraceOptions } from '../kernel/index.ts';
import type { CommitRule } from './commit-rule.ts';
import type { RawNode } from './rawnode.ts';
import type { VoteRule } from './vote-rule.ts';
import { SafetyChecker } from './safety-checker.ts';
import { LogStateMachine, SimCluster, type SimClusterHooks } from './sim-cluster.ts';
import type { NodeId, Ready } from './types.ts';

export type RaftScheduleFamily = 'mixed' | 'figure8';

export interface RaftScheduleOptions {
  /** Cluster size (default: drawn from the seed among 1, 3, 5). */
  members?: 1 | 3 | 5;
  /** Simulated length of the fault phase. Default 10_000 ms. */
  faultPhaseMs?: number;
  /** After faults stop, a leader must appear within this. Default 10_000 ms. */
  leaderWithinMs?: number;
  /** Then fresh proposals must apply on every member within this. Default 10_000 ms. */
  commitWithinMs?: number;
  trace?: TraceOptions;
  /** Mix single-member adds and removes into the faults (default: drawn from the seed, 30%). */
  membershipChanges?: boolean;
  /** Which fault schedule (default: drawn from the seed: 'figure8' one seed in five, else 'mixed'). */
  family?: RaftScheduleFamily;
  /** Every member's commit rule (default: Raft's own). The raft-commit lab injects the learner's. */
  commitRule?: CommitRule;
  /** Every member's vote rule (default: Raft's own). The raft-vote lab injects the learner's. */
  voteRule?: VoteRule;
}

export interface RaftScheduleResult {
  ok: boolean;
  seed: number;
  family: RaftScheduleFamily;
  /** What failed (empty when ok). */
  message: string;
  traceHash: string;
  members: number;
  /** Entries applied at the highest index anywhere. */
  committed: number;
  leaderChanges: number;
  /** Membership changes committed. */
  confChanges: number;
  messages: number;
  simulatedMs: number;
}

export const REPLAY_HINT = (seed: number): string =>
  `replay: npm run soak -- --only raft --from ${seed} --seeds 1`;

export function runRaftSchedule(seed: number, opts: RaftScheduleOptions = {}): RaftScheduleResult {
  const kernel = createKernel({ seed, trace: opts.trace ?? { detail: false, capacity: 0 } });
  const family = opts.family ?? (kernel.rng.fork('family').chance(0.2) ? 'figure8' : 'mixed');
  const plan = kernel.rng.fork('schedule');
  const figure8 = family === 'figure8';
  const size = figure8 ? 5 : (opts.members ?? ([1, 3, 3, 5, 5] as const)[plan.nextInt(5)]!);
  const ids = Array.from({ length: size }, (_, i) => `n${i + 1}`);
  if (!figure8) {
    kernel.net.configure({
      lossRate: pick(plan, [0, 0.01, 0.05, 0.1]),
      duplicateRate: pick(plan, [0, 0.01, 0.05]),
      reorderRate: pick(plan, [0, 0.02, 0.1]),
    });
  }
  const checker = new SafetyChecker();
  const adversary = figure8 ? new Figure8Adversary(kernel) : undefined;
  const cluster = new SimCluster({
    kernel,
    ids,
    snapshotEvery: figure8 ? 0 : pick(plan, [0, 10, 50]),
    snapshotCatchUpEntries: figure8 ? 20 : pick(plan, [0, 5, 20]),
    // Small appends let a follower hold a leader's old-term entries without its new-term one.
    maxEntriesPerMsg: figure8 ? pick(plan, [1, 1, 2, 3]) : undefined,
    commitRule: opts.commitRule,
    voteRule: opts.voteRule,
    hooks: chainHooks(checker.hooks(() => kernel.now()), adversary?.hooks()),
  });

  const faultPhaseMs = opts.faultPhaseMs ?? 10_000;
  if (adversary) {
    adversary.run(plan, cluster, checker);
    kernel.runUntil(Math.max(kernel.now(), faultPhaseMs));
    checker.checkLogMatching(cluster);
  } else {
    let n = 0;
    kernel.net.register('client', () => {});
    // Client traffic: a proposal at a random member every 20..200 ms.
    const proposer = kernel.every(20 + plan.nextInt(180), () => {
      cluster.propose(cluster.ids[plan.nextInt(cluster.ids.length)]!, `s${seed}-${n++}`);
    });
    // Faults: one every 200..1500 ms. In some schedules, membership changes join in.
    const membership = opts.membershipChanges ?? plan.chance(0.3);
    const faults = (): void => {
      if (kernel.now() >= faultPhaseMs) return;
      if (membership && plan.chance(0.4)) changeMembership(plan, cluster);
      else injectFault(plan, cluster, cluster.ids);
      kernel.setTimer(200 + plan.nextInt(1300), faults);
    };
    kernel.setTimer(plan.nextInt(1000), faults);
    for (let t = 2000; t <= faultPhaseMs; t += 2000) {
      kernel.runUntil(t);
      checker.checkLogMatching(cluster);
      if (checker.violation) break;
    }
    kernel.runUntil(faultPhaseMs);
    proposer.cancel();
  }

  const fail = (message: string): RaftScheduleResult => result(false, message);
  const result = (ok: boolean, message: string): RaftScheduleResult => ({
    ok,
    seed,
    family,
    message: ok ? '' : `${message} (members ${size}, ${family} schedule, seed ${seed}; ${REPLAY_HINT(seed)})`,
    traceHash: kernel.trace.hash(),
    members: size,
    committed: checker.appliedAt.size,
    leaderChanges: checker.leaderChanges,
    confChanges: [...checker.appliedAt.values()].filter((e) => e.type === 'EntryConfChange').length,
    messages: kernel.net.stats.sent,
    simulatedMs: kernel.now(),
  });
  if (checker.violation) return fail(checker.violation);

  // Faults stop: heal the network, clean the links, restart every crashed member.
  kernel.net.heal();
  kernel.net.configure({ lossRate: 0, duplicateRate: 0, reorderRate: 0 });
  for (const id of cluster.ids) if (!cluster.isUp(id)) cluster.restart(id);
  const stopMs = kernel.now();
  const leaderWithinMs = opts.leaderWithinMs ?? 10_000;
  const hasLeader = (): boolean => cluster.leader() !== undefined;
  while (!hasLeader() && kernel.now() < stopMs + leaderWithinMs) kernel.runFor(10);
  if (!hasLeader()) return fail(`Liveness: no leader ${leaderWithinMs} ms after faults stopped`);

  const fresh = ['live-0', 'live-1', 'live-2'].map((d) => `s${seed}-${d}`);
  // Read the state machines themselves: entries that arrived inside a snapshot count too.
  const applied = (id: string): readonly string[] =>
    (cluster.stateMachine(id) as LogStateMachine | undefined)?.applied ?? [];
  // Every current voter (as the leader sees the membership) must apply the fresh commands.
  const voters = (): readonly string[] =>
    cluster.node(cluster.leader() ?? '')?.raft.prs.voters ?? cluster.ids;
  const allApplied = (): boolean =>
    voters().every((id) => fresh.every((d) => applied(id).includes(d)));
  const commitBy = kernel.now() + (opts.commitWithinMs ?? 10_000);
  while (!allApplied() && kernel.now() < commitBy) {
    // Like a client with a timeout: (re)propose what is not yet applied at the current leader.
    const leader = cluster.leader();
    if (leader) for (const d of fresh) if (!applied(leader).includes(d)) cluster.propose(leader, d);
    kernel.runFor(1000);
  }
  checker.checkLogMatching(cluster);
  if (checker.violation) return fail(checker.violation);
  // Members that applied their own removal have shut down; every running one is checked.
  const divergent = cluster.ids
    .filter((id) => cluster.isUp(id))
    .find((id) => !sameAsCommitted(applied(id), checker, cluster.node(id)!.raft.raftLog.applied));
  if (divergent)
    return fail(
      `State Machine Safety: ${divergent}'s state (snapshots included) differs from the committed log`,
    );
  if (!allApplied())
    return fail(
      `Liveness: proposals not applied on every member within ${opts.commitWithinMs ?? 10_000} ms`,
    );
  return result(true, '');
}

/** Whether a member's state equals the non-empty commands committed at indexes 1..appliedIndex. */
function sameAsCommitted(
  state: readonly string[],
  checker: SafetyChecker,
  appliedIndex: number,
): boolean {
  const expected: string[] = [];
  for (let i = 1; i <= appliedIndex; i++) {
    const e = checker.appliedAt.get(i);
    if (!e) return false;
    if (e.data !== '') expected.push(e.data);
  }
  return expected.length === state.length && expected.every((d, i) => d === state[i]);
}

function pick<T>(rng: Rng, options: readonly T[]): T {
  return options[rng.nextInt(options.length)]!;
}

/** Adds a new member, or removes a current voter (never the last one). */
function changeMembership(rng: Rng, cluster: SimCluster): void {
  const up = cluster.ids.filter((id) => cluster.isUp(id));
  if (up.length === 0) return;
  const via = up[rng.nextInt(up.length)]!;
  const voters = cluster.node(via)!.raft.prs.voters;
  if (rng.chance(0.5) || voters.length <= 1) {
    cluster.addMember(via, `n${cluster.ids.length + 1}`);
  } else {
    cluster.removeMember(via, voters[rng.nextInt(voters.length)]!);
  }
}

function injectFault(rng: Rng, cluster: SimCluster, ids: string[]): void {
  const net = cluster.kernel.net;
  const id = ids[rng.nextInt(ids.length)]!;
  const roll = rng.nextInt(100);
  if (roll < 15) {
    if (cluster.isUp(id)) cluster.crash(id);
  } else if (roll < 40) {
    const down = ids.filter((x) => !cluster.isUp(x));
    if (down.length > 0) cluster.restart(down[rng.nextInt(down.length)]!);
  } else if (roll < 50) {
    // Crash and immediate recovery from disk.
    if (cluster.isUp(id)) cluster.restart(id);
  } else if (roll < 70) {
    // Symmetric partition into two random sides.
    const a: string[] = [];
    const b: string[] = [];
    for (const x of ids) (rng.chance(0.5) ? a : b).push(x);
    net.partition([a, b].filter((g) => g.length > 0));
  } else if (roll < 85) {
    const to = ids[rng.nextInt(ids.length)]!;
    if (to !== id) net.block(id, to);
  } else {
    net.heal();
  }
}

function chainHooks(a: SimClusterHooks, b: SimClusterHooks | undefined): SimClusterHooks {
  if (!b) return a;
  return {
    onStart: (id, node) => {
      a.onStart?.(id, node);
      b.onStart?.(id, node);
    },
    onApply: (id, e) => {
      a.onApply?.(id, e);
      b.onApply?.(id, e);
    },
    onReady: (id, rd, node) => {
      a.onReady?.(id, rd, node);
      b.onReady?.(id, rd, node);
    },
  };
}

type Figure8Trigger = 'none' | 'cut-new-leader' | 'cut-leader-on-commit';

/**
 * The 'figure8' family's adversary: a script of faults, each step waiting (bounded) for the
 * cluster to get where it needs to be, with the members playing each role and the timings drawn
 * from the seed. Two steps react to what a member does (as a crash at the worst moment would):
 * cut off a member the moment it becomes leader, or the moment its commit index passes every
 * commit index reached before (it commits an entry nobody had committed).
 */
class Figure8Adversary {
  private trigger: Figure8Trigger = 'none';
  /** The member the last trigger cut off (undefined until it fires). */
  private victim: NodeId | undefined;
  /** The highest commit index any member has reached so far. */
  private highestCommit = 0;
  private cluster: SimCluster | undefined;

  constructor(private readonly kernel: Kernel) {}

  hooks(): SimClusterHooks {
    return { onReady: (id, rd, node) => this.onReady(id, rd, node) };
  }

  private onReady(id: NodeId, _rd: Ready, node: RawNode): void {
    const raft = node.raft;
    const committed = raft.raftLog.committed;
    const newCommit = committed > this.highestCommit;
    this.highestCommit = Math.max(this.highestCommit, committed);
    if (this.trigger === 'none' || raft.state !== 'StateLeader') return;
    if (this.trigger === 'cut-new-leader' || (this.trigger === 'cut-leader-on-commit' && newCommit)) {
      this.cutOff(id);
    }
  }

  /** Cuts every link out of `id` (messages in flight are lost too), then crashes it. */
  private cutOff(id: NodeId): void {
    this.trigger = 'none';
    this.victim = id;
    const net = this.kernel.net;
    for (const other of this.cluster?.ids ?? []) if (other !== id) net.block(id, other);
    this.kernel.setTimer(1, () => this.crashIfUp(id));
  }

  private crashIfUp(id: NodeId): void {
    if (this.cluster?.isUp(id)) this.cluster.crash(id);
  }

  run(plan: Rng, cluster: SimCluster, checker: SafetyChecker): void {
    this.cluster = cluster;
    const kernel = this.kernel;
    const net = kernel.net;
    const waitFor = (done: () => boolean, maxMs: number): boolean => {
      const until = kernel.now() + maxMs;
      while (!done() && kernel.now() < until && !checker.violation) kernel.runFor(10);
      return done();
    };
    const blockAll = (id: NodeId, except: NodeId[] = []): void => {
      for (const other of cluster.ids) if (other !== id && !except.includes(other)) net.block(id, other);
    };
    // A leader, and a few committed entries everywhere.
    if (!waitFor(() => cluster.leader() !== undefined, 5000)) return;
    let n = 0;
    for (let i = plan.nextInt(4); i >= 0; i--) cluster.propose(cluster.leader()!, `f8-${n++}`);
    kernel.runFor(200 + plan.nextInt(300));
    // Until every member stores the whole log and knows it is committed.
    const settled = (): boolean => {
      const last = cluster.node(cluster.leader() ?? '')?.raft.raftLog.lastIndex();
      return cluster.ids.every((id) => cluster.node(id)?.raft.raftLog.committed === last);
    };
    waitFor(settled, 3000);
    const old = cluster.leader();
    if (!old) return;

    // (a) The leader's next entries reach one follower only; then the leader crashes.
    const others = cluster.ids.filter((id) => id !== old);
    const holder = others[plan.nextInt(others.length)]!;
    blockAll(old, [holder]);
    for (let i = 2 + plan.nextInt(5); i > 0; i--) cluster.propose(old, `f8-${n++}`);
    kernel.runFor(20 + plan.nextInt(60));
    cluster.crash(old);
    net.heal();

    // (b) With the holder cut off, a member with a shorter log wins the next term, and is cut off
    // (its new-term entry lost in flight) and crashed the moment it leads.
    net.partition([[holder], cluster.ids.filter((id) => id !== holder)]);
    this.trigger = 'cut-new-leader';
    this.victim = undefined;
    if (!waitFor(() => this.victim !== undefined, 6000)) return;
    const shorter = this.victim!;
    kernel.runFor(5);

    // (c) The old leader returns; it (or the holder) wins again and brings the others' logs up to
    // date, and the moment it commits an entry nobody had committed before, it is cut off and crashed.
    net.heal();
    cluster.restart(old);
    this.trigger = 'cut-leader-on-commit';
    this.victim = undefined;
    if (!waitFor(() => this.victim !== undefined, 8000)) return;
    kernel.runFor(5);

    // (d) The shorter-log member returns, with the two members that held the old leader's entries
    // cut off: it wins only if the other two still lack the current-term entry of (c)'s leader.
    net.heal();
    net.partition([[old, holder], cluster.ids.filter((id) => id !== old && id !== holder)]);
    cluster.restart(shorter);
    kernel.runFor(3000 + plan.nextInt(2000));
    net.heal();
  }
}
