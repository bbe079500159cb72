// The verdict rule shared with the CLI: a lab is passed only when exactly the expected tests
// (tests.json) ran, each once, and all passed. A suite that stopped early, a renamed test or an
// extra test the learner's code somehow registered all make it fail.
import type { LabResults, TestResult } from './results.ts';

export function missingTests(expectedNames: readonly string[], tests: readonly TestResult[]): string[] {
  const ran = new Set(tests.map((test) => test.name));
  return expectedNames.filter((name) => !ran.has(name));
}

export function buildLabResults(
  lab: string,
  file: string,
  expectedNames: readonly string[],
  tests: readonly TestResult[],
  error?: string,
): LabResults {
  const passedCount = tests.filter((test) => test.status === 'pass').length;
  const failedCount = tests.filter((test) => test.status === 'fail' || test.status === 'timeout').length;
  const names = tests.map((test) => test.name);
  const exactlyExpected =
    names.length === expectedNames.length && new Set(names).size === names.length && missingTests(expectedNames, tests).length === 0;
  const results: LabResults = {
    lab,
    file,
    passed: error === undefined && exactlyExpected && passedCount === expectedNames.length,
    tests: [...tests],
    summary: { passed: passedCount, failed: failedCount, total: tests.length },
    expectedTotal: expectedNames.length,
  };
  if (error !== undefined) results.error = error;
  return results;
}
