// The results JSON shape and verdict rule shared with the CLI grader: owned by
// scripts/lib/labs/results.ts (browser-safe), re-exported here for the site.
export type { LabResults, TestResult, TestStatus } from '../../../scripts/lib/labs/results.ts';
export { finalizeResults } from '../../../scripts/lib/labs/results.ts';
