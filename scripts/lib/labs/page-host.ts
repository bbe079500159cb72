// The page's grading pipeline run in Node, for the tamper suite (labs/tamper.test.ts): the same
// modules the grading worker runs (vitest's browser runtime set up by vitest-host.ts, SES lockdown,
// the sandbox, grade-submission.ts), with the lab's suite imported from labs/ instead of bundled.
// Usage (through tsx): page-host.ts <slug> <hidden|examples> <file> <timeLimitMs>
// Prints one JSON line: { tests: TestResult[], error?: string }. Timeouts of a hung test are the
// page's watchdog's job (site/lib/grading/client.ts); this host is for submissions that finish.
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunEvent, SuiteKind } from '../../../site/lib/grading/protocol.ts';
import type { TestResult } from '../../../site/lib/grading/results.ts';
import { loadLab, ROOT } from './catalog.ts';

const [slug, suite, file, limit] = process.argv.slice(2) as [string, SuiteKind, string, string];
const lab = loadLab(slug);
register(pathToFileURL(join(import.meta.dirname, 'page-host-hooks.ts')), {
  parentURL: import.meta.url,
  data: { registryUrl: pathToFileURL(join(ROOT, 'site/lib/grading/worker/submission-registry.ts')).href, exports: lab.meta.exports },
});

// Imported after the hooks are registered, in the worker's order: vitest's environment, lockdown.
const { prepareVitest } = await import('../../../site/lib/grading/worker/vitest-host.ts');
const { lockdownOnce } = await import('../../../site/lib/grading/worker/sandbox.ts');
const { gradeSubmission } = await import('../../../site/lib/grading/worker/grade-submission.ts');
const { PhaseLog } = await import('../../../site/lib/grading/timing.ts');
await prepareVitest();
lockdownOnce();

const tests: TestResult[] = [];
const onEvent = (event: RunEvent) => {
  if (event.type === 'test-end') tests.push(event.result);
};
const suites = {
  hidden: () => import(pathToFileURL(join(lab.dir, 'hidden.test.ts')).href),
  examples: () => import(pathToFileURL(join(lab.dir, 'examples.test.ts')).href),
};
const source = readFileSync(resolve(file), 'utf8');
const error = await gradeSubmission({ slug, suite, source, testTimeoutMs: Number(limit), skipNames: [] }, suites, onEvent, new PhaseLog());
process.stdout.write(`${JSON.stringify({ tests, ...(error === undefined ? {} : { error }) })}\n`);
process.exit(0);
