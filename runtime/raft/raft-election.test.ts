// Raft paper section 5.2 (leader election) and 5.4.1 (election restriction), as tables and
// transcripts over direct Raft state machines (mirrors etcd-io/raft raft_paper_test.go).
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from './storage.ts';
import { TestNetwork, hup, newTestRaft, readMessages, storageWithTerms } from './test-network.ts';
import { newMessage, type MessageType } from './types.ts';

const ids3 = ['n1', 'n2', 'n3'];

describe('Raft paper 5.2: leader election', () => {
  it('5.2: a follower that hears nothing for an election timeout becomes a candidate and asks for votes', () => {
    const r = newTestRaft('n1', ids3);
    for (let i = 0; i < 2 * r.electionTimeout; i++) r.tick();
    expect(r.state).toBe('StateCandidate');
    expect(r.term).toBe(1);
    expect(r.vote).toBe('n1'); // votes for itself
    const msgs = readMessages(r);
    expect(msgs.map((m) => [m.type, m.to, m.term])).toEqual([
      ['MsgVote', 'n2', 1],
      ['MsgVote', 'n3', 1],
    ]);
  });

  it('5.2: election timeouts are randomized in [electionTimeout, 2 * electionTimeout)', () => {
    const seen = new Set<number>();
    for (let seed = 1; seed <= 200; seed++) {
      const r = newTestRaft('n1', ids3, { seed });
      expect(r.randomizedElectionTimeout).toBeGreaterThanOrEqual(10);
      expect(r.randomizedElectionTimeout).toBeLessThan(20);
      seen.add(r.randomizedElectionTimeout);
    }
    expect(seen.size).toBe(10);
  });

  // mirrors TestLeaderElectionInOneRoundRPC: [cluster size, votes granted (besides self), expected state]
  const table: [number, Record<string, boolean>, string][] = [
    [1, {}, 'StateLeader'],
    [3, { n2: true, n3: true }, 'StateLeader'],
    [3, { n2: true }, 'StateLeader'],
    [5, { n2: true, n3: true, n4: true, n5: true }, 'StateLeader'],
    [5, { n2: true, n3: true, n4: true }, 'StateLeader'],
    [5, { n2: true, n3: true }, 'StateLeader'],
    [3, { n2: false, n3: false }, 'StateFollower'], // lost: back to follower
    [5, { n2: false, n3: false, n4: false, n5: false }, 'StateFollower'],
    [5, { n2: true, n3: false, n4: false, n5: false }, 'StateFollower'],
    [3, {}, 'StateCandidate'], // no answers yet: still waiting
    [5, { n2: true }, 'StateCandidate'],
    [5, { n2: false, n3: false }, 'StateCandidate'],
  ];
  for (const [size, votes, want] of table) {
    it(`5.2: a candidate in a ${size}-member cluster with votes ${JSON.stringify(votes)} ends ${want}`, () => {
      const ids = Array.from({ length: size }, (_, i) => `n${i + 1}`);
      const r = newTestRaft('n1', ids);
      r.step(hup('n1'));
      for (const [from, granted] of Object.entries(votes)) {
        r.step(newMessage({ type: 'MsgVoteResp', from, to: 'n1', term: r.term, reject: !granted }));
      }
      expect(r.state).toBe(want);
      expect(r.term).toBe(1);
    });
  }

  for (const state of ['follower', 'candidate', 'leader'] as const) {
    it(`5.1/5.2: a ${state} seeing a higher term becomes a follower in that term`, () => {
      const r = newTestRaft('n1', ids3);
      if (state === 'candidate') r.becomeCandidate();
      if (state === 'leader') {
        r.becomeCandidate();
        r.becomeLeader();
      }
      r.step(newMessage({ type: 'MsgApp', from: 'n2', to: 'n1', term: 5 }));
      expect(r.state).toBe('StateFollower');
      expect(r.term).toBe(5);
      expect(r.lead).toBe('n2');
    });
  }

  it('5.2: a candidate that receives an append from a leader of its own term steps down', () => {
    const r = newTestRaft('n1', ids3);
    r.step(hup('n1'));
    expect(r.state).toBe('StateCandidate');
    r.step(newMessage({ type: 'MsgApp', from: 'n2', to: 'n1', term: r.term }));
    expect(r.state).toBe('StateFollower');
    expect(r.lead).toBe('n2');
  });

  // mirrors TestFollowerVote: [vote already cast this term, request from, rejected?]
  const voteTable: [string, string, boolean][] = [
    ['', 'n2', false],
    ['', 'n3', false],
    ['n2', 'n2', false], // the same candidate again (a duplicate) gets the same answer
    ['n3', 'n3', false],
    ['n2', 'n3', true], // one vote per term
    ['n3', 'n2', true],
  ];
  for (const [vote, from, reject] of voteTable) {
    it(`5.2: a follower that voted for "${vote}" this term ${reject ? 'rejects' : 'grants'} ${from}`, () => {
      const r = newTestRaft('n1', ids3);
      r.term = 1;
      r.vote = vote;
      r.step(newMessage({ type: 'MsgVote', from, to: 'n1', term: 1 }));
      const msgs = readMessages(r);
      expect(msgs.map((m) => [m.type, m.to, m.term, m.reject])).toEqual([
        ['MsgVoteResp', from, 1, reject],
      ]);
    });
  }

  it('5.2: split votes resolve: three simultaneous candidates, nobody wins, a later timeout elects one', () => {
    const rs = ids3.map((id, i) => newTestRaft(id, ids3, { seed: 10 + i }));
    const net = new TestNetwork(rs);
    // Everyone times out at once and votes for itself: every vote request is rejected.
    for (const r of rs) r.becomeCandidate();
    const msgs = rs.flatMap((r) => {
      for (const id of ids3)
        if (id !== r.id)
          r.send(newMessage({ type: 'MsgVote', to: id, term: r.term, index: 0, logTerm: 0 }));
      return readMessages(r);
    });
    net.send(...msgs);
    // Each candidate is rejected by the other two, a majority: it has lost and steps back.
    expect(rs.map((r) => r.state)).toEqual(['StateFollower', 'StateFollower', 'StateFollower']);
    expect(rs.map((r) => [r.term, r.vote])).toEqual([
      [1, 'n1'],
      [1, 'n2'],
      [1, 'n3'],
    ]);
    // Randomized timeouts break the tie: tick everyone until someone leads.
    for (let t = 0; t < 100 && !rs.some((r) => r.state === 'StateLeader'); t++) {
      for (const r of rs) {
        r.tick();
        net.send(...readMessages(r));
      }
    }
    const leaders = rs.filter((r) => r.state === 'StateLeader');
    expect(leaders.length).toBe(1);
    expect(leaders[0]!.term).toBeGreaterThanOrEqual(2);
  });
});

describe('Raft paper 5.4.1: election restriction (up-to-date check)', () => {
  // mirrors TestVoter: voter log terms, candidate (lastLogTerm, lastIndex), rejected?
  const table: [string, number[], number, number, boolean][] = [
    ['same log', [1], 1, 1, false],
    ['candidate longer, same last term', [1], 1, 2, false],
    ['candidate shorter, same last term', [1, 1], 1, 1, true],
    ['candidate has higher last term, shorter', [1], 2, 1, false],
    ['candidate has higher last term, longer', [1], 2, 3, false],
    ['candidate has lower last term, longer', [2], 1, 5, true],
    ['candidate has lower last term, same length', [2], 1, 1, true],
    ['voter has higher last term with a longer log', [1, 2], 1, 1, true],
  ];
  for (const [name, terms, logTerm, index, reject] of table) {
    it(`5.4.1: ${name} -> ${reject ? 'reject' : 'grant'}`, () => {
      const r = newTestRaft('n1', ['n1', 'n2'], { storage: storageWithTerms(['n1', 'n2'], terms) });
      r.step(newMessage({ type: 'MsgVote', from: 'n2', to: 'n1', term: 3, logTerm, index }));
      const msgs = readMessages(r);
      expect(msgs.length).toBe(1);
      expect(msgs[0]!.type).toBe<MessageType>('MsgVoteResp');
      expect(msgs[0]!.reject).toBe(reject);
    });
  }

  it('5.4.1: a node with a stale log cannot become leader in a transcript', () => {
    const voters = ['n1', 'n2', 'n3'];
    const stale = newTestRaft('n1', voters, { storage: storageWithTerms(voters, [1]) });
    const a = newTestRaft('n2', voters, { storage: storageWithTerms(voters, [1, 2]) });
    const b = newTestRaft('n3', voters, { storage: storageWithTerms(voters, [1, 2]) });
    const net = new TestNetwork([stale, a, b]);
    net.send(hup('n1'));
    expect(stale.state).toBe('StateFollower');
    net.send(hup('n2'));
    expect(a.state).toBe('StateLeader');
  });

  it('a fresh single-member cluster elects itself at once', () => {
    const r = newTestRaft('solo', ['solo'], { storage: new MemoryStorage(['solo']) });
    r.step(hup('solo'));
    expect(r.state).toBe('StateLeader');
    expect(r.raftLog.committed).toBe(1); // its empty entry commits immediately
  });
});
