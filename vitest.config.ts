import { defineConfig } from 'vitest/config';

// One vitest run, three projects: the simulated control plane, the labs, and the site's own code.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'runtime',
          include: ['runtime/**/*.test.ts'],
          environment: 'node',
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
