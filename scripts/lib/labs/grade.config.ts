// vitest configuration for one grading run in a child process (scripts/lib/labs/run-grade.ts).
// The graded file comes from LAB_SUBMISSION, the per-test limit from LAB_TIME_LIMIT_MS.
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
    setupFiles: [resolve(import.meta.dirname, 'progress-setup.ts'), resolve(import.meta.dirname, 'harden-setup.ts')],
    // The resolved `@lab/submission` must never come from a cached transform (GRADING-NOTES).
    fsModuleCache: false,
    cache: false,
    watch: false,
    maxWorkers: 1,
    bail: 0,
  },
});
