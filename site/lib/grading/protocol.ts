// The messages between a lab page and its grading worker (site/workers/grader.worker.ts).
// The page creates a MessageChannel, transfers one port to the worker, and talks comlink over it;
// the worker's global onmessage is never used, so nothing the learner's code posts is listened to.
import type { TestResult } from './results.ts';
import type { Phase } from './timing.ts';

/** Which suite of a lab to run: the hidden grading suite or the visible examples. */
export type SuiteKind = 'hidden' | 'examples';

export interface RunRequest {
  /** Lab slug (folder name in labs/). */
  slug: string;
  suite: SuiteKind;
  /** The learner's TypeScript source, as typed in the editor. */
  source: string;
  /** Vitest's per-test timeout (the lab's timeLimitMs): a never-settling promise fails with its message. */
  testTimeoutMs: number;
  /** Full test names already reported by an earlier worker of the same run: they are skipped here. */
  skipNames: string[];
}

/** What the worker reports while it runs, in order. */
export type RunEvent =
  | { type: 'loading' }
  | { type: 'loaded'; transpileMs: number }
  | { type: 'test-start'; name: string }
  | { type: 'test-end'; result: TestResult };

export interface RunOutcome {
  /** A problem that stopped the suite as a whole (syntax error, a throw at top level...). */
  error?: string;
  /** Where the run's time went inside the worker (compile, evaluate, suite import, tests). */
  phases: Phase[];
}

/** The API the worker exposes through comlink on the transferred port. */
export interface GraderWorkerApi {
  /**
   * Resolves when the runtime (vitest, SES lockdown) is ready: lets a spare worker boot ahead of the
   * click. Resolves with the boot's phases.
   */
  ready(): Promise<Phase[]>;
  run(request: RunRequest, onEvent: (event: RunEvent) => Promise<void> | void): Promise<RunOutcome>;
}

/** The first (and only) message on the worker's global channel: the port to talk comlink over. */
export interface ConnectMessage {
  type: 'connect';
  port: MessagePort;
}
