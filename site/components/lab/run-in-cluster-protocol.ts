// The messages between a lab page and its "Run in cluster" workers (site/workers/cluster.worker.ts).
// As with grading, the page transfers a MessagePort in the first message and talks comlink over it.
// Two workers run at once on the same seed: one with the learner's code, one with the reference.
// Which labs have a scenario, and what a run and a comparison hold, is the lab's own business
// (labs/<slug>/scenario.ts, behind the LabScenario interface of labs/lab-scenario.ts).
import type { LabComparison, LabRun } from '../../../labs/lab-scenario.ts';

export interface ClusterRunRequest {
  slug: string;
  /** The learner's TypeScript; null runs the reference (the built-in component). */
  source: string | null;
  seed: number;
}

/** A run (the lab's own record of it), or why the learner's code could not be plugged in (syntax error, missing export...). */
export type ClusterRunOutcome = { run: LabRun } | { loadError: string };

/** What the page shows: the lab's comparison of the two runs. */
export type ClusterComparison = LabComparison;

export interface ClusterWorkerApi {
  /** Resolves once the realm is locked down (SES), before any learner code is evaluated. */
  ready(): Promise<void>;
  /** Runs the lab's scenario; onProgress is called as it moves on (the page's watchdog re-arms on it). */
  run(request: ClusterRunRequest, onProgress: (what: string) => void): Promise<ClusterRunOutcome>;
  /** Compares a learner run with the reference run of the lab's scenario (done in the reference worker, off the main thread). */
  compare(slug: string, learner: LabRun, reference: LabRun): Promise<ClusterComparison>;
}

export interface ClusterConnectMessage {
  type: 'connect';
  port: MessagePort;
}
