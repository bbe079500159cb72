// Runs one bundled lab suite on the real vitest runtime inside the worker, the way vitest's browser
// mode does (TestRunner from 'vitest', startTests/setupCommonEnv from 'vitest/internal/browser'),
// streaming each test's start and result. These are internal APIs: vitest is pinned to 5.1.2.
import { TestRunner } from 'vitest';
import type { RunnerTestCase, SerializedConfig } from 'vitest';
import { setupCommonEnv, startTests } from 'vitest/internal/browser';
import type { TestResult } from '../results.ts';
import { createLabConfig, installWorkerState, setCurrentFile } from './worker-state.ts';
import { guardedTrace } from './runner-guard.ts';
import { fullTestName, toTestResult } from './test-report.ts';

export interface SuiteHooks {
  /** Imports the bundled suite module (it registers its describe/it blocks as it loads). */
  importSuite(): Promise<void>;
  /** Names reported by an earlier worker of this run: skipped without a report. */
  skipNames: ReadonlySet<string>;
  onTestStart(name: string): void;
  onTestEnd(result: TestResult): void;
}

let config: SerializedConfig | undefined;

/** Installs the worker state and vitest's common environment; once per worker, before lockdown. */
export async function prepareVitest(): Promise<void> {
  config = createLabConfig(2000);
  installWorkerState(config);
  await setupCommonEnv(config);
}

function createRunner(runConfig: SerializedConfig, hooks: SuiteHooks) {
  class LabTestRunner extends TestRunner {
    override importFile = async (): Promise<void> => hooks.importSuite();
    // No OpenTelemetry in the worker: run the traced callback directly (as vitest's defaultTrace);
    // what user code throws reaches vitest as a readable Error (runner-guard.ts, as in the CLI).
    override trace = guardedTrace(
      <T>(_name: string, attributes: Record<string, unknown> | (() => T), callback?: () => T): T => (typeof attributes === 'function' ? attributes() : callback!()),
      () => (this.config as { _diffOptions?: unknown })._diffOptions,
    );

    override async onBeforeRunTask(test: RunnerTestCase): Promise<void> {
      if (hooks.skipNames.has(fullTestName(test))) test.mode = 'skip';
      await super.onBeforeRunTask(test);
      if (test.mode === 'run' || test.mode === 'queued') hooks.onTestStart(fullTestName(test));
    }

    override onAfterRunTask(test: RunnerTestCase): void {
      super.onAfterRunTask(test);
      if (!hooks.skipNames.has(fullTestName(test))) hooks.onTestEnd(toTestResult(test));
    }
  }
  return new LabTestRunner(runConfig);
}

/** Runs the suite; returns a suite-level error (a throw while collecting, a failing hook) if any. */
export async function runSuite(filepath: string, testTimeoutMs: number, hooks: SuiteHooks): Promise<string | undefined> {
  if (!config) throw new Error('invariant: prepareVitest() runs before runSuite()');
  (config as { testTimeout: number }).testTimeout = testTimeoutMs;
  setCurrentFile(filepath);
  const runner = createRunner(config, hooks);
  const [file] = await startTests([filepath], runner);
  const errors = file?.result?.errors ?? [];
  return errors.length > 0 ? errors.map((error) => error.message).join('\n') : undefined;
}
