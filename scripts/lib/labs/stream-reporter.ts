// A vitest reporter for the grading child process: streams each test's start and result to the
// parent over the IPC channel, so the parent's watchdog knows which test is running when a
// submission hangs (a synchronous infinite loop blocks vitest itself; only the parent can act).
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { TestResult } from './results.ts';

export type ChildMessage =
  | { type: 'ready'; name: string }
  | { type: 'result'; test: TestResult }
  | { type: 'end'; errors: string[] };

function send(message: ChildMessage): void {
  process.send?.(message);
}

function nameOf(test: TestCase): string {
  return test.fullName;
}

const text = (v: unknown): string | undefined => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v));

export function toResult(test: TestCase): TestResult {
  const result = test.result();
  const durationMs = Math.round(test.diagnostic()?.duration ?? 0);
  const name = nameOf(test);
  if (result.state === 'passed') return { name, status: 'pass', durationMs };
  if (result.state === 'skipped' || result.state === 'pending') return { name, status: 'skip', durationMs, message: 'skipped' };
  const error = result.errors?.[0];
  const message = error?.message ?? 'failed';
  const expected = text(error?.expected);
  const actual = text(error?.actual);
  return {
    name,
    status: /^Test timed out in \d+ms/.test(message) ? 'timeout' : 'fail',
    message,
    ...(expected !== undefined ? { expected } : {}),
    ...(actual !== undefined ? { actual } : {}),
    durationMs,
  };
}

export default class StreamReporter implements Reporter {
  onTestCaseReady(test: TestCase): void {
    send({ type: 'ready', name: nameOf(test) });
  }

  onTestCaseResult(test: TestCase): void {
    send({ type: 'result', test: toResult(test) });
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string }>): void {
    const errors = [
      ...modules.flatMap((m) => m.errors().map((e) => `${e.name ?? 'Error'}: ${e.message}`)),
      ...unhandled.map((e) => `unhandled error: ${e.message ?? String(e)}`),
    ];
    send({ type: 'end', errors });
  }
}
