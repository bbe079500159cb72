// The grading worker: one per run (plus a spare booted ahead of the click). It loads the real
// vitest runtime, locks the realm down with SES, then on request compiles the learner's code,
// evaluates it in a Compartment, and runs the lab's bundled suite against it, streaming results.
// It talks only over the MessagePort handed to it in the first message (comlink); the page
// terminates it when a test runs past its time limit.
import * as Comlink from 'comlink';
import { labSuites } from 'virtual:lab-suites';
import type { ConnectMessage, GraderWorkerApi, RunEvent, RunOutcome, RunRequest } from '../lib/grading/protocol.ts';
import { evaluateLearnerModule, lockdownOnce } from '../lib/grading/worker/sandbox.ts';
import { setSubmissionExports } from '../lib/grading/worker/submission-registry.ts';
import { transpileLearnerCode } from '../lib/grading/worker/transpile.ts';
import { prepareVitest, runSuite } from '../lib/grading/worker/vitest-host.ts';
import { PhaseLog } from '../lib/grading/timing.ts';

const bootLog = new PhaseLog();
// From the worker's creation to here: fetching, compiling and evaluating this bundle (vitest, ses, sucrase).
bootLog.mark('worker:script', performance.timeOrigin);

const ready: Promise<void> = (async () => {
  await bootLog.timeAsync('worker:vitest-env', prepareVitest);
  bootLog.time('worker:lockdown', lockdownOnce);
})();

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Compiles and evaluates the learner's module; a syntax error or a throw at top level is returned. */
function loadSubmission(source: string, onEvent: (event: RunEvent) => void, log: PhaseLog): string | undefined {
  try {
    const { code, transpileMs } = log.time('worker:transpile', () => transpileLearnerCode(source));
    const exports = log.time('worker:evaluate', () => evaluateLearnerModule(code, (line) => console.log('[learner]', line)));
    setSubmissionExports(exports);
    onEvent({ type: 'loaded', transpileMs });
    return undefined;
  } catch (error) {
    return `Your code could not be loaded: ${describeError(error)}`;
  }
}

async function run(request: RunRequest, sendEvent: (event: RunEvent) => Promise<void> | void): Promise<RunOutcome> {
  const log = new PhaseLog();
  await log.timeAsync('worker:wait-boot', () => ready);
  // The callback is a comlink proxy with its own channel: its messages are not ordered with this
  // call's reply, so wait for every event to be delivered before returning.
  const delivered: Promise<void>[] = [];
  const onEvent = (event: RunEvent) => void delivered.push(Promise.resolve(sendEvent(event)));
  const error = await runSubmission(request, onEvent, log);
  await log.timeAsync('worker:deliver-events', () => Promise.all(delivered));
  return error === undefined ? { phases: log.phases } : { error, phases: log.phases };
}

/** Returns a suite-level error, if any. */
async function runSubmission(request: RunRequest, onEvent: (event: RunEvent) => void, log: PhaseLog): Promise<string | undefined> {
  const suites = labSuites[request.slug];
  if (!suites) return `No lab named "${request.slug}" is bundled in this build.`;
  onEvent({ type: 'loading' });
  const loadError = loadSubmission(request.source, onEvent, log);
  if (loadError) return loadError;
  return log.timeAsync('worker:vitest-run', () => runSuite(`labs/${request.slug}/${request.suite}.test.ts`, request.testTimeoutMs, {
    importSuite: () => log.timeAsync('worker:suite-import', async () => void (await suites[request.suite]())),
    skipNames: new Set(request.skipNames),
    onTestStart: (name) => onEvent({ type: 'test-start', name }),
    onTestEnd: (result) => onEvent({ type: 'test-end', result }),
  }));
}

const api: GraderWorkerApi = { ready: () => ready.then(() => bootLog.phases), run };

self.addEventListener(
  'message',
  (event: MessageEvent<ConnectMessage>) => {
    if (event.data?.type !== 'connect') return;
    Comlink.expose(api, event.data.port);
  },
  { once: true },
);
