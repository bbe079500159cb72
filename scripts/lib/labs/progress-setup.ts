// Setup file of every grading run (scripts/lib/labs/grade.config.ts), inside the test worker.
// 1. Progress: appends "start\t<name>" and "done\t<name>" lines to LAB_PROGRESS_FILE with
//    synchronous writes. vitest batches its own reporter events, so after a synchronous infinite
//    loop the parent would not learn which test hung; this file tells it at once.
// 2. Reruns: skips the tests named in LAB_SKIP_TESTS (a JSON list), already graded before a hang.
import { appendFileSync } from 'node:fs';
import { afterEach, beforeEach } from 'vitest';

const progressFile = process.env.LAB_PROGRESS_FILE;
const skip = new Set<string>(JSON.parse(process.env.LAB_SKIP_TESTS ?? '[]') as string[]);

beforeEach((context) => {
  const name = context.task.fullTestName ?? context.task.name;
  if (skip.has(name)) context.skip('already graded');
  if (progressFile) appendFileSync(progressFile, `start\t${name}\n`);
});

afterEach((context) => {
  if (progressFile) appendFileSync(progressFile, `done\t${context.task.fullTestName ?? context.task.name}\n`);
});
