// The "Run in cluster" worker: runs one lab scenario on a simulated cluster, with the learner's code
// plugged into the component it implements, or with the built-in component (the reference). The
// learner's TypeScript is compiled and evaluated exactly as for grading (sucrase, then an SES
// Compartment after lockdown), so it sees no worker globals. A loop that never ends cannot be
// interrupted from inside: the page terminates this worker when progress stops.
import * as Comlink from 'comlink';
import {
  compareReplicaSetRuns,
  compareSchedulerRuns,
  runReplicaSetScenario,
  runSchedulerScenario,
  type LearnerScorePlugins,
} from '../../runtime/index.ts';
import type { ReplicaSetReconciler } from '../../runtime/controllers/index.ts';
import {
  clusterScenarioOf,
  type ClusterComparison,
  type ClusterConnectMessage,
  type ClusterRun,
  type ClusterRunOutcome,
  type ClusterRunRequest,
  type ClusterWorkerApi,
} from '../components/lab/run-in-cluster-protocol.ts';
import { evaluateLearnerModule, lockdownOnce } from '../lib/grading/worker/sandbox.ts';
import { transpileLearnerCode } from '../lib/grading/worker/transpile.ts';

const ready: Promise<void> = Promise.resolve().then(() => lockdownOnce());

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Compiles and evaluates the learner's module; the exports, or a readable reason it failed. */
function loadLearnerModule(source: string): Record<string, unknown> | string {
  try {
    const { code } = transpileLearnerCode(source);
    return evaluateLearnerModule(code, (line) => console.log('[learner]', line));
  } catch (error) {
    return `Your code could not be loaded: ${describeError(error)}`;
  }
}

function missingExports(exports: Record<string, unknown>, names: string[]): string | undefined {
  const missing = names.filter((name) => typeof exports[name] !== 'function');
  if (missing.length === 0) return undefined;
  return `Your code does not export ${missing.map((n) => `a function named ${n}`).join(' and ')}, so nothing could be plugged into the cluster.`;
}

async function run(request: ClusterRunRequest, onProgress: (what: string) => void): Promise<ClusterRunOutcome> {
  await ready;
  const scenario = clusterScenarioOf(request.slug);
  if (!scenario) return { loadError: `The lab "${request.slug}" has no cluster scenario.` };
  let exports: Record<string, unknown> | undefined;
  if (request.source !== null) {
    const loaded = loadLearnerModule(request.source);
    if (typeof loaded === 'string') return { loadError: loaded };
    exports = loaded;
  }
  const options = { onProgress: (what: string) => void onProgress(what) };
  if (scenario === 'replicaset') {
    const missing = exports && missingExports(exports, ['reconcileReplicaSet']);
    if (missing) return { loadError: missing };
    const reconciler = exports?.['reconcileReplicaSet'] as ReplicaSetReconciler | undefined;
    return { scenario, run: await runReplicaSetScenario(reconciler, request.seed, options) };
  }
  const missing = exports && missingExports(exports, ['newLeastAllocated', 'newBalancedAllocation']);
  if (missing) return { loadError: missing };
  return { scenario, run: await runSchedulerScenario(exports as LearnerScorePlugins | undefined, request.seed, options) };
}

async function compare(learner: ClusterRun, reference: ClusterRun): Promise<ClusterComparison> {
  await ready;
  if (learner.scenario === 'replicaset' && reference.scenario === 'replicaset') {
    return { scenario: 'replicaset', comparison: compareReplicaSetRuns(learner.run, reference.run) };
  }
  if (learner.scenario === 'scheduler' && reference.scenario === 'scheduler') {
    return { scenario: 'scheduler', comparison: compareSchedulerRuns(learner.run, reference.run) };
  }
  throw new Error('invariant violated: a learner run and a reference run of different scenarios');
}

const api: ClusterWorkerApi = { ready: () => ready, run, compare };

self.addEventListener(
  'message',
  (event: MessageEvent<ClusterConnectMessage>) => {
    if (event.data?.type !== 'connect') return;
    Comlink.expose(api, event.data.port);
  },
  { once: true },
);
