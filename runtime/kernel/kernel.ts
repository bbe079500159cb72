/**
 * The discrete-event simulation kernel: one virtual clock, one seeded RNG, one event queue, one
 * network, the processes, and the trace. It is synchronous: `runFor`/`runUntil` pop events in
 * (time, sequence) order and call their handlers; handlers schedule more events. Nothing runs
 * between events, so a seed and the same inputs always give the same run (and trace hash).
 * Every run loop has an event budget (a limit on everything): exceeding it throws, naming it.
 */
import { VirtualClock } from './clock.ts';
import { Disk } from './disk.ts';
import { EventQueue, SimEvent } from './event-queue.ts';
import { SimNetwork, type LinkConfig, type MessageHandler } from './network.ts';
import { SimProcess, type ProcessHost, type ProcessMain } from './process.ts';
import { createRng, type Rng } from './rng.ts';
import { Trace, type TraceOptions } from './trace.ts';

/** Returned by every timer; cancel() is idempotent and stops periodic timers for good. */
export interface TimerHandle {
  cancel(): void;
}

export interface KernelOptions {
  /** Seed of every random choice in the run (default 1). */
  seed?: number;
  trace?: TraceOptions;
  /** Default link parameters for the network. */
  link?: Partial<LinkConfig>;
  /** Most events one run call may execute before it throws (default 50 million). */
  eventBudget?: number;
}

const callThunk = (fn: unknown): void => (fn as () => void)();

export class Kernel implements ProcessHost {
  readonly seed: number;
  /** The root random stream; components should use `rng.fork(label)` for their own stream. */
  readonly rng: Rng;
  readonly trace: Trace;
  readonly net: SimNetwork;
  readonly eventBudget: number;
  private readonly clock = new VirtualClock();
  private readonly queue = new EventQueue();
  private readonly processes = new Map<string, SimProcess>();
  private seq = 0;
  private executed = 0;

  constructor(options: KernelOptions = {}) {
    this.seed = options.seed ?? 1;
    this.rng = createRng(this.seed);
    this.trace = new Trace(options.trace);
    this.eventBudget = options.eventBudget ?? 50_000_000;
    this.net = new SimNetwork(this, this.rng.fork('network'), options.link);
  }

  /** Simulated milliseconds since boot. */
  now(): number {
    return this.clock.now();
  }

  /** Events executed since boot (cancelled ones are not counted). */
  get eventsRun(): number {
    return this.executed;
  }

  /** Events waiting in the queue (including cancelled ones not yet popped). */
  get pending(): number {
    return this.queue.size;
  }

  /** Low-level, allocation-light scheduling: calls fn(arg) after delayMs (an integer >= 0). */
  schedule(delayMs: number, fn: (arg: unknown) => void, arg: unknown): SimEvent {
    if (!Number.isInteger(delayMs) || delayMs < 0) {
      throw new Error(`invariant violated: delays are non-negative integer ms (got ${delayMs})`);
    }
    const ev = new SimEvent(this.clock.now() + delayMs, this.seq++, fn, arg, 0);
    this.queue.push(ev);
    return ev;
  }

  /**
   * Schedules an event object the caller built (a subclass carrying its own data, so one object is
   * allocated per event instead of an event and its argument): it gets its time and sequence now.
   */
  scheduleEvent(delayMs: number, ev: SimEvent): void {
    if (!Number.isInteger(delayMs) || delayMs < 0) {
      throw new Error(`invariant violated: delays are non-negative integer ms (got ${delayMs})`);
    }
    ev.timeMs = this.clock.now() + delayMs;
    ev.seq = this.seq++;
    this.queue.push(ev);
  }

  setTimer(delayMs: number, fn: () => void): TimerHandle {
    return this.schedule(delayMs, callThunk, fn);
  }

  /** Calls fn every intervalMs (first after firstDelayMs, default intervalMs) until cancelled. */
  every(intervalMs: number, fn: () => void, firstDelayMs = intervalMs): TimerHandle {
    if (!Number.isInteger(intervalMs) || intervalMs < 1) {
      throw new Error(
        `invariant violated: a periodic timer needs an integer interval >= 1 ms (got ${intervalMs})`,
      );
    }
    const ev = new SimEvent(this.clock.now() + firstDelayMs, this.seq++, callThunk, fn, intervalMs);
    this.queue.push(ev);
    return ev;
  }

  /** Sends over the network (for code that is not a process, e.g. a test acting as a client). */
  send(from: string, to: string, msg: unknown): void {
    this.net.send(from, to, msg);
  }

  setHandler(name: string, handler: MessageHandler | null): void {
    this.net.setHandler(name, handler);
  }

  record(kind: string, actor: string, detail = ''): void {
    this.trace.record(this.clock.now(), kind, actor, detail);
  }

  forkRng(label: string): Rng {
    return this.rng.fork(label);
  }

  /** Runs the next live event, if any. Returns false when the queue is empty. */
  step(): boolean {
    for (;;) {
      const ev = this.queue.pop();
      if (ev === undefined) return false;
      if (ev.cancelled) continue;
      this.fire(ev);
      return true;
    }
  }

  /**
   * runUntil(timeMs): runs every event due at or before timeMs, then sets the clock to timeMs.
   * runUntil(predicate, budget): runs events until predicate() is true (checked before each event);
   * returns false if the queue empties or `budget` events ran first (errors are values here).
   */
  runUntil(timeMs: number): void;
  runUntil(done: () => boolean, budget?: number): boolean;
  runUntil(target: number | (() => boolean), budget = this.eventBudget): boolean | void {
    if (typeof target === 'number') return this.runToTime(target);
    for (let n = 0; ; n++) {
      if (target()) return true;
      if (n >= budget || !this.step()) return target();
    }
  }

  /** Runs simulated time forward by ms. */
  runFor(ms: number): void {
    this.runToTime(this.clock.now() + ms);
  }

  /** Runs until no events are left; returns how many ran. Throws past the budget (a livelock). */
  runUntilIdle(budget = this.eventBudget): number {
    let n = 0;
    while (this.step()) {
      if (++n > budget)
        throw new Error(
          `invariant violated: event budget of ${budget} exceeded before the queue went idle`,
        );
    }
    return n;
  }

  /** Starts a process named `name` (its network endpoint has the same name). */
  spawn(name: string, main: ProcessMain): SimProcess {
    if (this.processes.has(name))
      throw new Error(`invariant violated: process ${name} already exists`);
    const p = new SimProcess(name, new Disk(), main, this);
    this.processes.set(name, p);
    p.start();
    return p;
  }

  process(name: string): SimProcess | undefined {
    return this.processes.get(name);
  }

  /** Crashes a process (no-op if it is down). */
  crash(name: string): void {
    this.mustProcess(name).crash();
  }

  /** Starts a crashed process again (or restarts a running one: crash, then start). */
  restart(name: string): void {
    this.mustProcess(name).restart();
  }

  private mustProcess(name: string): SimProcess {
    const p = this.processes.get(name);
    if (!p) throw new Error(`no process named ${name}`);
    return p;
  }

  private runToTime(timeMs: number): void {
    if (timeMs < this.clock.now()) this.clock.advanceTo(timeMs); // throws, naming the invariant
    let n = 0;
    for (;;) {
      const ev = this.queue.peek();
      if (ev === undefined || ev.timeMs > timeMs) break;
      this.queue.pop();
      if (ev.cancelled) continue;
      if (++n > this.eventBudget) {
        throw new Error(
          `invariant violated: event budget of ${this.eventBudget} exceeded before time ${timeMs} ms`,
        );
      }
      this.fire(ev);
    }
    this.clock.advanceTo(timeMs);
  }

  private fire(ev: SimEvent): void {
    this.clock.advanceTo(ev.timeMs);
    this.executed++;
    ev.fn(ev.arg);
    if (ev.intervalMs > 0 && !ev.cancelled) {
      ev.timeMs += ev.intervalMs;
      ev.seq = this.seq++;
      this.queue.push(ev);
    }
  }
}

export function createKernel(options: KernelOptions = {}): Kernel {
  return new Kernel(options);
}
