// One live cluster of a page, as the runtime worker holds it: the scenario it booted from, the
// reader's inputs (commands and faults) with the simulated time each happened at, and the cluster.
// Because the simulation is deterministic, the inputs are the whole story: rewinding to time T is
// booting the scenario again and replaying the inputs made before T (rewindTo), and a share link
// carries the same inputs (inputs()). Pure TypeScript, no DOM: tested in Node, run in the worker.
import type { Cluster, ClusterSnapshot, EventSnapshot, RequestTrace, RequestTraceRoot } from '../../../runtime/index.ts';
import type { RequestDurations, SchedulerAttempt, SchedulerDecision } from '../../../runtime/index.ts';
import { playScenario, runCommandLine } from '../scenario/play.ts';
import type { Scenario } from '../scenario/types.ts';

/** A fault the reader can cause from the cluster view. */
export type LiveFault =
  | { kind: 'stopNode' | 'startNode' | 'stopComponent' | 'startComponent'; target: string }
  /** Cut these names (machines, components, etcd members) off, each on its own; [] heals. */
  | { kind: 'isolate'; targets: string[] };

/** Something the reader did, at a simulated time: what a rewind or a share link replays. */
export type LiveInput = { atMs: number; command: string } | { atMs: number; fault: LiveFault };

export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Simulated ms when the command started and when it returned. */
  startMs: number;
  endMs: number;
}

export interface LiveView {
  snapshot: ClusterSnapshot;
  /** Events after the cursor the caller gave, oldest first. */
  events: EventSnapshot[];
  /** Names cut off from the rest of the cluster right now. */
  isolated: string[];
  /** The pods the scheduler has tried (their decisions come one at a time: schedulerDecision()). */
  schedulerAttempts: SchedulerAttempt[];
  /** apiserver_request_duration_seconds by verb, over the running API servers. */
  requestDurations: RequestDurations;
}

/** Longest simulated time one tick may run, so the worker's message loop always gets a turn. */
export const MAX_TICK_MS = 5_000;
/** Kernel events one tick may run before it yields (a busy cluster at "as fast as possible"). */
export const MAX_TICK_EVENTS = 60_000;

export class LiveSession {
  private cluster!: Cluster;
  private readonly recorded: LiveInput[] = [];
  private isolated: string[] = [];
  /** Simulated ms when the scenario's steps were done: the earliest time a rewind can reach. */
  private startMs = 0;

  private constructor(private readonly scenario: Scenario) {}

  /** Boots the scenario and plays its steps (a step that fails throws, naming the step). */
  static async open(scenario: Scenario): Promise<LiveSession> {
    const session = new LiveSession(scenario);
    await session.boot();
    return session;
  }

  private async boot(): Promise<void> {
    this.cluster = (await playScenario(this.scenario)).cluster;
    this.startMs = this.cluster.now();
    this.isolated = [];
  }

  get now(): number {
    return this.cluster.now();
  }

  get bootedAtMs(): number {
    return this.startMs;
  }

  inputs(): readonly LiveInput[] {
    return this.recorded;
  }

  async command(line: string): Promise<CommandOutput> {
    const startMs = this.cluster.now();
    this.recorded.push({ atMs: startMs, command: line });
    const r = await runCommandLine(this.cluster, line, { files: this.scenario.files ?? {} });
    return { ...r, startMs, endMs: this.cluster.now() };
  }

  async fault(fault: LiveFault): Promise<void> {
    this.recorded.push({ atMs: this.cluster.now(), fault });
    await this.applyFault(fault);
  }

  private async applyFault(fault: LiveFault): Promise<void> {
    if (fault.kind === 'isolate') {
      this.isolated = [...fault.targets];
      if (fault.targets.length === 0) await this.cluster.faults.heal();
      else await this.cluster.faults.partition(fault.targets.map((t) => [t]));
      return;
    }
    await this.cluster.faults[fault.kind](fault.target);
  }

  /**
   * Runs simulated time forward by at most ms (bounded: MAX_TICK_MS, MAX_TICK_EVENTS), or until
   * `maxEvents` kernel events ran ("next event": 1); returns the ms advanced.
   */
  tick(ms: number, maxEvents = MAX_TICK_EVENTS): number {
    const bounded = Math.max(0, Math.min(MAX_TICK_MS, Math.floor(ms)));
    return bounded === 0 ? 0 : this.cluster.step(bounded, Math.max(1, Math.min(MAX_TICK_EVENTS, maxEvents)));
  }

  view(eventCursor: number): LiveView {
    return { snapshot: this.cluster.snapshot(), events: this.cluster.eventsSince(eventCursor, 300), isolated: [...this.isolated],
      schedulerAttempts: this.cluster.schedulerAttempts(), requestDurations: this.cluster.requestDurations() };
  }

  /**
   * Back to simulated time `targetMs` (not before the scenario's end): boot the scenario again,
   * replay the inputs made before targetMs at the times they were made, and run to targetMs.
   * Inputs after targetMs are forgotten, as in any undo.
   */
  async rewindTo(targetMs: number): Promise<void> {
    const keep = this.recorded.filter((i) => i.atMs < targetMs);
    await this.replay(keep);
    const target = Math.max(targetMs, this.cluster.now());
    while (this.cluster.now() < target) this.cluster.step(Math.min(MAX_TICK_MS * 12, target - this.cluster.now()), Number.MAX_SAFE_INTEGER);
  }

  /** Boots the scenario again and replays `inputs` (a share link's); the session then holds exactly those. */
  async replay(inputs: readonly LiveInput[]): Promise<void> {
    await this.boot();
    this.recorded.length = 0;
    for (const input of inputs) {
      if (input.atMs > this.cluster.now()) await this.cluster.advance(input.atMs - this.cluster.now());
      if ('command' in input) await this.command(input.command);
      else await this.fault(input.fault);
    }
  }

  /** One request followed through the control plane (default: the reader's last kubectl write), and the requests to choose from. */
  trace(requestId?: string): { roots: RequestTraceRoot[]; trace: RequestTrace } {
    return { roots: this.cluster.traceRoots(), trace: this.cluster.requestTrace(requestId) };
  }

  /** The scheduler's last decision for one pod (its annotations parsed), undefined if it has none. */
  schedulerDecision(namespace: string, name: string): SchedulerDecision | undefined {
    return this.cluster.schedulerDecision(namespace, name);
  }

  /** A hash of everything that happened: equal for equal scenarios and inputs at equal times. */
  traceHash(): string {
    return this.cluster.traceHash();
  }
}
