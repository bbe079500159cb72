// Resolves the fixed specifier `@lab/submission` for lab suites run by vitest in Node.
// - LAB_SUBMISSION=<absolute path> (set by scripts/grade.ts for a grading run): a generated module
//   that evaluates that file's source in an SES Compartment (submission-module.ts, the page's
//   sandbox) and exports the names the lab declares (lab.mdx `exports`), as the page's generated
//   module does (site/integrations/labs-sources.ts). The learner's file is never imported as a
//   module of the vitest worker, so it cannot import vitest or reach the process.
// - otherwise: the solution.ts beside the importing suite, imported directly, so the `labs` vitest
//   project checks that every reference solution passes its own suites.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { loadLab } from './catalog.ts';

export const SUBMISSION_SPECIFIER = '@lab/submission';
const VIRTUAL_PREFIX = '\0lab-submission:';
const LOADER = resolve(import.meta.dirname, 'submission-module.ts');

export function labSubmissionPlugin(): Plugin {
  return {
    name: 'lab-submission',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== SUBMISSION_SPECIFIER) return null;
      if (!process.env.LAB_SUBMISSION) return importer ? join(dirname(importer), 'solution.ts') : null;
      const slug = importer?.match(/\/labs\/([^/]+)\/[^/]+$/)?.[1];
      if (!slug) this.error(`${SUBMISSION_SPECIFIER} may only be imported by a suite in labs/<slug>/ (imported from ${importer})`);
      return `${VIRTUAL_PREFIX}${slug}`;
    },
    load(id) {
      if (!id.startsWith(VIRTUAL_PREFIX)) return null;
      const lab = loadLab(id.slice(VIRTUAL_PREFIX.length));
      const source = readFileSync(resolve(process.env.LAB_SUBMISSION!), 'utf8');
      const lines = [`import { loadSubmission } from ${JSON.stringify(LOADER)};`, `const submission = loadSubmission(${JSON.stringify(source)});`];
      for (const name of lab.meta.exports) lines.push(`export const ${name} = submission[${JSON.stringify(name)}];`);
      return lines.join('\n');
    },
  };
}
