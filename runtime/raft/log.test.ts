// Unit tables for the log layers (mirrors etcd-io/raft log_test.go, log_unstable_test.go,
// storage_test.go) and for progress tracking (tracker/progress_test.go, inflights_test.go,
// quorum/majority.go).
import { describe, expect, it } from 'vitest';
import { Inflights, Progress } from './progress.ts';
import { RaftLog } from './raft-log.ts';
import { storageWithTerms } from './test-network.ts';
import { MemoryStorage } from './storage.ts';
import { ProgressTracker } from './tracker.ts';
import type { Entry } from './types.ts';

const ents = (...pairs: [number, number][]): Entry[] =>
  pairs.map(([index, term]) => ({ index, term, type: 'EntryNormal', data: '' }));
const termsOf = (es: Entry[]): number[] => es.map((e) => e.term);

describe('MemoryStorage', () => {
  it('append truncates a conflicting suffix and refuses gaps', () => {
    const s = storageWithTerms(['n1'], [1, 1, 2]);
    s.append(ents([2, 3], [3, 3]));
    expect(termsOf(s.allEntries())).toEqual([1, 3, 3]);
    s.append(ents([4, 3]));
    expect(s.lastIndex()).toBe(4);
    expect(() => s.append(ents([6, 3]))).toThrow(/missing log entry/);
  });

  it('entries(lo, hi, max) honors the size limit but returns at least one entry', () => {
    const s = storageWithTerms(['n1'], [1, 1, 1, 1]);
    expect((s.entries(1, 5, 2) as Entry[]).map((e) => e.index)).toEqual([1, 2]);
    expect((s.entries(1, 5, 0) as Entry[]).map((e) => e.index)).toEqual([1]);
    expect(() => s.entries(1, 7, 10)).toThrow(/out of bound/);
  });

  it('an empty storage answers ErrUnavailable past its dummy entry', () => {
    const s = new MemoryStorage(['n1']);
    expect([s.firstIndex(), s.lastIndex()]).toEqual([1, 0]);
    expect(s.term(0)).toBe(0);
    expect(s.term(1)).toBe('ErrUnavailable');
  });

  it('applySnapshot replaces the log; an older snapshot is refused', () => {
    const s = storageWithTerms(['n1'], [1, 1]);
    const snap = {
      metadata: { index: 5, term: 2, confState: { voters: ['n1', 'n2'] } },
      data: 'd',
    };
    expect(s.applySnapshot(snap)).toBeNull();
    expect([s.firstIndex(), s.lastIndex(), s.term(5)]).toEqual([6, 5, 2]);
    expect(s.initialState().confState.voters).toEqual(['n1', 'n2']);
    expect(s.applySnapshot({ ...snap, metadata: { ...snap.metadata, index: 4 } })).toBe(
      'ErrSnapOutOfDate',
    );
  });
});

describe('RaftLog', () => {
  // mirrors TestFindConflict: log [1:1, 2:2, 3:3]
  const conflicts: [string, Entry[], number][] = [
    ['no entries', [], 0],
    ['all match', ents([1, 1], [2, 2], [3, 3]), 0],
    ['matching prefix, new entries', ents([2, 2], [3, 3], [4, 4], [5, 4]), 4],
    ['conflict at 1', ents([1, 4], [2, 4]), 1],
    ['conflict at 2', ents([2, 1], [3, 4], [4, 4]), 2],
    ['conflict at 3', ents([3, 1], [4, 2], [5, 4], [6, 4]), 3],
  ];
  for (const [name, es, want] of conflicts) {
    it(`findConflict: ${name} -> ${want}`, () => {
      const l = new RaftLog(storageWithTerms(['n1'], [1, 2, 3]));
      expect(l.findConflict(es)).toBe(want);
    });
  }

  // findConflictByTerm over log [1:1, 2:2, 3:2, 4:5, 5:5] (with the snapshot dummy at 0)
  const byTerm: [number, number, number, number][] = [
    [5, 5, 5, 5],
    [5, 4, 3, 2], // skip the whole term-5 run
    [5, 2, 3, 2],
    [5, 1, 1, 1],
    [5, 0, 0, 0],
    [3, 2, 3, 2],
  ];
  for (const [index, term, wantIndex, wantTerm] of byTerm) {
    it(`findConflictByTerm(${index}, ${term}) -> ${wantIndex}/${wantTerm}`, () => {
      const l = new RaftLog(storageWithTerms(['n1'], [1, 2, 2, 5, 5]));
      expect(l.findConflictByTerm(index, term)).toEqual({ index: wantIndex, term: wantTerm });
    });
  }

  it('maybeAppend refuses to truncate committed entries (an invariant: throws)', () => {
    const s = storageWithTerms(['n1'], [1, 1, 1]);
    s.setHardState({ term: 1, vote: '', commit: 3 });
    const l = new RaftLog(s);
    l.commitTo(3);
    expect(() => l.maybeAppend(1, 1, 3, ents([2, 2]))).toThrow(/conflicts with committed entry/);
  });

  it('commitTo never moves backwards and never past the last index', () => {
    const l = new RaftLog(storageWithTerms(['n1'], [1, 1]));
    l.commitTo(2);
    l.commitTo(1);
    expect(l.committed).toBe(2);
    expect(() => l.commitTo(3)).toThrow(/out of range/);
  });

  it('stable and unstable entries read as one log', () => {
    const storage = storageWithTerms(['n1'], [1, 1]);
    const l = new RaftLog(storage);
    l.append(ents([3, 2], [4, 2]));
    expect(l.allEntries().map((e) => [e.index, e.term])).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 2],
    ]);
    expect(l.unstableEntries().map((e) => e.index)).toEqual([3, 4]);
    storage.append(l.unstableEntries()); // the application persists them, then reports it
    l.stableTo(4, 2);
    expect(l.unstableEntries()).toEqual([]);
    expect(l.lastIndex()).toBe(4);
  });

  it('the up-to-date check compares last term first, then length (5.4.1)', () => {
    const l = new RaftLog(storageWithTerms(['n1'], [1, 2, 2]));
    expect(l.isUpToDate(3, 2)).toBe(true);
    expect(l.isUpToDate(2, 2)).toBe(false);
    expect(l.isUpToDate(1, 3)).toBe(true);
    expect(l.isUpToDate(9, 1)).toBe(false);
  });
});

describe('Progress and Inflights', () => {
  // mirrors TestProgressMaybeDecr: [state, match, next, rejected, hint, changed, next after]
  const table: [Progress['state'], number, number, number, number, boolean, number][] = [
    ['StateReplicate', 5, 10, 5, 5, false, 10], // stale: rejected <= match
    ['StateReplicate', 5, 10, 4, 4, false, 10],
    ['StateReplicate', 5, 10, 9, 9, true, 6], // back to match + 1
    ['StateProbe', 0, 0, 0, 0, false, 0], // next - 1 != rejected: stale
    ['StateProbe', 0, 10, 5, 5, false, 10],
    ['StateProbe', 0, 10, 9, 9, true, 9],
    ['StateProbe', 0, 2, 1, 1, true, 1],
    ['StateProbe', 0, 1, 0, 0, true, 1], // never below 1
    ['StateProbe', 0, 10, 9, 2, true, 3], // the hint jumps back
    ['StateProbe', 0, 10, 9, 0, true, 1],
  ];
  for (const [state, match, next, rejected, hint, changed, wantNext] of table) {
    it(`maybeDecrTo in ${state} (match ${match}, next ${next}) rejected ${rejected} hint ${hint}`, () => {
      const p = new Progress(match, next, 8);
      p.state = state;
      expect(p.maybeDecrTo(rejected, hint)).toBe(changed);
      expect(p.next).toBe(wantNext);
    });
  }

  it('a probing follower is paused after one append until it answers', () => {
    const p = new Progress(0, 1, 8);
    expect(p.isPaused()).toBe(false);
    p.sentEntries(1, 1);
    expect(p.isPaused()).toBe(true);
    p.maybeUpdate(1);
    expect(p.isPaused()).toBe(false);
  });

  it('in StateReplicate the inflight window bounds optimistic sends', () => {
    const p = new Progress(0, 1, 2);
    p.becomeReplicate();
    p.sentEntries(1, 1);
    p.sentEntries(1, 2);
    expect([p.next, p.isPaused()]).toEqual([3, true]);
    p.maybeUpdate(1);
    p.inflights.freeLE(1);
    expect(p.isPaused()).toBe(false);
  });

  it('Inflights is a bounded ring: add, freeLE, full, and refuses to overflow', () => {
    const f = new Inflights(3);
    f.add(1);
    f.add(5);
    f.add(9);
    expect(f.full()).toBe(true);
    expect(() => f.add(10)).toThrow(/full inflights/);
    f.freeLE(5);
    expect(f.count).toBe(1);
    f.add(12);
    f.add(13);
    f.freeLE(12);
    expect(f.count).toBe(1);
  });

  it('becomeProbe after a snapshot resumes after the snapshot index', () => {
    const p = new Progress(3, 4, 8);
    p.becomeSnapshot(10);
    expect(p.isPaused()).toBe(true);
    p.becomeProbe();
    expect([p.state, p.next]).toEqual(['StateProbe', 11]);
  });
});

describe('quorum arithmetic', () => {
  // [match indexes, committed]: the quorum-th largest (mirrors quorum/majority.go CommittedIndex)
  const table: [number[], number][] = [
    [[5], 5],
    [[5, 3, 1], 3],
    [[1, 3, 5], 3],
    [[2, 2, 9, 0, 0], 2],
    [[9, 8, 7, 1, 1], 7],
    [[9, 8, 1, 1, 1], 1],
  ];
  for (const [matches, want] of table) {
    it(`committed index of matches ${JSON.stringify(matches)} is ${want}`, () => {
      const t = new ProgressTracker(8);
      const ids = matches.map((_, i) => `n${i + 1}`);
      t.setVoters(ids, 0);
      ids.forEach((id, i) => (t.progress.get(id)!.match = matches[i]!));
      expect(t.committed()).toBe(want);
    });
  }

  it('votes: won with a majority, lost once a majority is impossible, else pending', () => {
    const t = new ProgressTracker(8);
    t.setVoters(['n1', 'n2', 'n3', 'n4', 'n5'], 0);
    t.recordVote('n1', true);
    t.recordVote('n2', false);
    expect(t.tallyVotes()).toEqual({ granted: 1, rejected: 1, result: 'VotePending' });
    t.recordVote('n3', false);
    t.recordVote('n4', false);
    expect(t.tallyVotes().result).toBe('VoteLost');
    t.recordVote('n4', true); // a second vote from the same node does not count
    expect(t.tallyVotes().granted).toBe(1);
  });
});
