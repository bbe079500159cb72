// Seeded fault schedules for the etcd layer (TigerBeetle VOPR style): from one seed, pick a cluster
// size and faults; run closed-loop clients and a watcher while members crash, restart, get
// partitioned (both ways and one way) and the network loses, duplicates and reorders messages.
// Then stop the faults and check safety (linearizable history, no acknowledged write lost,
// members converge, watch stream complete and ordered) and liveness (a leader within a bound,
// every pending operation resolved, a fresh write commits, the watcher catches up).
// Replay any seed with `npm run soak -- --only etcd --from <seed> --seeds 1`.
import { createKernel } from '../../kernel/index.ts';
import { createEtcdCluster, type EtcdError } from '../../etcd/index.ts';
import { checkOperations, kvModel } from '../linearizability/index.ts';
import { checkAckedWrites, checkConvergence, checkWatchStream, type SeenEvent } from './checks.ts';
import { FaultInjector } from './faults.ts';
import { WorkloadClient, type AckedWrite, type KvOperation } from './workload.ts';

export interface EtcdScheduleOptions {
  members?: 3 | 5;
  clients?: number;
  /** Simulated length of the fault phase (default 8000 ms). */
  faultPhaseMs?: number;
  /** After the faults stop, a leader must appear within this (default 10 000 ms). */
  leaderWithinMs?: number;
  /** Search budget for the linearizability checker. */
  checkerSteps?: number;
}

export interface EtcdScheduleResult {
  ok: boolean;
  seed: number;
  message: string;
  traceHash: string;
  members: number;
  operations: number;
  acknowledgedWrites: number;
  indeterminate: number;
  finalRevision: number;
  /** The compaction point at the end (-1: never compacted). */
  compactRevision: number;
  simulatedMs: number;
  faults: string[];
}

export const ETCD_REPLAY_HINT = (seed: number): string => `replay: npm run soak -- --only etcd --from ${seed} --seeds 1`;

const KEYS = ['k/a', 'k/b', 'k/c'];

export function runEtcdSchedule(seed: number, opts: EtcdScheduleOptions = {}): EtcdScheduleResult {
  const kernel = createKernel({ seed, trace: { detail: false, capacity: 0 } });
  const plan = kernel.rng.fork('etcd-schedule');
  const members = opts.members ?? (plan.chance(0.6) ? 3 : 5);
  const cluster = createEtcdCluster(kernel, {
    members,
    snapshotEvery: [0, 25, 100][plan.nextInt(3)]!,
    snapshotCatchUpEntries: [5, 20][plan.nextInt(2)]!,
    requestTimeoutMs: 4000,
  });
  const history: KvOperation[] = [];
  const acked: AckedWrite[] = [];
  const errors: EtcdError[] = [];
  const faults: string[] = [];
  const faultPhaseMs = opts.faultPhaseMs ?? 8000;
  const startMs = 1500; // let the first election happen
  const stopMs = startMs + faultPhaseMs;

  const workers = Array.from({ length: opts.clients ?? 4 }, (_, i) =>
    new WorkloadClient(kernel, cluster.client({ name: `client-${i}`, timeoutMs: 3000 }), i, plan.fork(`client-${i}`),
      { keys: KEYS, thinkMsMax: 150, timeoutMs: 3000 }, history, acked, errors));
  const watched: number[] = [];
  const seen: SeenEvent[] = [];
  let watchCanceled = '';
  cluster.client({ name: 'watcher' }).watch({ key: 'k/', rangeEnd: 'k0', startRevision: 1 }, (resp) => {
    if (resp.canceled) watchCanceled = `watch canceled: ${resp.cancelReason ?? ''} (compact ${resp.compactRevision ?? 0})`;
    for (const e of resp.events) {
      watched.push(e.kv.modRevision);
      seen.push({ revision: e.kv.modRevision, key: e.kv.key, value: e.type === 'DELETE' ? null : e.kv.value });
    }
  });
  // Like kube-apiserver's periodic compaction, but never past what the watcher has seen (so its
  // resume point stays valid and the stream can be checked for gaps).
  const compactor = cluster.client({ name: 'compactor', timeoutMs: 2000 });
  const compactEveryMs = [0, 700, 2000][plan.nextInt(3)]!;
  if (compactEveryMs > 0) {
    kernel.every(compactEveryMs, () => {
      const target = (watched[watched.length - 1] ?? 1) - 3;
      if (target > 1 && kernel.now() < stopMs) compactor.compact(target, () => {});
    });
  }
  const clientNames = [...workers.map((_, i) => `client-${i}`), 'watcher'];
  const injector = new FaultInjector(kernel, cluster, plan.fork('faults'), faults, clientNames);

  kernel.runFor(startMs);
  for (const w of workers) w.runUntil(stopMs);
  injector.runUntil(stopMs);
  kernel.runUntil(stopMs);
  injector.stopAll();

  const result = (message: string): EtcdScheduleResult => ({
    ok: message === '',
    seed,
    message,
    traceHash: kernel.trace.hash(),
    members,
    operations: history.length,
    acknowledgedWrites: acked.length,
    indeterminate: history.filter((o) => o.returnMs === Infinity).length,
    finalRevision: cluster.store(cluster.leader() ?? '')?.revision ?? 0,
    compactRevision: cluster.store(cluster.leader() ?? '')?.compactRevision ?? -1,
    simulatedMs: kernel.now(),
    faults,
  });

  // Liveness: a leader within the bound, and every outstanding operation resolved by its deadline.
  const leaderBy = kernel.now() + (opts.leaderWithinMs ?? 10_000);
  const settled = kernel.runUntil(() => cluster.leader() !== undefined && workers.every((w) => !w.busy), 50_000_000);
  if (!settled || kernel.now() > leaderBy) return result(`liveness: no leader or operations still pending ${opts.leaderWithinMs ?? 10_000} ms after faults stopped`);
  const fresh = freshWrite(kernel, cluster);
  if (fresh) return result(fresh);
  const finalRevision = cluster.store(cluster.leader()!)!.revision;
  // Everyone catches up, and the watcher sees the last revision.
  const caughtUpBy = kernel.now() + 10_000;
  const allApplied = (): boolean => {
    const lead = cluster.leader();
    const commit = lead ? cluster.raftStatus(lead)?.commit : undefined;
    return commit !== undefined && cluster.members.every((m) => cluster.raftStatus(m.name)?.applied === commit);
  };
  // Compaction does not move the revision, so "caught up" means every member applied the leader's commit.
  kernel.runUntil(() => kernel.now() > caughtUpBy || (allApplied() && watched[watched.length - 1] === finalRevision), 50_000_000);

  const lin = checkOperations(kvModel, history, { maxSteps: opts.checkerSteps ?? 5_000_000 });
  if (lin.verdict !== 'ok') return result(`linearizability: ${lin.verdict}${lin.explanation ? '\n' + lin.explanation : ''}`);
  const problem =
    checkConvergence(cluster) ??
    checkAckedWrites(cluster, acked, seen) ??
    (watchCanceled || checkWatchStream(watched, finalRevision));
  return result(problem ?? '');
}

/**
 * After recovery a new write must commit within 3 tries of 5 s (progress, not just safety). A try
 * can time out legitimately: a follower may forward it to a leader that was just deposed.
 */
function freshWrite(kernel: ReturnType<typeof createKernel>, cluster: ReturnType<typeof createEtcdCluster>): string | undefined {
  const client = cluster.client({ name: 'prober', timeoutMs: 5000 });
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    let done: string | null = null;
    client.put({ key: 'k/probe', value: 'after-faults' }, (r) => (done = r.ok ? '' : r.error.message));
    kernel.runUntil(() => done !== null, 50_000_000);
    if (done === '') return undefined;
    last = done ?? 'no answer';
  }
  return `liveness: 3 writes after recovery failed, the last with: ${last}`;
}
