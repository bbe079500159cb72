// What the CLI's `@lab/submission` module calls (submission-plugin.ts generates it with the
// learner's source inlined): compile and evaluate the learner's TypeScript in an SES Compartment,
// the page's sandbox (site/lib/grading/worker/sandbox.ts), and return the exports it declares.
import { loadLearnerModule } from '../../../site/lib/grading/worker/sandbox.ts';

export function loadSubmission(source: string): Readonly<Record<string, unknown>> {
  return loadLearnerModule(source, { log: (line) => console.log('[learner]', line) }).exports;
}
