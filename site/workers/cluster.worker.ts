// The "Run in cluster" worker: runs one lab's scenario (labs/<slug>/scenario.ts, found by
// lab-scenarios.ts) on a simulated cluster, with the learner's code plugged into the component it
// implements, or with the built-in component (the reference). The learner's TypeScript is compiled
// and evaluated exactly as for grading (sucrase, then an SES Compartment after lockdown), so it sees
// no worker globals. A loop that never ends cannot be interrupted from inside: the page terminates
// this worker when progress stops.
import * as Comlink from 'comlink';
import { missingExports, runScenario, type LabRun } from '../../labs/lab-scenario.ts';
import { loadClusterScenario } from '../components/lab/lab-scenarios.ts';
import type {
  ClusterComparison,
  ClusterConnectMessage,
  ClusterRunOutcome,
  ClusterRunRequest,
  ClusterWorkerApi,
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

async function run(request: ClusterRunRequest, onProgress: (what: string) => void): Promise<ClusterRunOutcome> {
  await ready;
  const scenario = await loadClusterScenario(request.slug);
  if (!scenario) return { loadError: `The lab "${request.slug}" has no cluster scenario.` };
  let exports: Record<string, unknown> | undefined;
  if (request.source !== null) {
    const loaded = loadLearnerModule(request.source);
    if (typeof loaded === 'string') return { loadError: loaded };
    const missing = missingExports(scenario, loaded);
    if (missing) return { loadError: missing };
    exports = loaded;
  }
  return { run: await runScenario(scenario, exports, request.seed, { onProgress: (what) => void onProgress(what) }) };
}

async function compare(slug: string, learner: LabRun, reference: LabRun): Promise<ClusterComparison> {
  await ready;
  const scenario = await loadClusterScenario(slug);
  if (!scenario) throw new Error(`The lab "${slug}" has no cluster scenario.`);
  return scenario.compare(learner, reference);
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
