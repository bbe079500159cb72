import { defineConfig } from 'vitest/config';
import { labSubmissionPlugin } from './scripts/lib/labs/submission-plugin.ts';

// One vitest run, three projects: the simulated control plane, the labs, and the site's own code.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'runtime',
          include: ['runtime/**/*.test.ts'],
          environment: 'node',
          // simulated time never depends on the machine; only the wall clock of a loaded CI machine
          // does (a 1.6 MB etcdctl argument took 6.9 s on two shared cores): no test fails for that
          testTimeout: 240_000,
        },
      },
      {
        // Lab suites (hidden and examples run against each lab's solution.ts), the lab
        // consistency checks, and the proof that every starter and mutant fails (spawns the
        // grading CLI). `@lab/submission` is resolved by scripts/lib/labs/submission-plugin.ts.
        plugins: [labSubmissionPlugin()],
        test: {
          name: 'labs',
          include: ['labs/**/*.test.ts'],
          exclude: ['labs/*/mutants/**'],
          environment: 'node',
          testTimeout: 240_000,
          maxConcurrency: 2,
          // The suites' resolved `@lab/submission` must never come from a cached transform (GRADING-NOTES).
          fsModuleCache: false,
        },
      },
      {
        test: {
          name: 'site',
          include: ['site/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
    ],
  },
});
