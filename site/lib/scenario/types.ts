// The scenario format: how a chapter describes a cluster in a prepared state. The same scenario
// drives a build-time transcript (Session.astro: the output a chapter prints is the output the
// simulation printed while the site was built) and a live widget (LiveCluster.astro: the page's
// runtime worker boots it, then hands it to the reader).
import type { ClusterOptions } from '../../../runtime/index.ts';

/** The cluster options a scenario may set (plugins and internals stay with tests and labs). */
export type ScenarioCluster = Pick<ClusterOptions, 'seed' | 'topology' | 'workers' | 'etcdMembers' | 'node' | 'scheduler'>;

/** One thing that happens to the cluster, in order. */
export type ScenarioStep =
  /** A command line starting with `kubectl ` or `etcdctl `, run and shown with its output. */
  | string
  | CommandStep
  /** Simulated time passes: a Go-style duration such as "500ms", "20s", "1m30s". */
  | { wait: string; hidden?: boolean }
  | FaultStep;

export interface CommandStep {
  /** The command line as a reader types it, starting with `kubectl ` or `etcdctl `. */
  run: string;
  /** Text sent to the command's standard input (for `-f -`). */
  stdin?: string;
  /** Run it, but leave it out of the transcript (set-up a chapter does not need to show). */
  hidden?: boolean;
  /** The exit code this step must end with (default 0): a scenario that fails otherwise fails the build. */
  expectExit?: number;
}

export type FaultStep =
  | { fault: 'stopNode' | 'startNode' | 'stopComponent' | 'startComponent'; target: string; hidden?: boolean }
  | { fault: 'partition'; groups: string[][]; hidden?: boolean }
  | { fault: 'heal'; hidden?: boolean };

export interface Scenario {
  /** The cluster to boot (default: single-node, seed 1). */
  cluster?: ScenarioCluster;
  /** The terminal's files: `kubectl apply -f web.yaml` reads `files['web.yaml']`. */
  files?: Record<string, string>;
  /** What happens after boot, before the reader takes over. */
  steps?: ScenarioStep[];
}

/** One entry of a transcript: a command with what it printed, a pause, or a fault. */
export type TranscriptEntry =
  | { kind: 'command'; line: string; stdout: string; stderr: string; exitCode: number; atMs: number }
  | { kind: 'wait'; ms: number; atMs: number }
  | { kind: 'fault'; text: string; atMs: number };
