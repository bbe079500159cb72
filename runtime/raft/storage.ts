/**
 * Stable storage for Raft: the log, the hard state and the latest snapshot. Mirrors etcd-io/raft
 * storage.go: the Storage interface Raft reads from, and MemoryStorage, which in the simulation is
 * the process's "disk" (kept in the kernel's Disk, so it survives a crash).
 *
 * Expected failures are values: `term()` and `entries()` return 'ErrCompacted' (below the first
 * index) or 'ErrUnavailable' (past the last index) instead of throwing.
 */
import type { ConfState, Entry, HardState, Snapshot, SnapshotData } from './types.ts';
import { emptyHardState } from './types.ts';

export type StorageError = 'ErrCompacted' | 'ErrUnavailable';

export interface Storage {
  /** The saved hard state and the membership (from the latest snapshot or bootstrap). */
  initialState(): { hardState: HardState; confState: ConfState };
  /** Entries in [lo, hi), at most maxEntries of them (at least one if any exist). */
  entries(lo: number, hi: number, maxEntries: number): Entry[] | StorageError;
  /** The term of entry i; the snapshot's index is also answerable (the dummy entry). */
  term(i: number): number | StorageError;
  lastIndex(): number;
  /** Index of the first entry still in the log (snapshot index + 1). */
  firstIndex(): number;
  snapshot(): Snapshot;
}

/**
 * An in-memory log. ents[0] is a dummy entry holding the snapshot's index and term, so term(i) for
 * the last compacted index still answers (the leader needs it for the log-matching check).
 */
export class MemoryStorage implements Storage {
  hardState: HardState = emptyHardState();
  private snap: Snapshot;
  private ents: Entry[];

  /** Bootstrap storage for a cluster whose initial members are `voters`. */
  constructor(voters: string[] = []) {
    this.snap = { metadata: { index: 0, term: 0, confState: { voters: [...voters] } }, data: '' };
    this.ents = [{ term: 0, index: 0, type: 'EntryNormal', data: '' }];
  }

  initialState(): { hardState: HardState; confState: ConfState } {
    return {
      hardState: { ...this.hardState },
      confState: { voters: [...this.snap.metadata.confState.voters] },
    };
  }

  setHardState(h: HardState): void {
    this.hardState = { ...h };
  }

  entries(lo: number, hi: number, maxEntries: number): Entry[] | StorageError {
    const offset = this.ents[0]!.index;
    if (lo <= offset) return 'ErrCompacted';
    if (hi > this.lastIndex() + 1) {
      throw new Error(
        `invariant violated: entries' hi(${hi}) is out of bound lastindex(${this.lastIndex()})`,
      );
    }
    if (this.ents.length === 1) return 'ErrUnavailable';
    const end = Math.min(hi, lo + Math.max(1, maxEntries));
    return this.ents.slice(lo - offset, end - offset);
  }

  term(i: number): number | StorageError {
    const offset = this.ents[0]!.index;
    if (i < offset) return 'ErrCompacted';
    if (i - offset >= this.ents.length) return 'ErrUnavailable';
    return this.ents[i - offset]!.term;
  }

  lastIndex(): number {
    return this.ents[0]!.index + this.ents.length - 1;
  }

  firstIndex(): number {
    return this.ents[0]!.index + 1;
  }

  snapshot(): Snapshot {
    return this.snap;
  }

  /** Replaces the whole log with a snapshot received from the leader. */
  applySnapshot(snap: Snapshot): 'ErrSnapOutOfDate' | null {
    if (this.snap.metadata.index >= snap.metadata.index) return 'ErrSnapOutOfDate';
    this.snap = snap;
    this.ents = [
      { term: snap.metadata.term, index: snap.metadata.index, type: 'EntryNormal', data: '' },
    ];
    return null;
  }

  /** Records a snapshot of the state machine at applied index i (then `compact` may drop entries). */
  createSnapshot(
    i: number,
    confState: ConfState | null,
    data: SnapshotData,
  ): Snapshot | 'ErrSnapOutOfDate' {
    if (i <= this.snap.metadata.index) return 'ErrSnapOutOfDate';
    const offset = this.ents[0]!.index;
    if (i > this.lastIndex()) {
      throw new Error(
        `invariant violated: snapshot ${i} is out of bound lastindex(${this.lastIndex()})`,
      );
    }
    const cs = confState ?? this.snap.metadata.confState;
    this.snap = {
      metadata: {
        index: i,
        term: this.ents[i - offset]!.term,
        confState: { voters: [...cs.voters] },
      },
      data,
    };
    return this.snap;
  }

  /** Discards entries before compactIndex (which becomes the new dummy entry). */
  compact(compactIndex: number): 'ErrCompacted' | null {
    const offset = this.ents[0]!.index;
    if (compactIndex <= offset) return 'ErrCompacted';
    if (compactIndex > this.lastIndex()) {
      throw new Error(
        `invariant violated: compact ${compactIndex} is out of bound lastindex(${this.lastIndex()})`,
      );
    }
    const i = compactIndex - offset;
    const dummy = this.ents[i]!;
    this.ents = [
      { term: dummy.term, index: dummy.index, type: 'EntryNormal', data: '' },
      ...this.ents.slice(i + 1),
    ];
    return null;
  }

  /** Appends entries, truncating any conflicting suffix (entries must be contiguous). */
  append(entries: readonly Entry[]): void {
    if (entries.length === 0) return;
    const first = this.firstIndex();
    const last = entries[0]!.index + entries.length - 1;
    if (last < first) return; // all already compacted
    let ents = entries;
    if (first > entries[0]!.index) ents = entries.slice(first - entries[0]!.index);
    const offset = ents[0]!.index - this.ents[0]!.index;
    if (this.ents.length > offset) {
      this.ents.length = offset; // truncate the conflicting suffix
      for (const e of ents) this.ents.push(e);
    } else if (this.ents.length === offset) {
      for (const e of ents) this.ents.push(e);
    } else {
      throw new Error(
        `invariant violated: missing log entry [last: ${this.lastIndex()}, append at: ${ents[0]!.index}]`,
      );
    }
  }

  /** Every entry currently stored after the snapshot (for checkers and the UI). */
  allEntries(): Entry[] {
    return this.ents.slice(1);
  }
}
