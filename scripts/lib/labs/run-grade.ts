// Runs one lab suite against one file in a child vitest process, with a watchdog (Node only).
// - Each test gets timeLimitMs (vitest's own timeout catches never-resolving promises).
// - A synchronous infinite loop blocks vitest itself: when a started test has not reported within
//   timeLimitMs + GRACE_MS, the child is killed, that test is reported as 'timeout', and the suite
//   runs again skipping every test already graded, until all tests have a result.
// - An outer wall-clock limit (startup budget + per-test limit x test count) bounds the whole run.
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

function readLastLine(file: string): string {
  if (!existsSync(file)) return '';
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  return lines[lines.length - 1] ?? '';
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
      const line = readLastLine(progressFile);
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
      if (message.type === 'result' && !skip.includes(message.test.name)) attempt.results.push(message.test);
      else if (message.type === 'end') attempt.errors.push(...message.errors);
    });
    const finish = () => {
      clearInterval(watchdog);
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
  const deadline = Date.now() + STARTUP_BUDGET_MS + (lab.meta.timeLimitMs + GRACE_MS) * Math.max(1, expectedNames.length);
  const results: TestResult[] = [];
  const errors: string[] = [];
  for (let round = 0; round <= expectedNames.length; round++) {
    const done = results.map((r) => r.name);
    // Results reported before a hang may be lost in vitest's batching: those tests simply run again.
    const attempt = await runOnce(opts, done, deadline);
    results.push(...attempt.results);
    if (attempt.hung) {
      results.push({
        name: attempt.hung,
        status: 'timeout',
        message: `did not finish within ${lab.meta.timeLimitMs} ms and was stopped: look for a loop that never ends`,
        durationMs: lab.meta.timeLimitMs,
      });
      if (Date.now() < deadline) continue;
      errors.push('grading stopped at its wall-clock limit');
      break;
    }
    errors.push(...attempt.errors);
    if (attempt.results.length === 0 && results.length === 0 && errors.length === 0) {
      errors.push(`no test ran. vitest said:\n${attempt.stderr.trim() || '(nothing)'}`);
    }
    break;
  }
  return finalizeResults(lab.slug, opts.fileLabel, expectedNames, results, errors.length ? errors.join('\n') : undefined);
}
