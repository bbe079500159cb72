// Resolves the fixed specifier `@lab/submission` for lab suites run by vitest in Node.
// - LAB_SUBMISSION=<absolute path> (set by scripts/grade.ts): the file being graded.
// - otherwise: the solution.ts beside the importing suite, so `vitest --project labs` checks
//   that every reference solution passes its own suites.
// The browser build maps the same specifier to a virtual module instead (site side).
import { dirname, join, resolve } from 'node:path';
import type { Plugin } from 'vite';

export const SUBMISSION_SPECIFIER = '@lab/submission';

export function labSubmissionPlugin(): Plugin {
  return {
    name: 'lab-submission',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== SUBMISSION_SPECIFIER) return null;
      const chosen = process.env.LAB_SUBMISSION;
      if (chosen) return resolve(chosen);
      if (!importer) return null;
      return join(dirname(importer), 'solution.ts');
    },
  };
}
