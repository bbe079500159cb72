/**
 * Simulated processes: a named program with a disk. `main(ctx)` runs at boot and again at every
 * restart; everything it builds in memory is volatile. A crash stops its timers (they check the
 * incarnation they were created in), takes its network endpoint down (messages to it are dropped),
 * and keeps its disk. A restart runs `main` again with a fresh context over the same disk.
 */
import type { Disk } from './disk.ts';
import type { MessageHandler } from './network.ts';
import type { Rng } from './rng.ts';
import type { TimerHandle } from './kernel.ts';

/** What a running process sees of the world. Everything is cut off once this incarnation crashes. */
export interface ProcessContext {
  readonly name: string;
  /** Increases on every crash and restart; a context is live only while it matches the process. */
  readonly incarnation: number;
  readonly disk: Disk;
  /** A random stream for this incarnation (forked from the kernel seed, the name and incarnation). */
  readonly rng: Rng;
  now(): number;
  /** A one-shot timer that never fires after this incarnation crashed. */
  setTimer(delayMs: number, fn: () => void): TimerHandle;
  /** A periodic timer (first firing after firstDelayMs, default intervalMs); stops on a crash. */
  every(intervalMs: number, fn: () => void, firstDelayMs?: number): TimerHandle;
  /** Sends over the kernel network from this process's endpoint (a no-op once crashed). */
  send(to: string, msg: unknown): void;
  /** Registers this process's network endpoint handler (its name is the endpoint name). */
  onMessage<M>(handler: MessageHandler<M>): void;
  /** Adds a trace record with this process as the actor. */
  trace(kind: string, detail?: string): void;
  /** True while this incarnation is the running one. */
  isLive(): boolean;
}

export type ProcessMain = (ctx: ProcessContext) => void;

/** The kernel services a process needs (implemented by Kernel). */
export interface ProcessHost {
  now(): number;
  setTimer(delayMs: number, fn: () => void): TimerHandle;
  /** Calls fn(arg) after delayMs (allocation-light: no closure per timer). */
  schedule(delayMs: number, fn: (arg: unknown) => void, arg: unknown): TimerHandle;
  every(intervalMs: number, fn: () => void, firstDelayMs?: number): TimerHandle;
  send(from: string, to: string, msg: unknown): void;
  setHandler(name: string, handler: MessageHandler | null): void;
  record(kind: string, actor: string, detail: string): void;
  forkRng(label: string): Rng;
}

/** A process timer's call: fn runs only if the incarnation that set the timer is still live. */
class IncarnationCall {
  constructor(
    readonly process: SimProcess,
    readonly incarnation: number,
    readonly fn: () => void,
  ) {}
}

const callIfLive = (arg: unknown): void => {
  const call = arg as IncarnationCall;
  if (call.process.isLive(call.incarnation)) call.fn();
};

export class SimProcess {
  private upNow = false;
  private inc = 0;

  constructor(
    readonly name: string,
    readonly disk: Disk,
    private readonly main: ProcessMain,
    private readonly host: ProcessHost,
  ) {}

  get up(): boolean {
    return this.upNow;
  }

  get incarnation(): number {
    return this.inc;
  }

  /** Boots (or reboots) the process: runs main with a fresh context over the kept disk. */
  start(): void {
    if (this.upNow) throw new Error(`invariant violated: process ${this.name} is already running`);
    this.inc++;
    this.upNow = true;
    this.host.record('process.start', this.name, `incarnation ${this.inc}`);
    this.main(this.context(this.inc));
  }

  /** Stops the process: timers die, the endpoint goes down, memory is lost, the disk stays. */
  crash(): void {
    if (!this.upNow) return;
    this.upNow = false;
    this.inc++;
    this.host.setHandler(this.name, null);
    this.host.record('process.crash', this.name, '');
  }

  restart(): void {
    this.crash();
    this.start();
  }

  /** True while `incarnation` is the running one. */
  isLive(incarnation: number): boolean {
    return this.upNow && this.inc === incarnation;
  }

  private context(inc: number): ProcessContext {
    const live = (): boolean => this.upNow && this.inc === inc;
    const host = this.host;
    const name = this.name;
    return {
      name,
      incarnation: inc,
      disk: this.disk,
      rng: host.forkRng(`process:${name}:${inc}`),
      now: () => host.now(),
      // one small record per timer rather than a guard closure (and its context) around fn
      setTimer: (delayMs, fn) => host.schedule(delayMs, callIfLive, new IncarnationCall(this, inc, fn)),
      every: (intervalMs, fn, firstDelayMs = intervalMs) => {
        const handle = host.every(
          intervalMs,
          () => {
            if (live()) fn();
            else handle.cancel();
          },
          firstDelayMs,
        );
        return handle;
      },
      send: (to, msg) => {
        if (live()) host.send(name, to, msg);
      },
      onMessage: (handler) => {
        if (live()) host.setHandler(name, handler as MessageHandler);
      },
      trace: (kind, detail = '') => host.record(kind, name, detail),
      isLive: live,
    };
  }
}
