// Raft paper 5.3 (log replication: log matching, conflict back-up) and 5.4.2 (committing entries
// from previous terms: Figure 8), as tables and transcripts over direct Raft state machines.
import { describe, expect, it } from 'vitest';
import {
  TestNetwork,
  hup,
  newTestRaft,
  prop,
  readMessages,
  storageWithTerms,
} from './test-network.ts';
import { newMessage, type Entry } from './types.ts';
import type { Raft } from './raft.ts';

const terms = (r: Raft): number[] => r.raftLog.allEntries().map((e) => e.term);
const ents = (...pairs: [number, number][]): Entry[] =>
  pairs.map(([index, term]) => ({ index, term, type: 'EntryNormal', data: `t${term}i${index}` }));

/** Makes r the leader of `term` directly (as if it had won), then drains its messages. */
function forceLeader(r: Raft, term: number): void {
  r.becomeFollower(term - 1, '');
  r.becomeCandidate();
  r.becomeLeader();
  readMessages(r);
}

describe('Raft paper 5.3: log replication', () => {
  it('5.3: a leader appends a proposal to its log and sends it to every follower', () => {
    const r = newTestRaft('n1', ['n1', 'n2', 'n3']);
    forceLeader(r, 1);
    r.step(prop('n1', 'x'));
    expect(r.raftLog.lastIndex()).toBe(2); // 1 is the leader's empty entry
    const msgs = readMessages(r);
    expect(
      msgs.map((m) => [m.type, m.to, m.index, m.logTerm, m.entries.map((e) => e.data)]),
    ).toEqual([
      ['MsgApp', 'n2', 0, 0, ['', 'x']],
      ['MsgApp', 'n3', 0, 0, ['', 'x']],
    ]);
  });

  it('5.3: an entry is committed once a majority stores it, and the commit index reaches followers', () => {
    const rs = ['n1', 'n2', 'n3'].map((id) => newTestRaft(id, ['n1', 'n2', 'n3']));
    const net = new TestNetwork(rs);
    net.send(hup('n1'));
    net.send(prop('n1', 'x'));
    expect(rs[0]!.raftLog.committed).toBe(2);
    // Followers learn the commit index with the next append or heartbeat.
    net.send(newMessage({ type: 'MsgBeat', from: 'n1', to: 'n1' }));
    expect(rs.map((r) => r.raftLog.committed)).toEqual([2, 2, 2]);
  });

  // mirrors TestFollowerAppendEntries: follower log [1:1, 2:2]; MsgApp (index, logTerm, entries)
  const appendTable: [string, number, number, Entry[], number[]][] = [
    ['appends after a matching entry', 2, 2, ents([3, 3]), [1, 2, 3]],
    ['replaces a conflicting suffix', 1, 1, ents([2, 3], [3, 4]), [1, 3, 4]],
    ['keeps entries that already match', 0, 0, ents([1, 1]), [1, 2]],
    ['replaces everything on a conflict at 1', 0, 0, ents([1, 3]), [3]],
  ];
  for (const [name, index, logTerm, entries, want] of appendTable) {
    it(`5.3: a follower ${name}`, () => {
      const r = newTestRaft('n1', ['n1', 'n2'], {
        storage: storageWithTerms(['n1', 'n2'], [1, 2]),
      });
      r.becomeFollower(2, 'n2');
      r.step(
        newMessage({ type: 'MsgApp', from: 'n2', to: 'n1', term: 2, logTerm, index, entries }),
      );
      expect(terms(r)).toEqual(want);
      const resp = readMessages(r);
      expect(resp.map((m) => [m.type, m.reject])).toEqual([['MsgAppResp', false]]);
    });
  }

  // mirrors TestFollowerCheckMsgApp: follower log [1:1, 2:2], committed 1
  const checkTable: [string, number, number, boolean, number, number][] = [
    ['match at the start', 0, 0, false, 0, 0],
    ['match at a committed entry', 1, 1, false, 0, 0],
    ['match at the last entry', 2, 2, false, 0, 0],
    ['term mismatch at an existing index', 2, 3, true, 2, 2],
    ['index past the end of the log', 3, 3, true, 2, 2],
  ];
  for (const [name, index, logTerm, reject, hintIndex, hintTerm] of checkTable) {
    it(`5.3: consistency check, ${name} -> ${reject ? `reject with hint ${hintIndex}/${hintTerm}` : 'accept'}`, () => {
      const s = storageWithTerms(['n1', 'n2'], [1, 2]);
      s.setHardState({ term: 2, vote: '', commit: 1 });
      const r = newTestRaft('n1', ['n1', 'n2'], { storage: s });
      r.step(
        newMessage({ type: 'MsgApp', from: 'n2', to: 'n1', term: 2, logTerm, index, commit: 1 }),
      );
      const [m] = readMessages(r);
      expect(m!.reject).toBe(reject);
      if (reject)
        expect([m!.index, m!.rejectHint, m!.logTerm]).toEqual([index, hintIndex, hintTerm]);
    });
  }

  // Figure 7: the leader of term 8 and six possible followers.
  const leaderLog = [1, 1, 1, 4, 4, 5, 5, 6, 6, 6];
  const figure7: [string, number[], number][] = [
    ['(a) missing one entry', [1, 1, 1, 4, 4, 5, 5, 6, 6], 1],
    ['(b) missing many entries', [1, 1, 1, 4], 1],
    ['(c) one extra uncommitted entry', [1, 1, 1, 4, 4, 5, 5, 6, 6, 6, 6], 1],
    ['(d) two extra entries of a later term', [1, 1, 1, 4, 4, 5, 5, 6, 6, 6, 7, 7], 1],
    ['(e) extra entries of term 4, missing others', [1, 1, 1, 4, 4, 4, 4], 1],
    [
      '(f) many entries of terms 2 and 3 the leader never had',
      [1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3],
      1,
    ],
  ];
  for (const [name, followerLog, maxRejects] of figure7) {
    it(`5.3 Figure 7 ${name}: the leader brings the follower's log to match its own, backing up fast`, () => {
      const voters = ['n1', 'n2', 'n3'];
      const leader = newTestRaft('n1', voters, { storage: storageWithTerms(voters, leaderLog, 8) });
      leader.raftLog.commitTo(10);
      const follower = newTestRaft('n2', voters, {
        storage: storageWithTerms(voters, followerLog, 7),
      });
      const twin = newTestRaft('n3', voters, { storage: storageWithTerms(voters, leaderLog, 7) });
      const net = new TestNetwork([leader, follower, twin]);
      net.send(hup('n1')); // n3 (same log) votes for n1; (d)'s follower may refuse
      expect(leader.state).toBe('StateLeader');
      net.send(prop('n1', 'new'));
      expect(terms(follower)).toEqual(terms(leader));
      expect(terms(leader)).toEqual([...leaderLog, 9, 9]);
      // Fast back-up (findConflictByTerm): one rejection skips each conflicting term at once.
      const rejects = net.delivered.filter(
        (m) => m.type === 'MsgAppResp' && m.reject && m.from === 'n2',
      ).length;
      expect(rejects).toBeLessThanOrEqual(maxRejects);
    });
  }

  it('5.3: without the term hint, backing up over 50 conflicting entries would take 50 round trips; with it, one', () => {
    const voters = ['n1', 'n2'];
    const leader = newTestRaft('n1', voters, {
      storage: storageWithTerms(voters, [1, ...Array<number>(50).fill(3)], 4),
    });
    const follower = newTestRaft('n2', voters, {
      storage: storageWithTerms(voters, [1, ...Array<number>(50).fill(2)], 3),
    });
    const net = new TestNetwork([leader, follower]);
    net.send(hup('n1'));
    expect(leader.state).toBe('StateLeader');
    expect(terms(follower)).toEqual(terms(leader));
    expect(net.delivered.filter((m) => m.type === 'MsgAppResp' && m.reject).length).toBe(1);
  });
});

describe('Raft paper 5.4.2: committing entries from previous terms', () => {
  // mirrors TestLeaderOnlyCommitsLogFromCurrentTerm: leader log [1:1, 2:2], elected in term 3
  // (appending 3:3). [acknowledged index from both followers, expected commit]
  const table: [number, number][] = [
    [1, 0], // an old-term entry on a majority is NOT committed by counting
    [2, 0],
    [3, 3], // the current-term entry commits, and everything before it
  ];
  for (const [acked, commit] of table) {
    it(`5.4.2: followers acknowledging index ${acked} -> commit ${commit}`, () => {
      const voters = ['n1', 'n2', 'n3'];
      const r = newTestRaft('n1', voters, { storage: storageWithTerms(voters, [1, 2], 2) });
      forceLeader(r, 3);
      expect(terms(r)).toEqual([1, 2, 3]);
      r.step(newMessage({ type: 'MsgAppResp', from: 'n2', to: 'n1', term: 3, index: acked }));
      r.step(newMessage({ type: 'MsgAppResp', from: 'n3', to: 'n1', term: 3, index: acked }));
      expect(r.raftLog.committed).toBe(commit);
    });
  }

  it('5.4.2 Figure 8: an old-term entry stored on a majority is not committed, and may be overwritten', () => {
    const ids = ['n1', 'n2', 'n3', 'n4', 'n5'];
    // maxEntriesPerMsg 1 lets the transcript choose exactly which entries reach whom.
    const rs = ids.map((id) => newTestRaft(id, ids, { maxEntriesPerMsg: 1 }));
    const [s1, s2, s3, , s5] = rs as [Raft, Raft, Raft, Raft, Raft];
    const net = new TestNetwork(rs);
    net.send(hup('n1')); // term 1: n1 leads; its empty entry 1 commits everywhere
    expect(rs.map((r) => terms(r))).toEqual(ids.map(() => [1]));

    // (a) n1 leads term 2 and gets its term-2 entry (index 2) only to n2.
    net.dropIf((m) => m.from === 'n1' && m.type === 'MsgApp' && ['n3', 'n4', 'n5'].includes(m.to));
    s1.becomeFollower(s1.term, ''); // n1 restarts and times out first
    net.send(hup('n1'));
    expect([s1.state, s1.term]).toEqual(['StateLeader', 2]);
    expect(rs.map((r) => terms(r))).toEqual([[1, 2], [1, 2], [1], [1], [1]]);

    // (b) n1 crashes; n5 wins term 3 with votes from n3 and n4, and appends index 2 in term 3 locally.
    net.recover();
    net.isolate('n1');
    net.dropIf((m) => m.from === 'n5' && m.type === 'MsgApp');
    net.send(hup('n5'));
    expect([s5.state, s5.term]).toEqual(['StateLeader', 3]);
    expect(terms(s5)).toEqual([1, 3]);

    // (c) n5 crashes; n1 comes back and wins term 4 (after one lost attempt that teaches it term 3).
    // It replicates its term-2 entry to n3: index 2 is now on a majority (n1, n2, n3)...
    net.recover();
    net.isolate('n5');
    // The term-4 entry gets lost in flight (stripped from every append), everything else flows.
    net.dropIf((m) => {
      if (m.from === 'n1' && m.type === 'MsgApp') m.entries = m.entries.filter((e) => e.term !== 4);
      return false;
    });
    s1.becomeFollower(s1.term, ''); // a restarted node is a follower
    net.send(hup('n1'));
    net.send(hup('n1'));
    expect([s1.state, s1.term]).toEqual(['StateLeader', 4]);
    expect([terms(s1), terms(s2), terms(s3)]).toEqual([
      [1, 2, 4],
      [1, 2],
      [1, 2],
    ]);
    // ...but it is NOT committed: it is from term 2, and n1 leads term 4.
    expect(s1.raftLog.committed).toBe(1);

    // (d) n1 crashes again; n5 (last log term 3 > 2) wins term 5 with n2, n3 and n4, and
    // overwrites index 2 everywhere. Had (c) committed index 2, a committed entry would be lost.
    net.recover();
    net.isolate('n1');
    s5.becomeFollower(s5.term, '');
    net.send(hup('n5'));
    net.send(hup('n5'));
    expect([s5.state, s5.term]).toEqual(['StateLeader', 5]);
    net.send(newMessage({ type: 'MsgBeat', from: 'n5', to: 'n5' }));
    expect(rs.slice(1).map((r) => terms(r))).toEqual(ids.slice(1).map(() => [1, 3, 5]));
  });

  it('5.4.2 Figure 8 (e): once the leader commits an entry of its own term, the old entry is safe', () => {
    const ids = ['n1', 'n2', 'n3', 'n4', 'n5'];
    const rs = ids.map((id) => newTestRaft(id, ids));
    const [s1, , , , s5] = rs as [Raft, Raft, Raft, Raft, Raft];
    const net = new TestNetwork(rs);
    net.send(hup('n1'));
    net.dropIf((m) => m.from === 'n1' && m.type === 'MsgApp' && ['n3', 'n4', 'n5'].includes(m.to));
    s1.becomeFollower(s1.term, '');
    net.send(hup('n1'));
    net.recover();
    net.isolate('n1');
    net.dropIf((m) => m.from === 'n5' && m.type === 'MsgApp');
    net.send(hup('n5'));
    net.recover();
    net.isolate('n5');
    s1.becomeFollower(s1.term, '');
    net.send(hup('n1'));
    net.send(hup('n1'));
    // This time the term-4 entry reaches the majority too: commit covers index 2 and 3.
    expect([s1.state, s1.term, s1.raftLog.committed]).toEqual(['StateLeader', 4, 3]);
    // n5 can no longer win: n2 and n3 have a more up-to-date log (last term 4).
    net.recover();
    net.isolate('n1');
    s5.becomeFollower(s5.term, '');
    net.send(hup('n5'));
    net.send(hup('n5'));
    net.send(hup('n5'));
    expect(s5.state).not.toBe('StateLeader');
    expect(terms(s5)).toEqual([1, 3]);
  });
});
