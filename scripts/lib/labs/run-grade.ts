// Runs one lab suite against one file in a child vitest process, with a watchdog (Node only).
// - Each test gets timeLimitMs (vitest's own timeout catches never-resolving promises).
// - The child's runner (grade-runner.ts) appends "start\t<name>" when a test begins and
//   "result\t<json>" when it ends to a progress file, synchronously: results are read from there,
//   so the ones finished before a hang are kept.
// - A synchronous infinite loop blocks vitest itself: when a started test has not reported within
//   timeLimitMs + GRACE_MS, the child is killed, that test is reported as 'timeout', and the suite
//   runs again skipping every test already graded, until all tests have a result.
// - A wall-clock limit per attempt (startup budget + per-test limit x tests left) bounds each run.
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, type Lab } from './catalog.ts';
import { finalizeResults, type LabResults, type TestResult } from './results.ts';
import { SUITE_FILES, type SuiteKind } from './manifest.ts';
import type { ChildMessage } from './stream-reporter.ts';

const GRACE_MS = 1500;
const POLL_MS = 100;
/** Starting vitest and loading the suite, on a busy two-core machine. */
const STARTUP_BUDGET_MS = 60_000;
const VITEST_BIN = join(ROOT, 'node_modules/vitest/vitest.mjs');
const HERE = import.meta.dirname;

export interface GradeOptions {
  lab: Lab;
  /** Absolute path of the file to grade. */
  file: string;
  /** Label printed as `file` in the results. */
  fileLabel: string;
  suite: SuiteKind;
  expectedNames: readonly string[];
}

interface Attempt {
  results: TestResult[];
  /** The test that hung, if the watchdog fired. */
  hung?: string;
  errors: string[];
  stderr: string;
}

/** The last line of the progress file: which test is running, and since when (parent's clock). */
interface Progress {
  line: string;
  sinceMs: number;
}

function readLines(file: string): string[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  // A line is complete once its newline is written; a partial last line is read next time.
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter((line) => line !== '');
}

/** The results a progress file holds, in the order the tests finished. */
function resultsOf(lines: readonly string[]): TestResult[] {
  const results: TestResult[] = [];
  for (const line of lines) {
    if (!line.startsWith('result\t')) continue;
    try {
      results.push(JSON.parse(line.slice('result\t'.length)) as TestResult);
    } catch {
      // a line cut short by a kill: that test runs again
    }
  }
  return results;
}

function runOnce(opts: GradeOptions, skip: readonly string[], deadline: number): Promise<Attempt> {
  const { lab, file, suite } = opts;
  const limitMs = lab.meta.timeLimitMs;
  const progressFile = join(mkdtempSync(join(tmpdir(), 'lab-grade-')), 'progress.txt');
  return new Promise((resolveAttempt) => {
    const child = fork(
      VITEST_BIN,
      ['run', '--config', join(HERE, 'grade.config.ts'), '--reporter', join(HERE, 'stream-reporter.ts'), join(lab.dir, SUITE_FILES[suite])],
      {
        cwd: ROOT,
        execPath: process.execPath,
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        env: {
          ...process.env,
          LAB_SUBMISSION: file,
          LAB_TIME_LIMIT_MS: String(limitMs),
          LAB_SKIP_TESTS: JSON.stringify(skip),
          LAB_PROGRESS_FILE: progressFile,
          NO_COLOR: '1',
          FORCE_COLOR: '0',
        },
      },
    );
    const attempt: Attempt = { results: [], errors: [], stderr: '' };
    const startedMs = Date.now();
    let progress: Progress = { line: '', sinceMs: startedMs };
    const watchdog = setInterval(() => {
      const line = readLines(progressFile).at(-1) ?? '';
      const now = Date.now();
      if (line !== progress.line) progress = { line, sinceMs: now };
      const [state, ...rest] = line.split('\t');
      if (state === 'start' && now - progress.sinceMs > limitMs + GRACE_MS) {
        attempt.hung = rest.join('\t');
        child.kill('SIGKILL');
      } else if (now - progress.sinceMs > STARTUP_BUDGET_MS || now > deadline) {
        attempt.errors.push(
          line === ''
            ? `the suite did not start within ${STARTUP_BUDGET_MS / 1000} s: does the file loop forever when it is loaded?`
            : 'grading stopped at its wall-clock limit',
        );
        child.kill('SIGKILL');
      }
    }, POLL_MS);
    child.stderr?.on('data', (chunk: Buffer) => {
      attempt.stderr = (attempt.stderr + chunk.toString()).slice(-4000);
    });
    child.stdout?.resume();
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'end') attempt.errors.push(...message.errors);
    });
    const finish = () => {
      clearInterval(watchdog);
      attempt.results = resultsOf(readLines(progressFile)).filter((result) => !skip.includes(result.name));
      rmSync(dirname(progressFile), { recursive: true, force: true });
      resolveAttempt(attempt);
    };
    child.on('exit', finish);
    child.on('error', (error) => {
      attempt.errors.push(`could not start vitest: ${error.message}`);
    });
  });
}

/** Grades `opts.file` against the lab's suite and returns the results JSON. */
export async function grade(opts: GradeOptions): Promise<LabResults> {
  const { lab, expectedNames } = opts;
  const results: TestResult[] = [];
  const errors: string[] = [];
  // Every round grades at least the test that hung, so there are at most as many rounds as tests.
  for (let round = 0; round <= expectedNames.length; round++) {
    const done = results.map((r) => r.name);
    // Each attempt starts vitest again (slow on a busy machine): its wall-clock limit is a startup
    // budget plus the time limit of every test it has left.
    const remaining = Math.max(1, expectedNames.length - done.length);
    const deadline = Date.now() + STARTUP_BUDGET_MS + (lab.meta.timeLimitMs + GRACE_MS) * remaining;
    const attempt = await runOnce(opts, done, deadline);
    results.push(...attempt.results);
    if (attempt.hung) {
      results.push({
        name: attempt.hung,
        status: 'timeout',
        message: `did not finish within ${lab.meta.timeLimitMs} ms and was stopped: look for a loop that never ends`,
        durationMs: lab.meta.timeLimitMs,
      });
      continue;
    }
    errors.push(...attempt.errors);
    if (attempt.results.length === 0 && results.length === 0 && errors.length === 0) {
      errors.push(`no test ran. vitest said:\n${attempt.stderr.trim() || '(nothing)'}`);
    }
    break;
  }
  return finalizeResults(lab.slug, opts.fileLabel, expectedNames, results, errors.length ? errors.join('\n') : undefined);
}
