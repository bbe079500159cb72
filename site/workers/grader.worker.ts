// The grading worker: one per run (plus a spare booted ahead of the click). It loads the real
// vitest runtime, locks the realm down with SES, then on request compiles the learner's code,
// evaluates it in a Compartment, and runs the lab's bundled suite against it, streaming results
// (grade-submission.ts; the CLI grades in the same sandbox, see docs/ARCHITECTURE.md).
// It talks only over the MessagePort handed to it in the first message (comlink); the page
// terminates it when a test runs past its time limit.
import * as Comlink from 'comlink';
import { labSuites } from 'virtual:lab-suites';
import type { ConnectMessage, GraderWorkerApi, RunEvent, RunOutcome, RunRequest } from '../lib/grading/protocol.ts';
import { gradeSubmission } from '../lib/grading/worker/grade-submission.ts';
import { lockdownOnce } from '../lib/grading/worker/sandbox.ts';
import { prepareVitest } from '../lib/grading/worker/vitest-host.ts';
import { PhaseLog } from '../lib/grading/timing.ts';

const bootLog = new PhaseLog();
// From the worker's creation to here: fetching, compiling and evaluating this bundle (vitest, ses, sucrase).
bootLog.mark('worker:script', performance.timeOrigin);

const ready: Promise<void> = (async () => {
  await bootLog.timeAsync('worker:vitest-env', prepareVitest);
  bootLog.time('worker:lockdown', lockdownOnce);
})();

async function run(request: RunRequest, sendEvent: (event: RunEvent) => Promise<void> | void): Promise<RunOutcome> {
  const log = new PhaseLog();
  await log.timeAsync('worker:wait-boot', () => ready);
  // The callback is a comlink proxy with its own channel: its messages are not ordered with this
  // call's reply, so wait for every event to be delivered before returning.
  const delivered: Promise<void>[] = [];
  const onEvent = (event: RunEvent) => void delivered.push(Promise.resolve(sendEvent(event)));
  const error = await gradeSubmission(request, labSuites[request.slug], onEvent, log);
  await log.timeAsync('worker:deliver-events', () => Promise.all(delivered));
  return error === undefined ? { phases: log.phases } : { error, phases: log.phases };
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
