// Turns a finished vitest task into one entry of the shared results shape. Both grading hosts use
// it (the page's worker runner and the CLI's, scripts/lib/labs/grade-runner.ts), so a test reads
// the same on both. Never throws: whatever the error holds, the entry gets a readable message.
import type { RunnerTestCase } from 'vitest';
import type { TestResult, TestStatus } from '../results.ts';
import { stripAnsi } from '../ansi.ts';
import { describeThrown, truncateText } from './describe-thrown.ts';

/** "describe > nested describe > test", without the file: the names tests.json lists. */
export function fullTestName(test: RunnerTestCase): string {
  const known = (test as { fullTestName?: string }).fullTestName;
  if (known) return known;
  const names: string[] = [test.name];
  let parent = test.suite;
  while (parent && !('filepath' in parent)) {
    names.unshift(parent.name);
    parent = parent.suite;
  }
  return names.join(' > ');
}

// Same mapping as the CLI's reporter (scripts/lib/labs/stream-reporter.ts toResult).
function statusOf(test: RunnerTestCase): TestStatus {
  const state = test.result?.state;
  if (state === 'pass') return 'pass';
  if (state !== 'fail') return 'skip';
  const message: unknown = test.result?.errors?.[0]?.message;
  return typeof message === 'string' && /^Test timed out in \d+ms/.test(message) ? 'timeout' : 'fail';
}

/** Vitest serializes expected/actual for diffs; keep them as plain strings when present. */
function asText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? describeThrown(value));
  } catch {
    text = describeThrown(value);
  }
  return truncateText(stripAnsi(text));
}

export function toTestResult(test: RunnerTestCase): TestResult {
  const result: TestResult = {
    name: fullTestName(test),
    status: statusOf(test),
    durationMs: Math.round(test.result?.duration ?? 0),
  };
  const error = test.result?.errors?.[0];
  if (result.status === 'skip') result.message = 'skipped';
  if (result.status === 'fail' || result.status === 'timeout') {
    const message = (error as { message?: unknown } | undefined)?.message;
    result.message = truncateText(stripAnsi(typeof message === 'string' && message !== '' ? message : error === undefined ? 'failed without an error' : `failed with ${describeThrown(error)}`));
  }
  if ((result.status === 'fail' || result.status === 'timeout') && error) {
    const expected = asText(error.expected);
    const actual = asText(error.actual);
    if (expected !== undefined) result.expected = expected;
    if (actual !== undefined) result.actual = actual;
  }
  return result;
}
