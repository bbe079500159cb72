// The contract between a page's live widgets and its runtime worker (site/workers/live-cluster.worker.ts),
// reached through comlink. One worker per page holds every live cluster of the page, each by id.
import type { Scenario } from '../../../lib/scenario/types.ts';
import type { RequestTrace, RequestTraceRoot } from '../../../../runtime/index.ts';
import type { CommandOutput, LiveFault, LiveInput, LiveView } from '../../../lib/live/live-session.ts';
import type { SchedulerDecision } from '../../../../runtime/index.ts';

export type { CommandOutput, LiveFault, LiveInput, LiveView };

export type OpenResult = { ok: true; nowMs: number; bootedAtMs: number; bootWallMs: number } | { ok: false; error: string };

export interface LiveWorkerApi {
  /** Boots a scenario (and replays a share link's inputs, if given) under `id`. */
  open(id: string, scenario: Scenario, inputs?: LiveInput[]): Promise<OpenResult>;
  command(id: string, line: string): Promise<CommandOutput>;
  fault(id: string, fault: LiveFault): Promise<{ ok: true } | { ok: false; error: string }>;
  /** Runs up to `ms` of simulated time (bounded in the session), then returns the view after `eventCursor`. */
  tick(id: string, ms: number, eventCursor: number, maxEvents?: number): Promise<{ advancedMs: number; nowMs: number; view: LiveView }>;
  view(id: string, eventCursor: number): Promise<{ nowMs: number; view: LiveView }>;
  rewindTo(id: string, targetMs: number): Promise<{ nowMs: number }>;
  /** Boots the scenario again from its seed, dropping the reader's inputs. */
  restart(id: string): Promise<{ nowMs: number }>;
  inputs(id: string): Promise<LiveInput[]>;
  /** The scheduler's last decision for a pod (annotations parsed, PodScheduled condition); undefined without one. */
  schedulerDecision(id: string, namespace: string, name: string): Promise<SchedulerDecision | undefined>;
  /** The request trace (default: the reader's last kubectl write) and the requests to choose from. */
  trace(id: string, requestId?: string): Promise<{ roots: RequestTraceRoot[]; trace: RequestTrace }>;
}

/** The widgets a LiveCluster can show. */
export type LiveWidget = 'cluster' | 'terminal' | 'events' | 'trace' | 'scheduler' | 'latency' | 'raft';
/** A "try this" prompt: a command, or a command with a note. */
export type TryThis = string | { run: string; note: string };
