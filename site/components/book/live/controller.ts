// One live cluster on the page, seen from the UI thread: it owns the run loop (simulated time
// moves in bounded ticks, one request to the worker in flight at a time), the latest view, and the
// widgets that render it. Views arrive from the worker as they come and are drawn at most once
// per animation frame, so the page never blocks on the simulation.
import type * as Comlink from 'comlink';
import type { EventSnapshot, RequestTrace, RequestTraceRoot } from '../../../../runtime/index.ts';
import type { SchedulerDecision } from '../../../../runtime/index.ts';
import type { Scenario } from '../../../lib/scenario/types.ts';
import type { CommandOutput, LiveFault, LiveInput, LiveView, LiveWorkerApi, OpenResult } from './protocol.ts';

export type Speed = 1 | 10 | 100 | 'max';

export interface LiveWidgetView {
  /** Called with every new view (at most once per frame). `events` are only the ones new since the last call. */
  render(view: LiveView, newEvents: readonly EventSnapshot[], nowMs: number): void;
  /** The simulation is gone (the worker failed): say so plainly. */
  fail?(message: string): void;
}

export interface ControllerState {
  nowMs: number;
  bootedAtMs: number;
  /** Furthest simulated time reached, the right end of the timeline. */
  horizonMs: number;
  running: boolean;
  speed: Speed;
  busy: boolean;
}

/** How often the widgets redraw while the simulation runs. */
const DRAWS_PER_SECOND = 10;

/** Events kept for the widgets (bounded, so memory stays flat however long the page runs). */
const EVENT_BUFFER = 400;

export class LiveController {
  readonly widgets: LiveWidgetView[] = [];
  readonly events: EventSnapshot[] = [];
  state: ControllerState = { nowMs: 0, bootedAtMs: 0, horizonMs: 0, running: false, speed: 10, busy: false };
  view: LiveView | undefined;
  private cursor = 0;
  private inFlight = false;
  private lastTickWall = 0;
  private frameRequested = false;
  private lastDrawWall = 0;
  private pendingEvents: EventSnapshot[] = [];
  private readonly stateListeners = new Set<(s: ControllerState) => void>();
  private failed: string | undefined;

  constructor(
    private readonly api: Comlink.Remote<LiveWorkerApi>,
    readonly id: string,
    readonly scenario: Scenario,
  ) {}

  onState(listener: (s: ControllerState) => void): void {
    this.stateListeners.add(listener);
    listener(this.state);
  }

  private setState(patch: Partial<ControllerState>): void {
    this.state = { ...this.state, ...patch };
    this.state.horizonMs = Math.max(this.state.horizonMs, this.state.nowMs);
    for (const l of this.stateListeners) l(this.state);
  }

  /** Boots the scenario in the worker; returns an error text if it could not. */
  async open(inputs?: LiveInput[]): Promise<string | undefined> {
    this.setState({ busy: true });
    const r = await this.guard<OpenResult>(() => this.api.open(this.id, this.scenario, inputs) as Promise<OpenResult>);
    if (!r) return this.failed;
    if (!r.ok) {
      this.fail(`This cluster could not start: ${r.error}`);
      return r.error;
    }
    performance.mark(`live-cluster:${this.id}:interactive`);
    this.setState({ nowMs: r.nowMs, bootedAtMs: r.bootedAtMs, busy: false });
    await this.refresh();
    return undefined;
  }

  /** A worker call; a failure of the worker itself ends this cluster with a clear message. */
  private async guard<T>(call: () => Promise<T>): Promise<T | undefined> {
    if (this.failed) return undefined;
    try {
      return await call();
    } catch (e) {
      this.fail(`The simulation stopped: ${e instanceof Error ? e.message : String(e)}. Reload the page to start it again.`);
      return undefined;
    }
  }

  fail(message: string): void {
    if (this.failed) return;
    this.failed = message;
    this.setState({ running: false, busy: false });
    for (const w of this.widgets) w.fail?.(message);
  }

  get isFailed(): boolean {
    return this.failed !== undefined;
  }

  private accept(nowMs: number, view: LiveView): void {
    if (view.events.length > 0) {
      this.cursor = view.events.at(-1)!.resourceVersion;
      this.events.push(...view.events);
      if (this.events.length > EVENT_BUFFER) this.events.splice(0, this.events.length - EVENT_BUFFER);
      this.pendingEvents.push(...view.events);
    }
    this.view = view;
    this.setState({ nowMs });
    this.requestDraw();
  }

  private requestDraw(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    // at most one draw per animation frame, and no more than DRAWS_PER_SECOND: a person cannot
    // follow faster, and a big cluster's view then costs the page a few frames a second, not all
    const wait = Math.max(0, this.lastDrawWall + 1000 / DRAWS_PER_SECOND - performance.now());
    setTimeout(() => requestAnimationFrame(() => {
      this.frameRequested = false;
      this.lastDrawWall = performance.now();
      if (!this.view) return;
      const fresh = this.pendingEvents;
      this.pendingEvents = [];
      for (const w of this.widgets) w.render(this.view, fresh, this.state.nowMs);
    }), wait);
  }

  async refresh(): Promise<void> {
    const r = await this.guard(() => this.api.view(this.id, this.cursor));
    if (r) this.accept(r.nowMs, r.view);
  }

  // ---- time --------------------------------------------------------------------------------------

  setRunning(running: boolean): void {
    if (this.failed) return;
    this.setState({ running });
    if (running) {
      this.lastTickWall = performance.now();
      this.loop();
    }
  }

  setSpeed(speed: Speed): void {
    this.setState({ speed });
  }

  private loop(): void {
    if (!this.state.running) return;
    requestAnimationFrame(() => {
      if (!this.state.running) return;
      if (!this.inFlight) void this.tickOnce();
      this.loop();
    });
  }

  private async tickOnce(): Promise<void> {
    const wall = performance.now();
    const elapsed = Math.min(250, wall - this.lastTickWall);
    this.lastTickWall = wall;
    const ms = this.state.speed === 'max' ? 5_000 : Math.max(1, Math.round(elapsed * this.state.speed));
    await this.advance(ms);
  }

  /** Runs `ms` of simulated time now (a step button), or one kernel event with `nextEvent`. */
  async advance(ms: number, nextEvent = false): Promise<void> {
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      const r = await this.guard(() => this.api.tick(this.id, ms, this.cursor, nextEvent ? 1 : undefined));
      if (r) this.accept(r.nowMs, r.view);
    } finally {
      this.inFlight = false;
    }
  }

  // ---- the reader's inputs ----------------------------------------------------------------------

  async command(line: string): Promise<CommandOutput | undefined> {
    const out = await this.guard(() => this.api.command(this.id, line));
    await this.refresh();
    return out;
  }

  async fault(fault: LiveFault): Promise<string | undefined> {
    const r = await this.guard<{ ok: true } | { ok: false; error: string }>(() => this.api.fault(this.id, fault) as Promise<{ ok: true } | { ok: false; error: string }>);
    await this.refresh();
    return r && !r.ok ? r.error : undefined;
  }

  async rewindTo(targetMs: number): Promise<void> {
    const wasRunning = this.state.running;
    this.setState({ running: false, busy: true });
    const r = await this.guard(() => this.api.rewindTo(this.id, targetMs));
    this.resetEvents();
    if (r) this.setState({ nowMs: r.nowMs, busy: false });
    await this.refresh();
    if (wasRunning) this.setRunning(true);
  }

  async restart(): Promise<void> {
    this.setState({ running: false, busy: true });
    const r = await this.guard(() => this.api.restart(this.id));
    this.resetEvents();
    if (r) this.setState({ nowMs: r.nowMs, horizonMs: r.nowMs, busy: false });
    await this.refresh();
  }

  private resetEvents(): void {
    this.cursor = 0;
    this.events.length = 0;
    this.pendingEvents = [];
    for (const w of this.widgets) (w as { reset?: () => void }).reset?.();
  }

  trace(requestId?: string): Promise<{ roots: RequestTraceRoot[]; trace: RequestTrace } | undefined> {
    return this.guard(() => this.api.trace(this.id, requestId));
  }

  inputs(): Promise<LiveInput[] | undefined> {
    return this.guard(() => this.api.inputs(this.id));
  }

  schedulerDecision(namespace: string, name: string): Promise<SchedulerDecision | undefined> {
    return this.guard(() => this.api.schedulerDecision(this.id, namespace, name));
  }
}
