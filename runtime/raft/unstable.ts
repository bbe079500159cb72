/**
 * Entries (and possibly a snapshot) the node has accepted but the application has not yet
 * persisted. Mirrors etcd-io/raft log_unstable.go. Invariant: entries[i] has index offset + i.
 */
import type { Entry, Snapshot } from './types.ts';

export class Unstable {
  snapshot: Snapshot | null = null;
  entries: Entry[] = [];
  offset: number;

  constructor(offset: number) {
    this.offset = offset;
  }

  maybeFirstIndex(): number | undefined {
    return this.snapshot ? this.snapshot.metadata.index + 1 : undefined;
  }

  maybeLastIndex(): number | undefined {
    if (this.entries.length > 0) return this.offset + this.entries.length - 1;
    return this.snapshot ? this.snapshot.metadata.index : undefined;
  }

  maybeTerm(i: number): number | undefined {
    if (i < this.offset) {
      if (this.snapshot && this.snapshot.metadata.index === i) return this.snapshot.metadata.term;
      return undefined;
    }
    const last = this.maybeLastIndex();
    if (last === undefined || i > last) return undefined;
    return this.entries[i - this.offset]!.term;
  }

  /** Entries up to (i, t) are now on disk. Ignored if the entry at i changed meanwhile. */
  stableTo(i: number, t: number): void {
    const gt = this.maybeTerm(i);
    if (gt === undefined) return;
    if (gt === t && i >= this.offset) {
      this.entries = this.entries.slice(i + 1 - this.offset);
      this.offset = i + 1;
    }
  }

  stableSnapTo(i: number): void {
    if (this.snapshot && this.snapshot.metadata.index === i) this.snapshot = null;
  }

  restore(s: Snapshot): void {
    this.offset = s.metadata.index + 1;
    this.entries = [];
    this.snapshot = s;
  }

  truncateAndAppend(ents: readonly Entry[]): void {
    const after = ents[0]!.index;
    if (after === this.offset + this.entries.length) {
      for (const e of ents) this.entries.push(e);
    } else if (after <= this.offset) {
      // Replace all unstable entries: the log is being truncated back before them.
      this.offset = after;
      this.entries = ents.slice();
    } else {
      // Keep [offset, after), then append.
      this.entries = this.slice(this.offset, after).concat(ents);
    }
  }

  slice(lo: number, hi: number): Entry[] {
    const upper = this.offset + this.entries.length;
    if (lo > hi || lo < this.offset || hi > upper) {
      throw new Error(
        `invariant violated: unstable.slice[${lo},${hi}) out of bound [${this.offset},${upper}]`,
      );
    }
    return this.entries.slice(lo - this.offset, hi - this.offset);
  }
}
