// The learner's compiled exports, read by the generated `@lab/submission` virtual module
// (site/integrations/labs-integration.ts) when a bundled suite imports it. Filled once per worker,
// before the suite module is imported; a fresh worker per run means it is never stale.
let current: Record<string, unknown> | undefined;

export function setSubmissionExports(exports: Record<string, unknown>): void {
  current = exports;
}

export function getSubmissionExports(): Record<string, unknown> {
  if (!current) throw new Error('invariant: learner exports are registered before the suite is imported');
  return current;
}
