// The vitest runner of every CLI grading run (grade.config.ts `runner`), in the vitest worker. It
// is the page's runner (site/lib/grading/worker/vitest-host.ts) in Node:
// - what a test or hook throws reaches vitest as a readable host Error (runner-guard.ts);
// - each test's result is computed by the shared toTestResult (test-report.ts) and appended at once,
//   with a synchronous write, to LAB_PROGRESS_FILE as "result\t<json>", after a "start\t<name>"
//   line when it begins. vitest batches its own reporter events, so after a synchronous infinite
//   loop the parent would lose the results already finished and not learn which test hung; this
//   file tells it both. The learner's code runs in a Compartment and cannot reach this module,
//   the file system or the process.
// - tests named in LAB_SKIP_TESTS (a JSON list, graded before a hang) are skipped without a report.
import { appendFileSync } from 'node:fs';
import { TestRunner } from 'vitest';
import type { RunnerTestCase, SerializedConfig } from 'vitest';
import { guardedTrace } from '../../../site/lib/grading/worker/runner-guard.ts';
import { fullTestName, toTestResult } from '../../../site/lib/grading/worker/test-report.ts';

const progressFile = process.env.LAB_PROGRESS_FILE;
const skip = new Set<string>(JSON.parse(process.env.LAB_SKIP_TESTS ?? '[]') as string[]);
const write = (line: string) => {
  if (progressFile) appendFileSync(progressFile, `${line}\n`);
};

export default class GradeRunner extends TestRunner {
  constructor(config: SerializedConfig) {
    super(config);
    this.trace = guardedTrace(this.trace, () => (this.config as { _diffOptions?: unknown })._diffOptions);
  }

  override async onBeforeRunTask(test: RunnerTestCase): Promise<void> {
    if (skip.has(fullTestName(test))) test.mode = 'skip';
    await super.onBeforeRunTask(test);
    if (test.mode === 'run' || test.mode === 'queued') write(`start\t${fullTestName(test)}`);
  }

  override onAfterRunTask(test: RunnerTestCase): void {
    super.onAfterRunTask(test);
    if (!skip.has(fullTestName(test))) write(`result\t${JSON.stringify(toTestResult(test))}`);
  }
}
