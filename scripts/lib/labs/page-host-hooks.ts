// Module hooks of the Node page host (page-host.ts): resolve `@lab/submission`, imported by a lab
// suite, to a module that re-exports the learner's exports from the sandbox's registry, as the
// page's generated module does (site/integrations/labs-sources.ts submissionModuleCode).
import type { ResolveHook } from 'node:module';

interface HookData {
  /** file: URL of site/lib/grading/worker/submission-registry.ts */
  registryUrl: string;
  exports: string[];
}

let data: HookData;

export function initialize(init: HookData): void {
  data = init;
}

export const resolve: ResolveHook = (specifier, context, next) => {
  if (specifier !== '@lab/submission') return next(specifier, context);
  const lines = [`import { getSubmissionExports } from ${JSON.stringify(data.registryUrl)};`, 'const submission = getSubmissionExports();'];
  for (const name of data.exports) lines.push(`export const ${name} = submission[${JSON.stringify(name)}];`);
  return { url: `data:text/javascript,${encodeURIComponent(lines.join('\n'))}`, shortCircuit: true };
};
