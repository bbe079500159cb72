// Page side of grading. Each run takes a fresh worker (a spare one is booted ahead of the click),
// streams per-test results, and guards the run with a watchdog: a test still running past its time
// limit (plus a margin) is reported as 'timeout', the worker is terminated, and the remaining tests
// resume in a new worker. Results follow the shared shape (results.ts) and the shared verdict rule.
import * as Comlink from 'comlink';
import type { RunEvent, SuiteKind } from './protocol.ts';
import { finalizeResults, type LabResults, type TestResult } from './results.ts';
import { throttleProgress } from './progress-throttle.ts';
import { epochNowMs, recordPhases, type Phase } from './timing.ts';
import { Watchdog } from './watchdog.ts';
import { startGraderWorker, type WorkerHandle } from './worker-handle.ts';

/** How much longer than the lab's limit a test may run before the worker is killed. */
export const WATCHDOG_MARGIN_MS = 500;
/** Transpiling, evaluating the learner's module and importing the suite. */
export const LOAD_LIMIT_MS = 4000;
/** Booting a worker (downloading and evaluating vitest, lockdown) on a slow machine. */
export const BOOT_LIMIT_MS = 30_000;
/** At most one progress report to the page per interval (the results list re-renders on each). */
export const PROGRESS_INTERVAL_MS = 100;

export interface GradeRequest {
  slug: string;
  suite: SuiteKind;
  source: string;
  timeLimitMs: number;
  /** The test names tests.json lists for this suite. */
  expectedNames: readonly string[];
  /** Called as results arrive, with the tests so far and the one now running. */
  onProgress?: (tests: readonly TestResult[], runningName: string | undefined) => void;
}

type AttemptEnd = { kind: 'finished'; error?: string } | { kind: 'hung-test'; name: string } | { kind: 'hung'; error: string };

export class GradingClient {
  private spare: WorkerHandle | undefined;
  private gradesStarted = 0;
  constructor(private readonly start: () => WorkerHandle = startGraderWorker) {}

  /** Boots a spare worker if none is waiting, so the next run skips the boot. */
  warm(): void {
    this.spare ??= this.start();
  }

  /**
   * The spare (or a new worker), and at once a new spare: it boots while this run goes on, so the
   * next grade, or the resumption after a hung test, finds a ready worker.
   */
  private takeWorker(): WorkerHandle {
    const handle = this.spare ?? this.start();
    this.spare = this.start();
    return handle;
  }

  async grade(request: GradeRequest): Promise<LabResults> {
    const gradeNumber = (this.gradesStarted += 1);
    const startMs = epochNowMs();
    const phases: Phase[] = [];
    const tests: TestResult[] = [];
    const progress = throttleProgress((runningName: string | undefined) => request.onProgress?.(tests, runningName), PROGRESS_INTERVAL_MS);
    let error: string | undefined;
    const maxAttempts = request.expectedNames.length + 2;
    for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
      const handle = this.takeWorker();
      const end = await this.attempt(handle, request, tests, phases, progress.report).finally(() => handle.terminate());
      if (end.kind === 'hung-test') {
        tests.push(timedOut(end.name, request.timeLimitMs));
        progress.cancel();
        request.onProgress?.(tests, undefined);
        continue;
      }
      error = end.error;
      break;
    }
    progress.cancel(); // the caller shows the final results
    this.warm();
    const results = finalizeResults(request.slug, `browser:${request.slug}/${request.suite}`, request.expectedNames, tests, error);
    recordPhases([...phases, { name: 'page:grade', startMs, endMs: epochNowMs() }], gradeNumber);
    return results;
  }

  private attempt(
    handle: WorkerHandle,
    request: GradeRequest,
    tests: TestResult[],
    phases: Phase[],
    reportProgress: (runningName: string | undefined) => void,
  ): Promise<AttemptEnd> {
    const watchdog = new Watchdog();
    return new Promise<AttemptEnd>((resolve) => {
      let settled = false;
      const finish = (end: AttemptEnd) => {
        if (settled) return;
        settled = true;
        watchdog.disarm();
        resolve(end);
      };
      const perTestMs = request.timeLimitMs + WATCHDOG_MARGIN_MS;
      const onEvent = (event: RunEvent) => {
        if (settled) return; // a terminated worker's last messages
        if (event.type === 'loading') {
          watchdog.arm(LOAD_LIMIT_MS, () => finish({ kind: 'hung', error: loadHungMessage() }));
        } else if (event.type === 'loaded') {
          watchdog.arm(perTestMs, () => finish({ kind: 'hung', error: 'The suite stopped responding between tests.' }));
        } else if (event.type === 'test-start') {
          reportProgress(event.name);
          watchdog.arm(perTestMs, () => finish({ kind: 'hung-test', name: event.name }));
        } else {
          tests.push(event.result);
          reportProgress(undefined);
          watchdog.arm(perTestMs, () => finish({ kind: 'hung', error: 'The suite stopped responding between tests.' }));
        }
      };
      watchdog.arm(BOOT_LIMIT_MS, () => finish({ kind: 'hung', error: 'The grader did not start. Reload the page and try again.' }));
      const waitStartMs = epochNowMs();
      let runStartMs = waitStartMs;
      handle.ready
        .then((bootPhases) => {
          phases.push(...bootPhases, { name: 'page:wait-worker', startMs: waitStartMs, endMs: (runStartMs = epochNowMs()) });
          watchdog.arm(LOAD_LIMIT_MS, () => finish({ kind: 'hung', error: loadHungMessage() }));
          return handle.api.run(
            { slug: request.slug, suite: request.suite, source: request.source, testTimeoutMs: request.timeLimitMs, skipNames: tests.map((test) => test.name) },
            Comlink.proxy(onEvent),
          );
        })
        .then(
          (outcome) => {
            phases.push(...outcome.phases, { name: 'page:run', startMs: runStartMs, endMs: epochNowMs() });
            finish({ kind: 'finished', ...(outcome.error === undefined ? {} : { error: outcome.error }) });
          },
          (failure: unknown) => finish({ kind: 'finished', error: `The grader failed: ${String(failure)}` }),
        );
    });
  }

  dispose(): void {
    this.spare?.terminate();
    this.spare = undefined;
  }
}

function loadHungMessage(): string {
  return `Your code did not finish loading within ${LOAD_LIMIT_MS / 1000} s: is there an infinite loop at the top level of the file?`;
}

function timedOut(name: string, timeLimitMs: number): TestResult {
  return {
    name,
    status: 'timeout',
    message: `Still running after ${timeLimitMs} ms, so it was stopped: look for a loop that never ends. The remaining tests ran in a fresh worker.`,
    durationMs: timeLimitMs + WATCHDOG_MARGIN_MS,
  };
}
