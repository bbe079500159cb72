// The messages between a lab page and its "Run in cluster" workers (site/workers/cluster.worker.ts).
// As with grading, the page transfers a MessagePort in the first message and talks comlink over it.
// Two workers run at once on the same seed: one with the learner's code, one with the reference.
import type { ReplicaSetComparison, SchedulerComparison, ScenarioRun, SchedulerRun } from '../../../runtime/index.ts';

/** Labs whose piece plugs into a live cluster, and which scenario shows it. */
export const CLUSTER_SCENARIOS = {
  'replicaset-reconcile': 'replicaset',
  'scheduler-scoring': 'scheduler',
} as const satisfies Record<string, ClusterScenario>;

export type ClusterScenario = 'replicaset' | 'scheduler';

export function clusterScenarioOf(slug: string): ClusterScenario | undefined {
  return (CLUSTER_SCENARIOS as Record<string, ClusterScenario>)[slug];
}

export interface ClusterRunRequest {
  slug: string;
  /** The learner's TypeScript; null runs the reference (the built-in component). */
  source: string | null;
  seed: number;
}

export type ClusterRun =
  | { scenario: 'replicaset'; run: ScenarioRun }
  | { scenario: 'scheduler'; run: SchedulerRun };

/** A run, or why the learner's code could not be plugged in (syntax error, missing export...). */
export type ClusterRunOutcome = ClusterRun | { loadError: string };

export type ClusterComparison =
  | { scenario: 'replicaset'; comparison: ReplicaSetComparison }
  | { scenario: 'scheduler'; comparison: SchedulerComparison };

export interface ClusterWorkerApi {
  /** Resolves once the realm is locked down (SES), before any learner code is evaluated. */
  ready(): Promise<void>;
  /** Runs the lab's scenario; onProgress is called as it moves on (the page's watchdog re-arms on it). */
  run(request: ClusterRunRequest, onProgress: (what: string) => void): Promise<ClusterRunOutcome>;
  /** Compares a learner run with the reference run (done in the reference worker, off the main thread). */
  compare(learner: ClusterRun, reference: ClusterRun): Promise<ClusterComparison>;
}

export interface ClusterConnectMessage {
  type: 'connect';
  port: MessagePort;
}
