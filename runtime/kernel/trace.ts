/**
 * The trace: everything that happens in a run, as (time, kind, actor, detail) records, plus a
 * running FNV-1a 64 hash over a canonical serialization of every record ever made, so two runs can
 * be compared by one string even when the ring buffer has dropped old records.
 *
 * Canonical serialization of a record, as a sequence of 16-bit units each folded in as one FNV
 * "byte": the time as a 64-bit big-endian integer (four units), then the UTF-16 code units of
 * `${kind}\t${actor}\t${detail}\n`. With `detail: false` the detail is neither stored nor hashed
 * (it is the expensive part to build).
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

// FNV-1a 64: offset basis 0xcbf29ce484222325, prime 0x100000001b3 = 2^40 + 435.
const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
const TWO_POW_32 = 4294967296;

export class Trace {
  readonly enabled: boolean;
  readonly detail: boolean;
  readonly capacity: number;
  private readonly ring: TraceEvent[] = [];
  private ringStart = 0;
  private hashHi = OFFSET_HI;
  private hashLo = OFFSET_LO;
  private total = 0;
  private readonly listeners: TraceListener[] = [];

  constructor(options: TraceOptions = {}) {
    this.enabled = options.enabled ?? true;
    this.detail = this.enabled && (options.detail ?? true);
    this.capacity = options.capacity ?? 100_000;
  }

  /** Number of records made since the start (including any the ring buffer dropped). */
  get count(): number {
    return this.total;
  }

  record(timeMs: number, kind: string, actor: string, detail = ''): void {
    if (!this.enabled) return;
    const d = this.detail ? detail : '';
    this.total++;
    if (timeMs >= TWO_POW_32) {
      const high = Math.floor(timeMs / TWO_POW_32);
      this.mixUnit(high >>> 16);
      this.mixUnit(high & 0xffff);
    } else {
      this.mixUnit(0);
      this.mixUnit(0);
    }
    this.mixUnit(timeMs >>> 16);
    this.mixUnit(timeMs & 0xffff);
    this.mixString(kind, 9);
    this.mixString(actor, 9);
    this.mixString(d, 10);
    if (this.capacity === 0 && this.listeners.length === 0) return;
    const ev: TraceEvent = { timeMs, kind, actor, detail: d };
    this.keep(ev);
    for (const l of this.listeners) l(ev);
  }

  /** The kept records, oldest first. */
  events(): TraceEvent[] {
    return this.ring.slice(this.ringStart).concat(this.ring.slice(0, this.ringStart));
  }

  /** FNV-1a 64 of every record so far, as 16 hex digits. */
  hash(): string {
    return this.hashHi.toString(16).padStart(8, '0') + this.hashLo.toString(16).padStart(8, '0');
  }

  /** Calls `listener` for every later record; returns the unsubscribe function. */
  subscribe(listener: TraceListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private keep(ev: TraceEvent): void {
    if (this.capacity === 0) return;
    if (this.ring.length < this.capacity) {
      this.ring.push(ev);
      return;
    }
    this.ring[this.ringStart] = ev;
    this.ringStart = (this.ringStart + 1) % this.capacity;
  }

  /**
   * mixUnit over every UTF-16 unit of `s`, then over `separator`, with the state in locals (the
   * hottest loop of a run).
   */
  private mixString(s: string, separator: number): void {
    let lo = this.hashLo;
    let hi = this.hashHi;
    for (let i = 0; i <= s.length; i++) {
      const x = (lo ^ (i < s.length ? s.charCodeAt(i) : separator)) >>> 0;
      const loProduct = x * 435;
      hi = (Math.imul(hi, 435) + ((loProduct / TWO_POW_32) | 0) + (x << 8)) >>> 0;
      lo = loProduct >>> 0;
    }
    this.hashLo = lo;
    this.hashHi = hi;
  }

  /** h = (h xor unit) * (2^40 + 435) mod 2^64, on two 32-bit halves. */
  private mixUnit(unit: number): void {
    const lo = (this.hashLo ^ unit) >>> 0;
    const hi = this.hashHi;
    const loProduct = lo * 435; // < 2^41: exact in a double
    const carry = (loProduct / TWO_POW_32) | 0; // < 2^9: the |0 truncation is exact
    this.hashLo = loProduct >>> 0;
    this.hashHi = (Math.imul(hi, 435) + carry + (lo << 8)) >>> 0;
  }
}
