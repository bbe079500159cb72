// The reference the hidden suite's differential test compares the learner's module with: the lab's
// own solution (the CLI and the browser both grade against this, whatever file is being graded).
export * as reference from './solution.ts';
