// Small kubectl helpers shared by the "Run in cluster" scenarios: run a command that must succeed,
// read JSON, and keep a run inside its simulated-time budget.
import type { Cluster } from './cluster.ts';

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

/** How a caller bounds and follows a "Run in cluster" scenario. */
export interface ScenarioOptions {
  /** Simulated time the run may use (each scenario has its own default). */
  budgetMs?: number;
  /** Called as the run moves on (a step done, a pod placed): a page's watchdog re-arms on it. */
  onProgress?: (what: string) => void;
}

/** A limit on the simulated time one scenario may use, so a run that never settles still ends. */
export class SimulatedBudget {
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
