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

const ready: Promise<void> = (async () => {
  await prepareVitest();
  lockdownOnce();
})();

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Compiles and evaluates the learner's module; a syntax error or a throw at top level is returned. */
function loadSubmission(source: string, onEvent: (event: RunEvent) => void): string | undefined {
  try {
    const { code, transpileMs } = transpileLearnerCode(source);
    const exports = evaluateLearnerModule(code, (line) => console.log('[learner]', line));
    setSubmissionExports(exports);
    onEvent({ type: 'loaded', transpileMs });
    return undefined;
  } catch (error) {
    return `Your code could not be loaded: ${describeError(error)}`;
  }
}

async function run(request: RunRequest, sendEvent: (event: RunEvent) => Promise<void> | void): Promise<RunOutcome> {
  await ready;
  // The callback is a comlink proxy with its own channel: its messages are not ordered with this
  // call's reply, so wait for every event to be delivered before returning.
  const delivered: Promise<void>[] = [];
  const onEvent = (event: RunEvent) => void delivered.push(Promise.resolve(sendEvent(event)));
  const outcome = await runSubmission(request, onEvent);
  await Promise.all(delivered);
  return outcome;
}

async function runSubmission(request: RunRequest, onEvent: (event: RunEvent) => void): Promise<RunOutcome> {
  const suites = labSuites[request.slug];
  if (!suites) return { error: `No lab named "${request.slug}" is bundled in this build.` };
  onEvent({ type: 'loading' });
  const loadError = loadSubmission(request.source, onEvent);
  if (loadError) return { error: loadError };
  const error = await runSuite(`labs/${request.slug}/${request.suite}.test.ts`, request.testTimeoutMs, {
    importSuite: async () => void (await suites[request.suite]()),
    skipNames: new Set(request.skipNames),
    onTestStart: (name) => onEvent({ type: 'test-start', name }),
    onTestEnd: (result) => onEvent({ type: 'test-end', result }),
  });
  return error ? { error } : {};
}

const api: GraderWorkerApi = { ready: () => ready, run };

self.addEventListener(
  'message',
  (event: MessageEvent<ConnectMessage>) => {
    if (event.data?.type !== 'connect') return;
    Comlink.expose(api, event.data.port);
  },
  { once: true },
);
