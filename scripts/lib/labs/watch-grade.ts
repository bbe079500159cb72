// `npm run grade -- <slug> --watch [--file F] [--examples]`: grades the file now and again on every
// save, as Rustlings does. A booted grading process (warm-host.ts: the page's pipeline in Node, whose
// verdicts the tamper suite checks against the CLI's test for test) always waits for the next save,
// so a regrade costs only the grade itself. A learner's loop that never ends is caught by a
// watchdog: the hung test is reported as timed out, the tests after it as not run (feedback now,
// not after a rerun per hung test; `npm run grade` without --watch grades every test). If the
// host cannot start at all, the save is graded by the one-shot grader (run-grade.ts).
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Lab } from './catalog.ts';
import { ROOT } from './catalog.ts';
import { finalizeResults, type LabResults, type TestResult } from './results.ts';
import type { SuiteKind } from './manifest.ts';
import { grade } from './run-grade.ts';
import type { GradeRequest, WarmHostMessage } from './warm-host.ts';

const GRACE_MS = 1500;
/** Loading the suite (and the learner's module) before the first test starts, on a busy machine. */
const LOAD_BUDGET_MS = 15_000;
/** Saves come in bursts (an editor writes, then renames): grade once they settle. */
const SETTLE_MS = 40;

export interface WatchOptions {
  lab: Lab;
  file: string;
  fileLabel: string;
  suite: SuiteKind;
  expectedNames: readonly string[];
  /** Called with each grade's results and how long it took (ms from the save). */
  report(results: LabResults, ms: number): void;
}

interface Spare {
  child: ChildProcess;
  ready: Promise<void>;
}

function bootSpare(slug: string): Spare {
  const child = fork(join(import.meta.dirname, 'warm-host.ts'), [slug], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  child.stderr?.resume();
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (m: WarmHostMessage) => m.type === 'ready' && resolve());
    child.once('exit', (code) => reject(new Error(`the grading process exited (${code}) before it was ready`)));
  });
  ready.catch(() => {});
  return { child, ready };
}

/** One grade on a booted host; a test that never ends is stopped by the watchdog and reported as timed out. */
function gradeOnSpare(spare: Spare, request: GradeRequest): Promise<{ tests: TestResult[]; error?: string }> {
  return new Promise((resolve) => {
    const tests: TestResult[] = [];
    let current: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms = request.testTimeoutMs + GRACE_MS) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        spare.child.kill('SIGKILL');
        const limit = request.testTimeoutMs;
        if (current !== undefined) tests.push({ name: current, status: 'timeout', message: `did not finish within ${limit} ms and was stopped: look for a loop that never ends`, durationMs: limit });
        resolve({ tests, error: `${current === undefined ? 'Your code' : 'A test'} did not finish within ${limit} ms: the tests after it did not run (npm run grade without --watch runs every one).` });
      }, ms);
    };
    spare.child.on('message', (m: WarmHostMessage) => {
      if (m.type === 'start') {
        current = m.name;
        arm();
      } else if (m.type === 'test') {
        current = undefined;
        tests.push(m.result);
        arm();
      } else if (m.type === 'done') {
        clearTimeout(timer);
        resolve(m.error === undefined ? { tests } : { tests, error: m.error });
      }
    });
    spare.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ tests, error: `the grading process stopped (exit code ${code}) before the suite ended` });
    });
    arm(Math.max(LOAD_BUDGET_MS, request.testTimeoutMs + GRACE_MS));
    spare.child.send(request);
  });
}

/** Grades now and on every change of opts.file until the process is stopped. */
export function watchGrade(opts: WatchOptions): { close(): void } {
  const { lab } = opts;
  let spare = bootSpare(lab.slug);
  let running = false;
  let again = false;
  let settle: NodeJS.Timeout | undefined;
  let closed = false;

  const gradeNow = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    const started = performance.now();
    try {
      const source = existsSync(opts.file) ? readFileSync(opts.file, 'utf8') : undefined;
      if (source === undefined) return;
      const host = spare;
      let results: LabResults;
      const ready = await host.ready.then(() => true, () => false);
      const run = ready ? await gradeOnSpare(host, { source, suite: opts.suite, testTimeoutMs: lab.meta.timeLimitMs }) : undefined;
      host.child.kill();
      // The next host boots after this grade, not during it: on two cores they would slow each other.
      spare = bootSpare(lab.slug);
      if (run) results = finalizeResults(lab.slug, opts.fileLabel, opts.expectedNames, run.tests, run.error);
      else results = await grade({ lab, file: opts.file, fileLabel: opts.fileLabel, suite: opts.suite, expectedNames: opts.expectedNames });
      if (!closed) opts.report(results, performance.now() - started);
    } finally {
      running = false;
      if (again && !closed) {
        again = false;
        void gradeNow();
      }
    }
  };

  // The folder, not the file: editors that save by writing a new file and renaming it over the old
  // one would leave a watch on the old file silent.
  const name = basename(opts.file);
  const watcher = watch(dirname(opts.file), (_event, changed) => {
    if (changed !== null && changed !== name) return;
    clearTimeout(settle);
    settle = setTimeout(() => void gradeNow(), SETTLE_MS);
  });
  void gradeNow();
  return {
    close() {
      closed = true;
      clearTimeout(settle);
      watcher.close();
      spare.child.kill();
    },
  };
}
