// The page's grading pipeline run in Node, for the tamper suite (labs/tamper.test.ts): the same
// modules the grading worker runs (vitest's browser runtime set up by vitest-host.ts, SES lockdown,
// the sandbox, grade-submission.ts), with the lab's suite imported from labs/ instead of bundled.
// Usage (through tsx): page-host.ts <slug> <hidden|examples> <file> <timeLimitMs>
// Prints one JSON line: { tests: TestResult[], error?: string }. Timeouts of a hung test are the
// page's watchdog's job (site/lib/grading/client.ts); this host is for submissions that finish.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RunEvent, SuiteKind } from '../../../site/lib/grading/protocol.ts';
import type { TestResult } from '../../../site/lib/grading/results.ts';
import { loadLab } from './catalog.ts';
import { bootPagePipeline } from './page-pipeline.ts';

const [slug, suite, file, limit] = process.argv.slice(2) as [string, SuiteKind, string, string];
const lab = loadLab(slug);
const { gradeSubmission, PhaseLog, suites } = await bootPagePipeline(lab);

const tests: TestResult[] = [];
const onEvent = (event: RunEvent) => {
  if (event.type === 'test-end') tests.push(event.result);
};
const source = readFileSync(resolve(file), 'utf8');
const error = await gradeSubmission({ slug, suite, source, testTimeoutMs: Number(limit), skipNames: [] }, suites, onEvent, new PhaseLog());
process.stdout.write(`${JSON.stringify({ tests, ...(error === undefined ? {} : { error }) })}\n`);
process.exit(0);
