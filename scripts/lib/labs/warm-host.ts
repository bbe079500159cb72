// A grading process started ahead of time, for `npm run grade -- <slug> --watch` (watch-grade.ts).
// It is the page's grading pipeline in Node, as page-host.ts runs it for the tamper suite: vitest's
// browser runtime (vitest-host.ts), SES lockdown, the sandbox, grade-submission.ts, with the lab's
// suite imported from labs/. Booting all that (and transpiling the runtime the suites import) is most
// of a grade's time, so the watcher keeps one of these booted and waiting: when the learner saves,
// only the grade itself remains. One grade per process: a suite's tests are collected when its
// module is first imported, and a learner's realm must not outlive its grade.
// Protocol (IPC): the child sends { type: 'ready' }; the parent sends one GradeRequest; the child
// sends { type: 'start', name } and { type: 'test', result } per test and { type: 'done', error? }, then exits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunEvent, SuiteKind } from '../../../site/lib/grading/protocol.ts';
import type { TestResult } from '../../../site/lib/grading/results.ts';
import { loadLab } from './catalog.ts';
import { bootPagePipeline } from './page-pipeline.ts';

export interface GradeRequest {
  source: string;
  suite: SuiteKind;
  testTimeoutMs: number;
}

export type WarmHostMessage = { type: 'ready' } | { type: 'start'; name: string } | { type: 'test'; result: TestResult } | { type: 'done'; error?: string };

const send = (message: WarmHostMessage, then?: () => void) => process.send?.(message, undefined, {}, () => then?.());
const slug = process.argv[2]!;
const lab = loadLab(slug);
const { gradeSubmission, PhaseLog, suites } = await bootPagePipeline(lab);
// Transpile and evaluate what the suites import while nobody waits: the runtime's public face, and
// every module the lab's suites name except the learner's and vitest (a suite's own file must be
// imported inside the run, where its tests are collected).
await import('../../../runtime/index.ts');
for (const file of ['hidden.test.ts', 'examples.test.ts']) {
  const source = readFileSync(join(lab.dir, file), 'utf8');
  for (const [, spec] of source.matchAll(/^import\s+(?!type\b)[^'"]*from\s*'([^']+)'/gm)) {
    if (spec === '@lab/submission' || spec === 'vitest' || spec === undefined) continue;
    await import(spec.startsWith('.') ? pathToFileURL(join(lab.dir, spec)).href : spec);
  }
}

process.once('message', (request: GradeRequest) => {
  const onEvent = (event: RunEvent) => {
    if (event.type === 'test-start') send({ type: 'start', name: event.name });
    else if (event.type === 'test-end') send({ type: 'test', result: event.result });
  };
  void gradeSubmission({ slug, suite: request.suite, source: request.source, testTimeoutMs: request.testTimeoutMs, skipNames: [] }, suites, onEvent, new PhaseLog())
    .then(
      (error) => (error === undefined ? { type: 'done' as const } : { type: 'done' as const, error }),
      (thrown: unknown) => ({ type: 'done' as const, error: `the grading host failed: ${String(thrown)}` }),
    )
    .then((done) => send(done, () => process.exit(0)));
});
send({ type: 'ready' });
