/**
 * The Raft log as one node sees it: stable entries in Storage, unstable ones in memory, plus the
 * commit and applied indexes. Mirrors etcd-io/raft log.go.
 * Invariants: applied <= committed <= lastIndex(); committed entries are never truncated.
 */
import type { Storage, StorageError } from './storage.ts';
import type { Entry, Snapshot } from './types.ts';
import { Unstable } from './unstable.ts';

/** An empty list of entries, shared (so frozen) rather than allocated for every Ready. */
const NO_ENTRIES: Entry[] = Object.freeze([]) as unknown as Entry[];

export class RaftLog {
  readonly storage: Storage;
  readonly unstable: Unstable;
  /** Highest index known to be stored on a quorum. */
  committed: number;
  /** Highest index the application has applied to its state machine. */
  applied: number;

  constructor(storage: Storage) {
    this.storage = storage;
    this.unstable = new Unstable(storage.lastIndex() + 1);
    // Everything up to the snapshot is applied (the state machine restarts from the snapshot).
    // Our MemoryStorage may keep catch-up entries behind its snapshot, unlike etcd's restart from
    // snapshot + WAL, so the snapshot index, not firstIndex - 1, is the floor here.
    const floor = Math.max(storage.firstIndex() - 1, storage.snapshot().metadata.index);
    this.committed = floor;
    this.applied = floor;
  }

  firstIndex(): number {
    return this.unstable.maybeFirstIndex() ?? this.storage.firstIndex();
  }

  lastIndex(): number {
    return this.unstable.maybeLastIndex() ?? this.storage.lastIndex();
  }

  /** Term of entry i; 0 past the end; 'ErrCompacted' before the first index (minus the dummy). */
  term(i: number): number | StorageError {
    const dummy = this.firstIndex() - 1;
    if (i < dummy) return 'ErrCompacted';
    if (i > this.lastIndex()) return 0;
    const t = this.unstable.maybeTerm(i);
    if (t !== undefined) return t;
    return this.storage.term(i);
  }

  /** term(i), with a compacted/unavailable entry counted as term 0. */
  termOrZero(i: number): number {
    const t = this.term(i);
    return typeof t === 'number' ? t : 0;
  }

  lastTerm(): number {
    const t = this.term(this.lastIndex());
    if (typeof t !== 'number')
      throw new Error(`invariant violated: term of the last entry is unknown (${t})`);
    return t;
  }

  matchTerm(i: number, term: number): boolean {
    const t = this.term(i);
    return typeof t === 'number' && t === term;
  }

  /** Raft paper 5.4.1: a candidate's log (lastTerm, lastIndex) is at least as up-to-date as ours. */
  isUpToDate(lasti: number, term: number): boolean {
    const ourTerm = this.lastTerm();
    return term > ourTerm || (term === ourTerm && lasti >= this.lastIndex());
  }

  /**
   * Follower side of MsgApp (Raft paper 5.3): if our log has (index, logTerm), append ents
   * (truncating a conflicting suffix) and move commit forward. Returns the new last index, or
   * undefined if the consistency check failed.
   */
  maybeAppend(
    index: number,
    logTerm: number,
    committed: number,
    ents: Entry[],
  ): number | undefined {
    if (!this.matchTerm(index, logTerm)) return undefined;
    const lastNew = index + ents.length;
    const ci = this.findConflict(ents);
    if (ci !== 0) {
      if (ci <= this.committed) {
        throw new Error(
          `invariant violated: entry ${ci} conflicts with committed entry [committed(${this.committed})]`,
        );
      }
      this.append(ents.slice(ci - (index + 1)));
    }
    this.commitTo(Math.min(committed, lastNew));
    return lastNew;
  }

  append(ents: readonly Entry[]): number {
    if (ents.length === 0) return this.lastIndex();
    const after = ents[0]!.index - 1;
    if (after < this.committed) {
      throw new Error(
        `invariant violated: appending after ${after} would truncate committed(${this.committed})`,
      );
    }
    this.unstable.truncateAndAppend(ents);
    return this.lastIndex();
  }

  /** The index of the first entry in ents that conflicts with (or extends) our log; 0 if none. */
  findConflict(ents: readonly Entry[]): number {
    // an index loop: an empty append (a commit update, a probe) carries the shared frozen empty
    // list, which for-of walks on V8's slow path
    for (let i = 0; i < ents.length; i++) {
      const e = ents[i]!;
      if (!this.matchTerm(e.index, e.term)) return e.index;
    }
    return 0;
  }

  /**
   * The fast back-up of a rejected append (mirrors log.go findConflictByTerm): the largest index
   * <= `index` whose term is <= `term`, with that term. A follower sends it as a reject hint; the
   * leader uses it to skip a whole conflicting term in one round trip instead of one entry per trip.
   */
  findConflictByTerm(index: number, term: number): { index: number; term: number } {
    for (; index > 0; index--) {
      const t = this.term(index);
      if (typeof t !== 'number') return { index, term: 0 };
      if (t <= term) return { index, term: t };
    }
    return { index: 0, term: 0 };
  }

  unstableEntries(): Entry[] {
    return this.unstable.entries.length === 0 ? NO_ENTRIES : this.unstable.entries.slice();
  }

  /** Committed entries not yet applied (starting at max(applied + 1, firstIndex)). */
  nextCommittedEnts(): Entry[] {
    const off = Math.max(this.applied + 1, this.firstIndex());
    if (this.committed + 1 > off) {
      const ents = this.slice(off, this.committed + 1, Number.MAX_SAFE_INTEGER);
      if (typeof ents === 'string')
        throw new Error(`invariant violated: unexpected ${ents} getting unapplied entries`);
      return ents;
    }
    return NO_ENTRIES;
  }

  hasNextCommittedEnts(): boolean {
    return this.committed + 1 > Math.max(this.applied + 1, this.firstIndex());
  }

  snapshot(): Snapshot {
    return this.unstable.snapshot ?? this.storage.snapshot();
  }

  commitTo(toCommit: number): void {
    if (this.committed >= toCommit) return; // never decrease commit
    if (this.lastIndex() < toCommit) {
      throw new Error(
        `invariant violated: tocommit(${toCommit}) is out of range [lastIndex(${this.lastIndex()})]. Was the raft log corrupted, truncated, or lost?`,
      );
    }
    this.committed = toCommit;
  }

  appliedTo(i: number): void {
    if (i === 0) return;
    if (this.committed < i || i < this.applied) {
      throw new Error(
        `invariant violated: applied(${i}) is out of range [prevApplied(${this.applied}), committed(${this.committed})]`,
      );
    }
    this.applied = i;
  }

  stableTo(i: number, t: number): void {
    this.unstable.stableTo(i, t);
  }

  stableSnapTo(i: number): void {
    this.unstable.stableSnapTo(i);
  }

  /**
   * Leader commit rule (Raft paper 5.4.2, Figure 8): move commit to maxIndex only if the entry there
   * is from the leader's current term. Older-term entries become committed indirectly, by the
   * Log Matching property, once a current-term entry after them is committed.
   */
  maybeCommit(maxIndex: number, term: number): boolean {
    if (maxIndex > this.committed && this.termOrZero(maxIndex) === term) {
      this.commitTo(maxIndex);
      return true;
    }
    return false;
  }

  restore(s: Snapshot): void {
    this.committed = s.metadata.index;
    this.unstable.restore(s);
  }

  /** Entries from i to the end, at most maxEntries. */
  entries(i: number, maxEntries: number): Entry[] | StorageError {
    if (i > this.lastIndex()) return [];
    return this.slice(i, this.lastIndex() + 1, maxEntries);
  }

  /** Every entry in the log (stable and unstable), for checkers. */
  allEntries(): Entry[] {
    const r = this.entries(this.firstIndex(), Number.MAX_SAFE_INTEGER);
    return typeof r === 'string' ? [] : r;
  }

  /** Entries in [lo, hi), at most maxEntries (at least one), from storage then unstable. */
  slice(lo: number, hi: number, maxEntries: number): Entry[] | StorageError {
    if (lo > hi) throw new Error(`invariant violated: invalid slice ${lo} > ${hi}`);
    const first = this.firstIndex();
    if (lo < first) return 'ErrCompacted';
    const length = this.lastIndex() + 1 - first;
    if (hi > first + length)
      throw new Error(
        `invariant violated: slice[${lo},${hi}) out of bound [${first},${this.lastIndex()}]`,
      );
    if (lo === hi) return [];
    const limit = Math.max(1, maxEntries);
    let ents: Entry[] = [];
    const uOff = this.unstable.offset;
    if (lo < uOff) {
      const stored = this.storage.entries(lo, Math.min(hi, uOff), limit);
      if (stored === 'ErrCompacted') return stored;
      if (stored === 'ErrUnavailable') {
        throw new Error(
          `invariant violated: entries[${lo}:${Math.min(hi, uOff)}) is unavailable from storage`,
        );
      }
      if (stored.length < Math.min(hi, uOff) - lo || stored.length >= limit)
        return stored.slice(0, limit);
      ents = stored;
    }
    if (hi > uOff) {
      const u = this.unstable.slice(Math.max(lo, uOff), hi);
      ents = ents.length > 0 ? ents.concat(u) : u;
    }
    return ents.length > limit ? ents.slice(0, limit) : ents;
  }
}
