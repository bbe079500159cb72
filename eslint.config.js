// @ts-check
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.astro/', 'workspace/', 'test-results/', 'bench-results/', 'site/env.d.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Determinism: the runtime reads time and randomness only from the simulation kernel.
    files: ['runtime/**/*.ts'],
    ignores: ['runtime/**/*.test.ts', 'runtime/**/*.bench.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use the kernel timers (runtime/kernel).' },
        { name: 'setInterval', message: 'Use the kernel timers (runtime/kernel).' },
        { name: 'queueMicrotask', message: 'Use the kernel event queue (runtime/kernel).' },
        { name: 'performance', message: 'Use the kernel clock (runtime/kernel).' },
        { name: 'Date', message: 'Use the kernel clock (runtime/kernel).' },
        { name: 'window', message: 'The runtime has no DOM.' },
        { name: 'document', message: 'The runtime has no DOM.' },
        { name: 'process', message: 'The runtime has no Node built-ins.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the kernel seeded RNG (runtime/kernel).' },
      ],
      'no-restricted-imports': ['error', { patterns: ['node:*', 'fs', 'path', 'os', 'crypto', 'events', 'util'] }],
    },
  },
);
