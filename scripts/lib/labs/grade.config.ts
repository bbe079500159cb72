// vitest configuration for one grading run in a child process (scripts/lib/labs/run-grade.ts).
// The graded file comes from LAB_SUBMISSION (evaluated in an SES Compartment: submission-plugin.ts),
// the per-test limit from LAB_TIME_LIMIT_MS. The runner (grade-runner.ts) reports each test's
// result; the setup file locks the realm down before the suite loads the learner's code.
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { labSubmissionPlugin } from './submission-plugin.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

export default defineConfig({
  root: ROOT,
  plugins: [labSubmissionPlugin()],
  test: {
    include: ['labs/*/*.test.ts'],
    environment: 'node',
    testTimeout: Number(process.env.LAB_TIME_LIMIT_MS ?? 2000),
    hookTimeout: Number(process.env.LAB_TIME_LIMIT_MS ?? 2000),
    runner: resolve(import.meta.dirname, 'grade-runner.ts'),
    setupFiles: [resolve(import.meta.dirname, 'sandbox-setup.ts')],
    // What learner code leaves unhandled (a rejected promise nobody awaits) changes no test's
    // result; the page ignores it too, so both hosts give the same verdict.
    dangerouslyIgnoreUnhandledErrors: true,
    // The resolved `@lab/submission` must never come from a cached transform (GRADING-NOTES).
    fsModuleCache: false,
    cache: false,
    watch: false,
    maxWorkers: 1,
    bail: 0,
  },
});
