import { describe, expect, it } from 'vitest';
import type { TestResult } from './results.ts';
import { buildLabResults, missingTests } from './verdict.ts';

const pass = (name: string): TestResult => ({ name, status: 'pass', durationMs: 1 });
const fail = (name: string): TestResult => ({ name, status: 'fail', message: 'nope', durationMs: 1 });
const timeout = (name: string): TestResult => ({ name, status: 'timeout', durationMs: 2500 });
const expected = ['a > one', 'a > two'];

describe('buildLabResults', () => {
  const cases: { name: string; tests: TestResult[]; error?: string; passed: boolean; summary: [number, number, number] }[] = [
    { name: 'exactly the expected tests, all passing', tests: [pass('a > one'), pass('a > two')], passed: true, summary: [2, 0, 2] },
    { name: 'one failure', tests: [pass('a > one'), fail('a > two')], passed: false, summary: [1, 1, 2] },
    { name: 'a timeout counts as failed', tests: [pass('a > one'), timeout('a > two')], passed: false, summary: [1, 1, 2] },
    { name: 'a test missing (suite stopped early)', tests: [pass('a > one')], passed: false, summary: [1, 0, 1] },
    { name: 'an unexpected extra test', tests: [pass('a > one'), pass('a > two'), pass('a > three')], passed: false, summary: [3, 0, 3] },
    { name: 'a renamed test', tests: [pass('a > one'), pass('a > 2')], passed: false, summary: [2, 0, 2] },
    { name: 'a test reported twice', tests: [pass('a > one'), pass('a > one')], passed: false, summary: [2, 0, 2] },
    { name: 'a suite-level error', tests: [pass('a > one'), pass('a > two')], error: 'hook failed', passed: false, summary: [2, 0, 2] },
    { name: 'skipped tests do not count as passed', tests: [pass('a > one'), { name: 'a > two', status: 'skip', durationMs: 0 }], passed: false, summary: [1, 0, 2] },
  ];
  it.each(cases)('$name', ({ tests, error, passed, summary }) => {
    const results = buildLabResults('lab', 'labs/lab/hidden.test.ts', expected, tests, error);
    expect(results.passed).toBe(passed);
    expect([results.summary.passed, results.summary.failed, results.summary.total]).toEqual(summary);
    expect(results.expectedTotal).toBe(2);
    expect(results.error).toBe(error);
  });
});

describe('missingTests', () => {
  it('lists expected names that did not run, in order', () => {
    expect(missingTests(['x', 'y', 'z'], [pass('y')])).toEqual(['x', 'z']);
  });
});
