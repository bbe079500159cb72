// The results JSON shape shared by the CLI grader and the browser (the contract is owned by
// scripts/lib/labs/results.ts; this file only re-exports it for the site).
export type TestStatus = 'pass' | 'fail' | 'timeout' | 'skip';

export interface TestResult {
  /** Full name: describe blocks and the test, joined with " > ". */
  name: string;
  status: TestStatus;
  message?: string;
  expected?: string;
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
