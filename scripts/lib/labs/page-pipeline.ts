// The page's grading pipeline booted in Node, shared by the tamper suite's page host (page-host.ts)
// and the watcher's waiting host (warm-host.ts): the module hooks that serve `@lab/submission` from
// the sandbox's registry (page-host-hooks.ts), then, in the grading worker's order, vitest's browser
// runtime (vitest-host.ts) and SES lockdown. Returns the worker's gradeSubmission and the lab's
// suites imported from labs/ instead of bundled.
import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, type Lab } from './catalog.ts';

export async function bootPagePipeline(lab: Lab) {
  register(pathToFileURL(join(import.meta.dirname, 'page-host-hooks.ts')), {
    parentURL: import.meta.url,
    data: { registryUrl: pathToFileURL(join(ROOT, 'site/lib/grading/worker/submission-registry.ts')).href, exports: lab.meta.exports },
  });
  // Imported after the hooks are registered.
  const { prepareVitest } = await import('../../../site/lib/grading/worker/vitest-host.ts');
  const { lockdownOnce } = await import('../../../site/lib/grading/worker/sandbox.ts');
  const { gradeSubmission } = await import('../../../site/lib/grading/worker/grade-submission.ts');
  const { PhaseLog } = await import('../../../site/lib/grading/timing.ts');
  await prepareVitest();
  lockdownOnce();
  const suites = {
    hidden: () => import(pathToFileURL(join(lab.dir, 'hidden.test.ts')).href),
    examples: () => import(pathToFileURL(join(lab.dir, 'examples.test.ts')).href),
  };
  return { gradeSubmission, PhaseLog, suites };
}
