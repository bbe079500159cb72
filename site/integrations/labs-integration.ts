// Astro integration for the lab workbench. It gives Vite what the browser side of grading needs:
// - `virtual:lab-suites`: per lab, lazy loaders for its hidden and example suites, bundled into the
//   grading worker at build time;
// - `@lab/submission` (the fixed specifier the suites import): per lab, a generated module that
//   re-exports the learner's compiled exports from the worker's registry;
// - `virtual:lab-types`: the runtime's public type sources, loaded into Monaco as extra libs;
// - worker bundles as single-file ES modules with function names kept (vitest infers stack frames by name);
// - after the build, removes the render-blocking <link> Astro puts in <head> for the lazily loaded
//   Monaco CSS (Vite still loads that CSS with the lazy chunk).
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';
import { fileURLToPath } from 'node:url';
import { collectTypeFiles, listLabs, submissionModuleCode } from './labs-sources.ts';
import { removeLazyCssLinks } from './lazy-css.ts';

const SUITES_ID = 'virtual:lab-suites';
const TYPES_ID = 'virtual:lab-types';
const SUBMISSION_SPECIFIER = '@lab/submission';
const SUBMISSION_PREFIX = '\0lab-submission:';

export function labsVitePlugin(root: string): Plugin {
  return {
    name: 'icp-labs',
    resolveId(id, importer) {
      if (id === SUITES_ID || id === TYPES_ID) return `\0${id}`;
      if (id !== SUBMISSION_SPECIFIER) return undefined;
      const slug = importer?.match(/\/labs\/([^/]+)\//)?.[1];
      if (!slug) this.error(`${SUBMISSION_SPECIFIER} may only be imported by a suite in labs/<slug>/ (imported from ${importer})`);
      return `${SUBMISSION_PREFIX}${slug}`;
    },
    load(id) {
      if (id === `\0${SUITES_ID}`) return suitesModuleCode(root);
      if (id === `\0${TYPES_ID}`) return `export const labTypeFiles = ${JSON.stringify(collectTypeFiles(root))};`;
      if (id.startsWith(SUBMISSION_PREFIX)) return submissionModuleCode(root, id.slice(SUBMISSION_PREFIX.length));
      return undefined;
    },
  };
}

function suitesModuleCode(root: string): string {
  const entries = listLabs(root).map(
    ({ slug, dir }) =>
      `${JSON.stringify(slug)}: { hidden: () => import(${JSON.stringify(`${dir}/hidden.test.ts`)}), examples: () => import(${JSON.stringify(`${dir}/examples.test.ts`)}) }`,
  );
  return `export const labSuites = {\n${entries.join(',\n')}\n};`;
}

export default function labsIntegration(): AstroIntegration {
  let root = process.cwd();
  return {
    name: 'icp-labs',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        root = fileURLToPath(config.root).replace(/\/$/, '');
        updateConfig({
          vite: {
            plugins: [labsVitePlugin(root)],
            worker: {
              format: 'es',
              plugins: () => [labsVitePlugin(root)],
              // One file per worker: the lab suites are bundled into the grading worker (still evaluated
              // only when a run imports them), so a spare worker has them fetched and parsed before
              // the click and a run makes no request.
              rolldownOptions: { output: { keepNames: true, codeSplitting: false } },
            },
          },
        });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const removed = await removeLazyCssLinks(fileURLToPath(dir));
        if (removed > 0) logger.info(`removed ${removed} render-blocking link(s) to lazily loaded editor CSS`);
      },
    },
  };
}
