/**
 * The trace: everything that happens in a run, as (time, kind, actor, detail) records, plus a
 * running 64-bit hash over every record ever made, so two runs can be compared by one string even
 * when the ring buffer has dropped old records.
 *
 * The hash is two 32-bit multiply-xor lanes, A (FNV-1a 32's prime 0x01000193, basis 0x811c9dc5)
 * and B (multiplier 0x5bd1e995, basis 0x9e3779b9); folding a 32-bit word w is
 * `A = imul(A ^ w, 0x01000193); B = imul(B ^ w, 0x5bd1e995)`. A record folds, in order: the time's
 * high and low 32 bits; the kind's and the actor's string hashes (lane A gets the string's A, lane B
 * its B; a string's hash is both lanes folded from their bases over its UTF-16 units, memoized
 * because kinds and actors repeat); then each UTF-16 unit of the detail, then 0x0a. With
 * `detail: false` the detail is neither stored nor hashed (it is the expensive part to build).
 * A record made with `recordJoined(head, tail)` (the network's per-message records, whose details
 * are an endpoint part and a message-type part that repeat endlessly) folds the two parts' memoized
 * string hashes instead of their units, and keeps the detail as `head + tail`.
 * (It was FNV-1a 64, whose 64-bit multiply on two 32-bit halves per unit cost several times more.)
 */
export interface TraceEvent {
  timeMs: number;
  /** What happened, e.g. "send", "deliver", "drop", "crash", "raft.become-leader". */
  kind: string;
  /** Who did it (an endpoint, process or component name). */
  actor: string;
  /** Human-readable detail ("" when detail recording is off). */
  detail: string;
}

export interface TraceOptions {
  /** Record anything at all (default true). Off: record() is a no-op and the hash stays empty. */
  enabled?: boolean;
  /** Build, keep and hash the detail strings (default true). */
  detail?: boolean;
  /** Ring buffer size: keep at most this many most recent records (default 100_000; 0 keeps none). */
  capacity?: number;
}

export type TraceListener = (ev: TraceEvent) => void;

/**
 * A string that recurs in records (a kind, an actor, a detail part) with its two lane hashes
 * computed once, for callers that keep it (the network keeps one per endpoint): folding it needs no
 * memo lookup. Its hash is the one the memo would give, so the trace hash is the same either way.
 */
export interface TraceToken {
  readonly text: string;
  readonly a: number;
  readonly b: number;
}

const BASIS_A = 0x811c9dc5;
const BASIS_B = 0x9e3779b9;
const PRIME_A = 0x01000193;
const PRIME_B = 0x5bd1e995;
const TWO_POW_32 = 4294967296;
const DETAIL_END = 0x0a;
/** Distinct kinds and actors remembered before the memo starts over (a run has a few hundred). */
const MEMO_LIMIT = 65_536;

export class Trace {
  readonly enabled: boolean;
  readonly detail: boolean;
  readonly capacity: number;
  // The ring as parallel arrays rather than one object per record: at hundreds of records per
  // simulated second, objects that live for 100,000 records each got copied out of the young
  // generation and later swept from the old one, a quarter of an idle cluster's CPU.
  private readonly ringTime: Float64Array;
  private readonly ringKind: string[] = [];
  private readonly ringActor: string[] = [];
  private readonly ringDetail: string[] = [];
  /** The second part of a recordJoined detail ('' otherwise): both parts are long-lived shared
   * strings, so keeping them apart allocates nothing per record (a joined string per record lived
   * long enough in the ring to be copied out of the young generation, then swept from the old). */
  private readonly ringTail: string[] = [];
  /** Index of the oldest record once the ring is full. */
  private ringStart = 0;
  private hashA = BASIS_A;
  private hashB = BASIS_B;
  /** string -> its slot in laneA/laneB, which hold its two lane hashes (one lookup per string, no pair allocated). */
  private readonly memo = new Map<string, number>();
  private laneA = new Int32Array(256);
  private laneB = new Int32Array(256);
  private total = 0;
  private readonly listeners: TraceListener[] = [];

  constructor(options: TraceOptions = {}) {
    this.enabled = options.enabled ?? true;
    this.detail = this.enabled && (options.detail ?? true);
    this.capacity = options.capacity ?? 100_000;
    this.ringTime = new Float64Array(this.enabled ? this.capacity : 0);
  }

  /** Number of records made since the start (including any the ring buffer dropped). */
  get count(): number {
    return this.total;
  }

  record(timeMs: number, kind: string, actor: string, detail = ''): void {
    if (!this.enabled) return;
    const d = this.detail ? detail : '';
    this.total++;
    this.foldHead(timeMs, kind, actor);
    let a = this.hashA;
    let b = this.hashB;
    for (let i = 0; i < d.length; i++) {
      const c = d.charCodeAt(i);
      a = Math.imul(a ^ c, PRIME_A);
      b = Math.imul(b ^ c, PRIME_B);
    }
    this.hashA = Math.imul(a ^ DETAIL_END, PRIME_A);
    this.hashB = Math.imul(b ^ DETAIL_END, PRIME_B);
    if (this.capacity > 0) this.keep(timeMs, kind, actor, d);
    if (this.listeners.length === 0) return;
    const ev: TraceEvent = { timeMs, kind, actor, detail: d };
    for (const l of this.listeners) l(ev);
  }

  /**
   * record() with the detail `head + tail`, both strings that recur (see the header): hashing their
   * memoized hashes instead of every unit keeps per-message tracing cheap.
   */
  recordJoined(timeMs: number, kind: string, actor: string, head: string, tail: string): void {
    if (!this.enabled) return;
    if (!this.detail) return this.record(timeMs, kind, actor);
    this.total++;
    this.foldHead(timeMs, kind, actor);
    this.foldString(head);
    this.foldString(tail);
    this.hashA = Math.imul(this.hashA ^ DETAIL_END, PRIME_A);
    this.hashB = Math.imul(this.hashB ^ DETAIL_END, PRIME_B);
    if (this.capacity > 0) this.keep(timeMs, kind, actor, head, tail);
    if (this.listeners.length === 0) return;
    const ev: TraceEvent = { timeMs, kind, actor, detail: head + tail };
    for (const l of this.listeners) l(ev);
  }

  /** `s` with its lane hashes, for recordTokens. */
  token(s: string): TraceToken {
    return Object.freeze({ text: s, a: laneHash(s, BASIS_A, PRIME_A), b: laneHash(s, BASIS_B, PRIME_B) });
  }

  /**
   * recordJoined(timeMs, kind.text, actor.text, head.text, tail), folding the tokens' precomputed
   * hashes: the network's two records per message look up only their tail.
   */
  recordTokens(timeMs: number, kind: TraceToken, actor: TraceToken, head: TraceToken, tail: string): void {
    if (!this.enabled) return;
    if (!this.detail) return this.record(timeMs, kind.text, actor.text);
    this.total++;
    const high = timeMs >= TWO_POW_32 ? Math.floor(timeMs / TWO_POW_32) : 0;
    const low = timeMs >>> 0;
    let a = Math.imul(Math.imul(this.hashA ^ high, PRIME_A) ^ low, PRIME_A);
    let b = Math.imul(Math.imul(this.hashB ^ high, PRIME_B) ^ low, PRIME_B);
    a = Math.imul(Math.imul(Math.imul(a ^ kind.a, PRIME_A) ^ actor.a, PRIME_A) ^ head.a, PRIME_A);
    b = Math.imul(Math.imul(Math.imul(b ^ kind.b, PRIME_B) ^ actor.b, PRIME_B) ^ head.b, PRIME_B);
    this.hashA = a;
    this.hashB = b;
    this.foldString(tail);
    this.hashA = Math.imul(this.hashA ^ DETAIL_END, PRIME_A);
    this.hashB = Math.imul(this.hashB ^ DETAIL_END, PRIME_B);
    if (this.capacity > 0) this.keep(timeMs, kind.text, actor.text, head.text, tail);
    if (this.listeners.length === 0) return;
    const ev: TraceEvent = { timeMs, kind: kind.text, actor: actor.text, detail: head.text + tail };
    for (const l of this.listeners) l(ev);
  }

  /** The kept records, oldest first. */
  events(): TraceEvent[] {
    const n = this.ringKind.length;
    const out: TraceEvent[] = [];
    for (let k = 0; k < n; k++) {
      const i = (this.ringStart + k) % n;
      out.push({ timeMs: this.ringTime[i]!, kind: this.ringKind[i]!, actor: this.ringActor[i]!, detail: this.ringDetail[i]! + this.ringTail[i]! });
    }
    return out;
  }

  /** The hash of every record so far, as 16 hex digits (lane A, then lane B). */
  hash(): string {
    return (this.hashA >>> 0).toString(16).padStart(8, '0') + (this.hashB >>> 0).toString(16).padStart(8, '0');
  }

  /** Calls `listener` for every later record; returns the unsubscribe function. */
  subscribe(listener: TraceListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private keep(timeMs: number, kind: string, actor: string, detail: string, tail = ''): void {
    if (this.ringKind.length < this.capacity) {
      this.ringTime[this.ringKind.length] = timeMs;
      this.ringKind.push(kind);
      this.ringActor.push(actor);
      this.ringDetail.push(detail);
      this.ringTail.push(tail);
      return;
    }
    const i = this.ringStart;
    this.ringTime[i] = timeMs;
    this.ringKind[i] = kind;
    this.ringActor[i] = actor;
    this.ringDetail[i] = detail;
    this.ringTail[i] = tail;
    this.ringStart = (i + 1) % this.capacity;
  }


  /** Folds what every record starts with: the time's high and low 32 bits, then kind and actor. */
  private foldHead(timeMs: number, kind: string, actor: string): void {
    const high = timeMs >= TWO_POW_32 ? Math.floor(timeMs / TWO_POW_32) : 0;
    const low = timeMs >>> 0;
    this.hashA = Math.imul(Math.imul(this.hashA ^ high, PRIME_A) ^ low, PRIME_A);
    this.hashB = Math.imul(Math.imul(this.hashB ^ high, PRIME_B) ^ low, PRIME_B);
    this.foldString(kind);
    this.foldString(actor);
  }

  /** Folds a string's memoized lane hashes (one word per lane). */
  private foldString(s: string): void {
    const slot = this.memo.get(s) ?? this.remember(s);
    this.hashA = Math.imul(this.hashA ^ this.laneA[slot]!, PRIME_A);
    this.hashB = Math.imul(this.hashB ^ this.laneB[slot]!, PRIME_B);
  }

  /** Computes and memoizes both lanes' hash of a kind or actor string; returns its slot. */
  private remember(s: string): number {
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    const a = laneHash(s, BASIS_A, PRIME_A);
    const b = laneHash(s, BASIS_B, PRIME_B);
    const slot = this.memo.size;
    if (slot === this.laneA.length) {
      const grownA = new Int32Array(slot * 2);
      const grownB = new Int32Array(slot * 2);
      grownA.set(this.laneA);
      grownB.set(this.laneB);
      this.laneA = grownA;
      this.laneB = grownB;
    }
    this.laneA[slot] = a;
    this.laneB[slot] = b;
    this.memo.set(s, slot);
    return slot;
  }
}

/** One lane's hash of a string: its UTF-16 units folded from the lane's basis. */
function laneHash(s: string, basis: number, prime: number): number {
  let h = basis;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), prime);
  return h;
}
