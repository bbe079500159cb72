// One grading run inside a grading realm: load the learner's module in the sandbox, then run the
// lab's suite on vitest's runtime, streaming each test's start and result. The page's grading
// worker (site/workers/grader.worker.ts) calls it with the suites bundled into the worker; the
// page host of the tamper suite (scripts/lib/labs/page-host.ts) calls it in Node with the same
// suites imported from labs/, so the page's whole pipeline is exercised without a browser.
import type { RunEvent, RunRequest, SuiteKind } from '../protocol.ts';
import type { PhaseLog } from '../timing.ts';
import { describeThrown } from './describe-thrown.ts';
import { LearnerLoadError, loadLearnerModule } from './sandbox.ts';
import { setSubmissionExports } from './submission-registry.ts';
import { runSuite } from './vitest-host.ts';

export type SuiteLoaders = Record<SuiteKind, () => Promise<unknown>>;

/**
 * Compiles and evaluates the learner's module (sandbox.ts, as the CLI does); a syntax error or a
 * throw at top level is returned, in the same words as on the command line.
 */
function loadSubmission(source: string, onEvent: (event: RunEvent) => void, log: PhaseLog): string | undefined {
  try {
    const { exports, transpileMs } = log.time('worker:load', () => loadLearnerModule(source, { log: (line) => console.log('[learner]', line) }));
    setSubmissionExports(exports);
    onEvent({ type: 'loaded', transpileMs });
    return undefined;
  } catch (error) {
    return error instanceof LearnerLoadError ? error.message : `Your code could not be loaded: ${describeThrown(error)}`;
  }
}

/** Runs one request; returns a suite-level error, if any. Call after prepareVitest() and lockdownOnce(). */
export async function gradeSubmission(request: RunRequest, suites: SuiteLoaders | undefined, onEvent: (event: RunEvent) => void, log: PhaseLog): Promise<string | undefined> {
  if (!suites) return `No lab named "${request.slug}" is bundled in this build.`;
  onEvent({ type: 'loading' });
  const loadError = loadSubmission(request.source, onEvent, log);
  if (loadError) return loadError;
  return log.timeAsync('worker:vitest-run', () =>
    runSuite(`labs/${request.slug}/${request.suite}.test.ts`, request.testTimeoutMs, {
      importSuite: () => log.timeAsync('worker:suite-import', async () => void (await suites[request.suite]())),
      skipNames: new Set(request.skipNames),
      onTestStart: (name) => onEvent({ type: 'test-start', name }),
      onTestEnd: (result) => onEvent({ type: 'test-end', result }),
    }),
  );
}
