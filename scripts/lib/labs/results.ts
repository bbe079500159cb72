// The results JSON of one grading run: the one shape the CLI prints (`grade --json`), the
// browser workbench shows, and both compare test for test. Browser-safe (no Node APIs).
//
// {
//   lab: "replicaset-reconcile",            // the lab slug
//   file: "workspace/replicaset-reconcile.ts", // what was graded (a path, or a label in the browser)
//   passed: true,                          // exactly the names in tests.json ran, and all passed
//   tests: [{ name: "describe > it",      // vitest's full name, parts joined by " > "
//             status: "pass" | "fail" | "timeout" | "skip",
//             message?, expected?, actual?, // failure message, and the two sides of a failed comparison
//             durationMs }],
//   summary: { passed, failed, total },    // failed counts fail and timeout; skip counts in neither;
//                                          // total counts every listed test (passed + failed + skipped)
//   expectedTotal: 78,                     // how many tests tests.json lists for this suite
//   error?: "..."                          // a run-level problem (module did not load, names differ...)
// }

export type TestStatus = 'pass' | 'fail' | 'timeout' | 'skip';

export interface TestResult {
  /** Full name: the describe blocks and the test name joined by " > ". */
  name: string;
  status: TestStatus;
  /** Why it failed or was skipped, written for the learner. */
  message?: string;
  /** For a failed comparison: what the suite expected, printed as text. */
  expected?: string;
  /** For a failed comparison: what the submission produced, printed as text. */
  actual?: string;
  durationMs: number;
}

export interface LabResults {
  lab: string;
  file: string;
  passed: boolean;
  tests: TestResult[];
  summary: { passed: number; failed: number; total: number };
  expectedTotal: number;
  error?: string;
}

/**
 * Builds the final results from what ran and the names that should have run.
 * Tests listed in `expectedNames` that never reported are added as 'skip' so the list is complete;
 * names that ran but are not expected make the run fail (a suite or a submission changed the set).
 */
export function finalizeResults(lab: string, file: string, expectedNames: readonly string[], ran: readonly TestResult[], error?: string): LabResults {
  const byName = new Map(ran.map((t) => [t.name, t]));
  const tests: TestResult[] = [...ran];
  for (const name of expectedNames) {
    if (!byName.has(name)) tests.push({ name, status: 'skip', message: 'did not run', durationMs: 0 });
  }
  const order = new Map(expectedNames.map((n, i) => [n, i]));
  tests.sort((a, b) => (order.get(a.name) ?? Infinity) - (order.get(b.name) ?? Infinity));
  const expected = new Set(expectedNames);
  const unexpected = ran.filter((t) => !expected.has(t.name)).map((t) => t.name);
  // Every listed test either reported or is explained: a test that silently did not run would make
  // the summary read as if the whole suite had run.
  const silent = error === undefined ? expectedNames.filter((name) => !byName.has(name)) : [];
  const problems = [
    error,
    unexpected.length ? `tests not in tests.json ran: ${unexpected.join('; ')}` : undefined,
    silent.length ? `${silent.length} of the ${expectedNames.length} tests reported no result (first: ${silent[0]})` : undefined,
  ].filter(Boolean);
  const passed = tests.filter((t) => t.status === 'pass').length;
  const failed = tests.filter((t) => t.status === 'fail' || t.status === 'timeout').length;
  const allExpectedPassed = expectedNames.every((n) => byName.get(n)?.status === 'pass');
  return {
    lab,
    file,
    passed: problems.length === 0 && allExpectedPassed && ran.length === expectedNames.length,
    tests,
    summary: { passed, failed, total: tests.length },
    expectedTotal: expectedNames.length,
    ...(problems.length ? { error: problems.join('\n') } : {}),
  };
}
