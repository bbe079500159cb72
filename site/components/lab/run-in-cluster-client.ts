// Page side of "Run in cluster": two fresh workers at once on the same seed, one with the learner's
// code and one with the reference, each guarded by a wall-clock watchdog that re-arms whenever the
// run reports progress. A learner's loop that never ends stops progress: its worker is terminated
// and the page says so (the page itself never runs the simulation, so it stays responsive).
import * as Comlink from 'comlink';
import { Watchdog } from '../../lib/grading/watchdog.ts';
import type { ClusterComparison, ClusterConnectMessage, ClusterRunOutcome, ClusterWorkerApi } from './run-in-cluster-protocol.ts';

/** Booting a worker (loading the runtime, lockdown) on a slow machine. */
export const CLUSTER_BOOT_LIMIT_MS = 30_000;
/** The longest a run may go without progress (a step done, a pod placed) before it is stopped. */
export const CLUSTER_PROGRESS_LIMIT_MS = 15_000;
export const CLUSTER_SEED = 1;

export type ClusterRunnerResult =
  | { kind: 'compared'; result: ClusterComparison }
  | { kind: 'load-error'; message: string }
  | { kind: 'hung'; message: string }
  | { kind: 'failed'; message: string };

interface ClusterWorker {
  api: Comlink.Remote<ClusterWorkerApi>;
  terminate(): void;
}

function startClusterWorker(name: string): ClusterWorker {
  const worker = new Worker(new URL('../../workers/cluster.worker.ts', import.meta.url), { type: 'module', name });
  const channel = new MessageChannel();
  const connect: ClusterConnectMessage = { type: 'connect', port: channel.port2 };
  worker.postMessage(connect, [channel.port2]);
  const api = Comlink.wrap<ClusterWorkerApi>(channel.port1);
  let terminated = false;
  return {
    api,
    terminate: () => {
      if (terminated) return; // a released comlink proxy throws if released again
      terminated = true;
      api[Comlink.releaseProxy]();
      channel.port1.close();
      worker.terminate();
    },
  };
}

type Guarded = { ok: true; outcome: ClusterRunOutcome } | { ok: false; hungAfter: string | undefined } | { ok: false; failure: string };

/** Runs one scenario in `worker`, terminating it when progress stops for too long. */
function guardedRun(worker: ClusterWorker, slug: string, source: string | null, onProgress: (what: string) => void): Promise<Guarded> {
  const watchdog = new Watchdog();
  return new Promise<Guarded>((resolve) => {
    let settled = false;
    let lastProgress: string | undefined;
    const finish = (result: Guarded) => {
      if (settled) return;
      settled = true;
      watchdog.disarm();
      resolve(result);
    };
    const hang = () => finish({ ok: false, hungAfter: lastProgress });
    watchdog.arm(CLUSTER_BOOT_LIMIT_MS, hang);
    const progress = (what: string) => {
      if (settled) return;
      lastProgress = what;
      onProgress(what);
      watchdog.arm(CLUSTER_PROGRESS_LIMIT_MS, hang);
    };
    worker.api
      .ready()
      .then((): Promise<ClusterRunOutcome> => {
        watchdog.arm(CLUSTER_PROGRESS_LIMIT_MS, hang);
        return worker.api.run({ slug, source, seed: CLUSTER_SEED }, Comlink.proxy(progress)) as Promise<ClusterRunOutcome>;
      })
      .then(
        (outcome) => finish({ ok: true, outcome }),
        (error: unknown) => finish({ ok: false, failure: String(error) }),
      );
  });
}

export interface ClusterProgress {
  learner?: string;
  reference?: string;
}

/** Your code and the reference, side by side on the same seed. */
export async function runInCluster(slug: string, source: string, onProgress: (progress: ClusterProgress) => void): Promise<ClusterRunnerResult> {
  try {
    return await runBoth(slug, source, onProgress);
  } catch (error) {
    return { kind: 'failed', message: `Run in cluster failed: ${String(error)}` };
  }
}

async function runBoth(slug: string, source: string, onProgress: (progress: ClusterProgress) => void): Promise<ClusterRunnerResult> {
  const learnerWorker = startClusterWorker('cluster-learner');
  const referenceWorker = startClusterWorker('cluster-reference');
  const progress: ClusterProgress = {};
  try {
    const [learner, reference] = await Promise.all([
      guardedRun(learnerWorker, slug, source, (what) => onProgress(Object.assign(progress, { learner: what }))).finally(() => learnerWorker.terminate()),
      guardedRun(referenceWorker, slug, null, (what) => onProgress(Object.assign(progress, { reference: what }))),
    ]);
    if (!learner.ok) {
      if ('failure' in learner) return { kind: 'failed', message: `The run with your code failed: ${learner.failure}` };
      const where = learner.hungAfter ? ` (the last thing that happened: ${learner.hungAfter})` : '';
      return { kind: 'hung', message: `Your code stopped responding: the cluster made no progress for ${CLUSTER_PROGRESS_LIMIT_MS / 1000} s${where}, so its worker was stopped. Look for a loop that never ends.` };
    }
    if ('loadError' in learner.outcome) return { kind: 'load-error', message: learner.outcome.loadError };
    if (!reference.ok || 'loadError' in reference.outcome) return { kind: 'failed', message: 'The reference run did not finish. Reload the page and try again.' };
    const result = await referenceWorker.api.compare(slug, learner.outcome.run, reference.outcome.run);
    return { kind: 'compared', result };
  } finally {
    learnerWorker.terminate();
    referenceWorker.terminate();
  }
}
