// "Run in cluster" as a lab plug-in. A lab whose piece plugs into a live cluster adds
// labs/<slug>/scenario.ts, whose default export is a LabScenario: which cluster to build, how the
// learner's exports plug into it, the scripted story, and how a learner's run compares with the
// reference run. Everything a lab knows lives in its folder; the runtime offers only the plug-in
// points (ClusterOptions.plugins, and the guards of runtime/cluster/learner-pieces.ts that wrap a
// learner's function for them). The site finds scenarios by file name (an import.meta.glob over
// labs/*/scenario.ts), so a lab without one simply has no "Run in cluster" button.
// This file also holds the generic runner (runScenario, compareWithReference) used by the site's
// cluster worker and by the labs' scenario tests, and two kubectl helpers for stories.
import { createCluster, describeThrown, LearnerFaults, type Cluster, type ClusterOptions } from '../runtime/index.ts';

/** The learner module's exports, as evaluated (in the page's sandbox, or imported in a test). */
export type LearnerExports = Readonly<Record<string, unknown>>;

/** What every run record has: what stopped the run early (the learner's code, a budget), if anything. */
export interface LabRun {
  error?: string;
}

/** What a story may do besides driving the cluster. */
export interface StoryContext {
  seed: number;
  /** Advances simulated time, within the run's budget: throws once the budget is used up. */
  advance(ms: number): Promise<void>;
  /** Throws the first fault the learner's code caused, so the story stops at the next check. */
  checkFaults(): void;
  /** Reports progress ("step 2: scaled down to 3", "pod-04 placed"): the page's watchdog re-arms on it. */
  progress(what: string): void;
}

/**
 * One lab's "Run in cluster": the same story on two clusters with the same seed, one with the
 * learner's piece plugged in and one with the built-in component (the reference), then a
 * comparison naming the first difference. The default export of labs/<slug>/scenario.ts.
 * Runs and comparisons cross worker boundaries: keep them plain data (structured-cloneable).
 */
export interface LabScenario<Run extends LabRun = LabRun> {
  /** The learner exports the scenario plugs in; each must be a function (a subset of lab.mdx's exports). */
  readonly exports: readonly string[];
  /** Simulated time one run may use before it is stopped. */
  readonly budgetMs: number;
  /** A file in the lab's mutants/ whose mistake this scenario shows (the labs browser suite runs it). */
  readonly visibleMutant?: string;
  /** The cluster both runs start from; the reference run uses it as it is. */
  cluster(seed: number): ClusterOptions;
  /**
   * Plugs the learner's exports in: options laid over cluster(seed), usually `plugins` (and a
   * `scheduler` configuration that enables a plugged-in scheduler plugin). Wrap each learner
   * function in the runtime's guards (guardReplicaSetReconciler, guardScorePlugin...) so that a
   * throw or a malformed answer becomes a LearnerCodeError recorded in `faults`.
   */
  plug(learner: LearnerExports, faults: LearnerFaults): Partial<ClusterOptions>;
  /** An empty record of a run: the story fills it in, and it is kept when the run stops early. */
  start(seed: number): Run;
  /** The scripted story: kubectl, faults and time on the cluster, writing what happened into `run`. */
  story(cluster: Cluster, run: Run, context: StoryContext): Promise<void>;
  /** Reads what a run ends with into `run`; also called after the story stopped early. */
  finish?(cluster: Cluster, run: Run): Promise<void>;
  /** Compares a learner run with the reference run: the first difference, and what the page shows. */
  compare(learner: Run, reference: Run): LabComparison;
}

/** A comparison, ready to show. Rendered as text by the lab page (never parsed as HTML). */
export interface LabComparison {
  /** One sentence for the page's status line; it contains "differ" when the runs differ. */
  summary: string;
  /** The first difference, in the lab's terms ("step 4: scaled down to 2", "pod-01"); absent when the runs agree. */
  firstDifference?: string;
  /** What stopped the learner's run early, if anything (shown above the report). */
  learnerError?: string;
  /** What the page shows, in order. Mark differences with "≠" in the text too, not only with `differs`. */
  report: ReportBlock[];
}

/** A row of a table; `differs` highlights it. The first cell is the row's header. */
export interface ReportRow {
  cells: string[];
  differs?: boolean;
}

/** The vocabulary of a report: small text-only blocks the page renders with its own styles. */
export type ReportBlock =
  | { kind: 'note'; text: string }
  | { kind: 'pre'; text: string }
  | { kind: 'table'; caption: string; head: string[]; rows: ReportRow[] }
  /** Side by side (your code, the reference), each with a caption. */
  | { kind: 'sides'; sides: { title: string; blocks: ReportBlock[] }[] }
  /** A numbered list of steps, each titled and badged "same as" or "differs from the reference". */
  | { kind: 'steps'; steps: { title: string; differs: boolean; blocks: ReportBlock[] }[] }
  /** A titled group. */
  | { kind: 'section'; title: string; blocks: ReportBlock[] }
  /** A collapsible group, open when `open`. */
  | { kind: 'details'; summary: string; open?: boolean; blocks: ReportBlock[] };

export interface RunOptions {
  /** Simulated time the run may use (default: the scenario's budgetMs). */
  budgetMs?: number;
  onProgress?: (what: string) => void;
}

/**
 * Runs the scenario with the learner's exports plugged in, or the reference when `learner` is
 * undefined. Never throws: a fault of the learner's code, an API failure or a used-up budget ends
 * the run with `error` set and what was recorded until then.
 */
export async function runScenario<Run extends LabRun>(
  scenario: LabScenario<Run>,
  learner: LearnerExports | undefined,
  seed = 1,
  { budgetMs = scenario.budgetMs, onProgress }: RunOptions = {},
): Promise<Run> {
  const faults = new LearnerFaults();
  const run = scenario.start(seed);
  let cluster: Cluster | undefined;
  try {
    cluster = createCluster({ ...scenario.cluster(seed), ...(learner ? scenario.plug(learner, faults) : {}) });
    const budget = new SimulatedBudget(cluster, budgetMs);
    await scenario.story(cluster, run, {
      seed,
      advance: (ms) => budget.advance(ms),
      checkFaults: () => faults.check(),
      progress: (what) => onProgress?.(what),
    });
    faults.check();
    await scenario.finish?.(cluster, run);
  } catch (error) {
    run.error = describeThrown(faults.first ?? error);
    if (cluster) await scenario.finish?.(cluster, run).catch(() => undefined);
  }
  return run;
}

/** The learner's run and the reference run of the same scenario on the same seed, compared. */
export async function compareWithReference<Run extends LabRun>(scenario: LabScenario<Run>, learner: LearnerExports, seed = 1): Promise<LabComparison> {
  return scenario.compare(await runScenario(scenario, learner, seed), await runScenario(scenario, undefined, seed));
}

/** Why the learner's module cannot be plugged in (an export missing or not a function), if it cannot. */
export function missingExports(scenario: LabScenario<LabRun>, exports: LearnerExports): string | undefined {
  const missing = scenario.exports.filter((name) => typeof exports[name] !== 'function');
  if (missing.length === 0) return undefined;
  return `Your code does not export ${missing.map((n) => `a function named ${n}`).join(' and ')}, so nothing could be plugged into the cluster.`;
}

// ---- helpers for stories ----

/** `kubectl <args>` that must succeed; its stdout. */
export async function mustRun(cluster: Cluster, args: string, stdin?: string): Promise<string> {
  const r = await cluster.kubectl(args, stdin === undefined ? {} : { stdin });
  if (r.exitCode !== 0) throw new Error(`kubectl ${args}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** `kubectl <args> -o json`, parsed; undefined when kubectl fails (NotFound, a dead API server). */
export async function kubectlJson<T>(cluster: Cluster, args: string): Promise<T | undefined> {
  const r = await cluster.kubectl(`${args} -o json`);
  return r.exitCode === 0 ? (JSON.parse(r.stdout) as T) : undefined;
}

/** A limit on the simulated time one run may use, so a run that never settles still ends. */
class SimulatedBudget {
  private readonly endMs: number;

  constructor(
    private readonly cluster: Cluster,
    private readonly budgetMs: number,
  ) {
    this.endMs = cluster.now() + budgetMs;
  }

  /** Advances `ms`, or throws after running what is left of the budget if that is less. */
  async advance(ms: number): Promise<void> {
    const left = Math.max(0, this.endMs - this.cluster.now());
    await this.cluster.advance(Math.min(ms, left));
    if (ms > left) throw new BudgetExceeded(this.budgetMs);
  }
}

export class BudgetExceeded extends Error {
  override name = 'BudgetExceeded';
  constructor(budgetMs: number) {
    super(`the scenario used up its simulated-time budget of ${Math.round(budgetMs / 1000)} s and was stopped`);
  }
}
