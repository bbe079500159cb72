/**
 * The simulated network between named endpoints. Like UDP between hosts in one datacenter:
 * every message gets its own latency (base +/- jitter, integer ms), so per-link order is not
 * guaranteed; it may be lost, duplicated, or held back (reordering), by per-link probabilities.
 * Partitions cut links at send time and again at delivery time (a cable cut also loses what was in
 * flight). Messages to an endpoint that is down (a crashed process) or unregistered are dropped,
 * and every send, delivery and drop is traced.
 */
import { SimEvent } from './event-queue.ts';
import type { Rng } from './rng.ts';
import type { Trace, TraceToken } from './trace.ts';

export interface LinkConfig {
  /** Base one-way latency, integer ms. */
  latencyMs: number;
  /** Latency varies uniformly in [latencyMs - jitterMs, latencyMs + jitterMs] (never below 0). */
  jitterMs: number;
  /** Probability a message is lost. */
  lossRate: number;
  /** Probability a message is delivered twice (each copy with its own latency). */
  duplicateRate: number;
  /** Probability a message is held back by an extra random delay (reordering it). */
  reorderRate: number;
  /** Upper bound of that extra delay, integer ms. */
  reorderDelayMsMax: number;
}

export const DEFAULT_LINK: Readonly<LinkConfig> = Object.freeze({
  latencyMs: 2,
  jitterMs: 1,
  lossRate: 0,
  duplicateRate: 0,
  reorderRate: 0,
  reorderDelayMsMax: 20,
});

export type MessageHandler<M = unknown> = (msg: M, from: string) => void;

/** What the network needs from the kernel: a clock, a way to schedule a call, a trace. */
export interface NetworkHost {
  now(): number;
  schedule(delayMs: number, fn: (arg: unknown) => void, arg: unknown): unknown;
  /** Optional: schedules a prepared event (the kernel has it; it saves an allocation per message). */
  scheduleEvent?(delayMs: number, ev: SimEvent): void;
  readonly trace: Trace;
}

export interface NetworkStats {
  sent: number;
  delivered: number;
  dropped: number;
  duplicated: number;
}

interface Endpoint {
  handler: MessageHandler | null;
  /** Changes each time the endpoint goes up or down: a connection made at one epoch is broken at another. */
  epoch: number;
}

/** An endpoint's trace strings, hashed once: its name (as an actor) and its "to"/"from" detail heads. */
interface EndpointTokens {
  actor: TraceToken;
  toHead: TraceToken;
  fromHead: TraceToken;
}

/**
 * A message in flight: the kernel event that delivers it, and its own argument. Envelopes are
 * reused once delivered or dropped (nothing else holds one: a handler gets the message and the
 * sender's name), so the network allocates one per message in flight at a time, not per message.
 */
class Envelope extends SimEvent {
  from = '';
  to = '';
  msg: unknown = undefined;
  /** With detailed tracing: the sender's and receiver's trace tokens and the message's rendering,
   * made once at send for both records (the delivery record needs the same three). */
  fromTokens: EndpointTokens | undefined = undefined;
  toTokens: EndpointTokens | undefined = undefined;
  text = '';

  constructor(deliver: (arg: unknown) => void) {
    super(0, 0, deliver, undefined, 0);
    this.arg = this;
  }
}

/** Most spare envelopes kept for reuse (a burst beyond this many in flight leaves garbage). */
const SPARE_ENVELOPES_MAX = 1024;

function defaultFormat(msg: unknown): string {
  if (typeof msg === 'object' && msg !== null && 'type' in msg)
    return String((msg as { type: unknown }).type);
  return typeof msg === 'string' ? msg : typeof msg;
}

export class SimNetwork {
  readonly stats: NetworkStats = { sent: 0, delivered: 0, dropped: 0, duplicated: 0 };
  private defaults: LinkConfig;
  private readonly endpoints = new Map<string, Endpoint>();
  private epochs = 0;
  private readonly links = new Map<string, Map<string, LinkConfig>>();
  private readonly groupOf = new Map<string, number>();
  private readonly blocked = new Map<string, Set<string>>();
  private format: (msg: unknown) => string = defaultFormat;
  private readonly tokens = new Map<string, EndpointTokens>();
  private readonly sendKind: TraceToken;
  private readonly deliverKind: TraceToken;
  private readonly deliverFn = (arg: unknown): void => this.deliver(arg as Envelope);
  private readonly spare: Envelope[] = [];

  constructor(
    private readonly host: NetworkHost,
    private readonly rng: Rng,
    defaults: Partial<LinkConfig> = {},
  ) {
    this.defaults = checkLink({ ...DEFAULT_LINK, ...defaults });
    this.sendKind = host.trace.token('net.send');
    this.deliverKind = host.trace.token('net.deliver');
  }

  /** Attaches `handler` to endpoint `name` (replacing any previous one); the endpoint is up. */
  register<M>(name: string, handler: MessageHandler<M>): void {
    this.endpoints.set(name, { handler: handler as MessageHandler, epoch: ++this.epochs });
  }

  /** Detaches endpoint `name`: later deliveries to it are dropped. */
  unregister(name: string): void {
    this.endpoints.delete(name);
  }

  /** True if `name` is registered with a handler (a crashed process is down). */
  isUp(name: string): boolean {
    return this.endpoints.get(name)?.handler != null;
  }

  /**
   * The endpoint's current epoch (0 if unknown). A TCP connection does not survive its peer's
   * restart: a client that remembers the epoch it connected at can tell its connection was reset.
   */
  epoch(name: string): number {
    return this.endpoints.get(name)?.epoch ?? 0;
  }

  /** Sets the link parameters used for every link without its own settings. */
  configure(defaults: Partial<LinkConfig>): void {
    this.defaults = checkLink({ ...this.defaults, ...defaults });
  }

  /** Sets parameters for the one-way link from -> to (call twice for both directions). */
  setLink(from: string, to: string, config: Partial<LinkConfig>): void {
    let row = this.links.get(from);
    if (!row) this.links.set(from, (row = new Map()));
    row.set(to, checkLink({ ...this.linkConfig(from, to), ...config }));
  }

  linkConfig(from: string, to: string): LinkConfig {
    return this.links.get(from)?.get(to) ?? this.defaults;
  }

  /** How trace details render a message (default: its `type` field). Only used when detail is on. */
  setFormatter(format: (msg: unknown) => string): void {
    this.format = format;
  }

  /**
   * Symmetric partition: endpoints in different groups cannot reach each other. Endpoints named in
   * no group are unaffected (they reach everyone, like a client outside the cut). Replaces any
   * earlier partition; one-way blocks stay.
   */
  partition(groups: string[][]): void {
    this.groupOf.clear();
    groups.forEach((group, i) => {
      for (const name of group) {
        if (this.groupOf.has(name))
          throw new Error(`invariant violated: ${name} is in two partition groups`);
        this.groupOf.set(name, i);
      }
    });
    this.host.trace.record(
      this.host.now(),
      'net.partition',
      'network',
      groups.map((g) => g.join(',')).join(' | '),
    );
  }

  /** One-way cut: messages from -> to are dropped; to -> from still flow. */
  block(from: string, to: string): void {
    let set = this.blocked.get(from);
    if (!set) this.blocked.set(from, (set = new Set()));
    set.add(to);
    this.host.trace.record(this.host.now(), 'net.block', 'network', `${from} -> ${to}`);
  }

  unblock(from: string, to: string): void {
    this.blocked.get(from)?.delete(to);
    this.host.trace.record(this.host.now(), 'net.unblock', 'network', `${from} -> ${to}`);
  }

  /** Removes every partition and one-way block (link loss/latency settings stay). */
  heal(): void {
    this.groupOf.clear();
    this.blocked.clear();
    this.host.trace.record(this.host.now(), 'net.heal', 'network', '');
  }

  /** Whether the link from -> to is currently cut by a partition or block. */
  canReach(from: string, to: string): boolean {
    const gf = this.groupOf.get(from);
    if (gf !== undefined) {
      const gt = this.groupOf.get(to);
      if (gt !== undefined && gt !== gf) return false;
    }
    const set = this.blocked.get(from);
    return set === undefined || !set.has(to);
  }

  /** Sends `msg`; delivery (or a drop) happens later as a kernel event. */
  send(from: string, to: string, msg: unknown): void {
    const trace = this.host.trace;
    const now = this.host.now();
    this.stats.sent++;
    let fromTokens: EndpointTokens | undefined;
    let toTokens: EndpointTokens | undefined;
    let text = '';
    if (trace.enabled) {
      if (trace.detail) {
        fromTokens = this.tokensOf(from);
        toTokens = this.tokensOf(to);
        text = this.format(msg);
        trace.recordTokens(now, this.sendKind, fromTokens.actor, toTokens.toHead, text);
      } else trace.record(now, 'net.send', from);
    }
    if (!this.canReach(from, to)) return this.drop(from, to, msg, 'partitioned');
    const link = this.linkConfig(from, to);
    if (this.rng.chance(link.lossRate)) return this.drop(from, to, msg, 'lost');
    this.post(this.delayMs(link), this.envelope(from, to, msg, fromTokens, toTokens, text));
    if (this.rng.chance(link.duplicateRate)) {
      this.stats.duplicated++;
      this.post(this.delayMs(link), this.envelope(from, to, msg, fromTokens, toTokens, text));
    }
  }

  private envelope(from: string, to: string, msg: unknown, fromTokens: EndpointTokens | undefined, toTokens: EndpointTokens | undefined, text: string): Envelope {
    const env = this.spare.pop() ?? new Envelope(this.deliverFn);
    env.from = from;
    env.to = to;
    env.msg = msg;
    env.fromTokens = fromTokens;
    env.toTokens = toTokens;
    env.text = text;
    return env;
  }

  private post(delayMs: number, env: Envelope): void {
    if (this.host.scheduleEvent) this.host.scheduleEvent(delayMs, env);
    else this.host.schedule(delayMs, this.deliverFn, env);
  }

  private delayMs(link: LinkConfig): number {
    let d = link.latencyMs;
    if (link.jitterMs > 0) d += this.rng.nextInt(2 * link.jitterMs + 1) - link.jitterMs;
    if (link.reorderRate > 0 && this.rng.chance(link.reorderRate))
      d += 1 + this.rng.nextInt(link.reorderDelayMsMax);
    return d < 0 ? 0 : d;
  }

  /** Takes the envelope apart and keeps it for reuse (its fields are read once, here). */
  private deliver(env: Envelope): void {
    const { from, to, msg, fromTokens, toTokens, text } = env;
    env.msg = undefined; // a spare envelope keeps no message alive
    if (this.spare.length < SPARE_ENVELOPES_MAX) this.spare.push(env);
    if (!this.canReach(from, to)) return this.drop(from, to, msg, 'partitioned');
    const ep = this.endpoints.get(to);
    if (!ep || !ep.handler) return this.drop(from, to, msg, ep ? 'endpoint down' : 'no such endpoint');
    this.stats.delivered++;
    const trace = this.host.trace;
    if (trace.enabled) {
      // the send made the tokens and text (a trace's detail setting never changes)
      if (trace.detail) trace.recordTokens(this.host.now(), this.deliverKind, toTokens!.actor, fromTokens!.fromHead, text);
      else trace.record(this.host.now(), 'net.deliver', to);
    }
    ep.handler(msg, from);
  }

  private drop(from: string, to: string, msg: unknown, reason: string): void {
    this.stats.dropped++;
    const trace = this.host.trace;
    if (trace.enabled) {
      trace.record(
        this.host.now(),
        'net.drop',
        from,
        trace.detail ? `to ${to} (${reason}): ${this.format(msg)}` : reason,
      );
    }
  }

  /** The endpoint's name and "to <endpoint>: " / "from <endpoint>: " heads, hashed once per endpoint. */
  private tokensOf(endpoint: string): EndpointTokens {
    let t = this.tokens.get(endpoint);
    if (t === undefined) {
      const trace = this.host.trace;
      t = { actor: trace.token(endpoint), toHead: trace.token(`to ${endpoint}: `), fromHead: trace.token(`from ${endpoint}: `) };
      this.tokens.set(endpoint, t);
    }
    return t;
  }

  /** Marks an endpoint down (keeps its name) or up again with a handler; used by processes. */
  setHandler(name: string, handler: MessageHandler | null): void {
    this.endpoints.set(name, { handler, epoch: ++this.epochs });
  }
}

function checkLink(c: LinkConfig): LinkConfig {
  for (const k of ['latencyMs', 'jitterMs', 'reorderDelayMsMax'] as const) {
    if (!Number.isInteger(c[k]) || c[k] < 0)
      throw new Error(`invariant violated: link ${k} is a non-negative integer (got ${c[k]})`);
  }
  if (c.reorderDelayMsMax < 1 && c.reorderRate > 0)
    throw new Error('invariant violated: reordering needs reorderDelayMsMax >= 1');
  for (const k of ['lossRate', 'duplicateRate', 'reorderRate'] as const) {
    if (!(c[k] >= 0 && c[k] <= 1))
      throw new Error(`invariant violated: link ${k} is a probability in [0, 1] (got ${c[k]})`);
  }
  return c;
}
