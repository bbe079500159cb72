// A vitest reporter for the grading child process: tells the parent, over the IPC channel, what went
// wrong with the suite as a whole (the learner's module did not load, a suite failed to collect).
// Per-test results do not travel here: the runner (grade-runner.ts) writes each one to the progress
// file as it finishes, which survives a hang.
import type { Reporter, TestModule } from 'vitest/node';

export type ChildMessage = { type: 'end'; errors: string[] };

function send(message: ChildMessage): void {
  process.send?.(message);
}

export default class StreamReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    // A load error of the learner's module is already worded for the learner (sandbox.ts), as in the page.
    const errors = modules.flatMap((m) => m.errors().map((e) => (e.name === 'LearnerLoadError' ? e.message : `${e.name ?? 'Error'}: ${e.message}`)));
    send({ type: 'end', errors });
  }
}
