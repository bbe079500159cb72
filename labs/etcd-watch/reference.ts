// The reference the hidden suite's batch property compares each syncWatchers pass with: the lab's
// own solution (the CLI and the browser both grade against this, whatever file is being graded).
export * as reference from './solution.ts';
