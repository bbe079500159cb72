/**
 * Seeded fault schedules for Raft, in the spirit of TigerBeetle's VOPR: from one seed, pick a
 * cluster size and network quality, then for a fault phase mix client proposals with crashes,
 * restarts, symmetric partitions, one-way blocks, heals, loss, duplication and reordering, while
 * SafetyChecker watches every Ready. Then stop the faults (heal, restart everyone, clean links)
 * and check liveness: a leader appears within a bound, and fresh proposals commit on every member.
 * Replay any seed with `npm run soak -- --only raft --from <seed> --seeds 1`.
 */
import { createKernel, type Rng, type TraceOptions } from '../kernel/index.ts';
import { SafetyChecker } from './safety-checker.ts';
import { LogStateMachine, SimCluster } from './sim-cluster.ts';

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
}

export interface RaftScheduleResult {
  ok: boolean;
  seed: number;
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
  const plan = kernel.rng.fork('schedule');
  const size = opts.members ?? ([1, 3, 3, 5, 5] as const)[plan.nextInt(5)]!;
  const ids = Array.from({ length: size }, (_, i) => `n${i + 1}`);
  kernel.net.configure({
    lossRate: pick(plan, [0, 0.01, 0.05, 0.1]),
    duplicateRate: pick(plan, [0, 0.01, 0.05]),
    reorderRate: pick(plan, [0, 0.02, 0.1]),
  });
  const checker = new SafetyChecker();
  const cluster = new SimCluster({
    kernel,
    ids,
    snapshotEvery: pick(plan, [0, 10, 50]),
    snapshotCatchUpEntries: pick(plan, [0, 5, 20]),
    hooks: checker.hooks(() => kernel.now()),
  });

  const faultPhaseMs = opts.faultPhaseMs ?? 10_000;
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

  const fail = (message: string): RaftScheduleResult => result(false, message);
  const result = (ok: boolean, message: string): RaftScheduleResult => ({
    ok,
    seed,
    message: ok ? '' : `${message} (members ${size}, seed ${seed}; ${REPLAY_HINT(seed)})`,
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
