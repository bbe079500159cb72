// Beyond the core paper: PreVote (thesis 9.6), CheckQuorum (thesis 6.2), ReadIndex (thesis 6.4),
// persistence across crashes (paper 5, Figure 2 "persistent state"), and snapshots with
// InstallSnapshot (paper 7). Direct state machines where the rule is local, SimCluster on the
// kernel where it takes time and a network to see.
import { describe, expect, it } from 'vitest';
import { createKernel } from '../kernel/index.ts';
import { RawNode } from './rawnode.ts';
import { SimCluster } from './sim-cluster.ts';
import { MemoryStorage } from './storage.ts';
import {
  TestNetwork,
  hup,
  newTestRaft,
  prop,
  readMessages,
  storageWithTerms,
} from './test-network.ts';
import { newMessage, type Message } from './types.ts';

function simCluster(seed: number, opts: { preVote?: boolean; checkQuorum?: boolean } = {}) {
  const kernel = createKernel({ seed });
  const c = new SimCluster({ kernel, ids: ['n1', 'n2', 'n3'], ...opts });
  kernel.runUntil(() => c.leader() !== undefined, 1_000_000);
  kernel.runFor(1000);
  return c;
}

describe('PreVote (thesis 9.6)', () => {
  it('a pre-candidate asks about term+1 without changing its own term or vote', () => {
    const r = newTestRaft('n1', ['n1', 'n2', 'n3'], { preVote: true });
    r.step(hup('n1'));
    expect([r.state, r.term, r.vote]).toEqual(['StatePreCandidate', 0, '']);
    expect(readMessages(r).map((m) => [m.type, m.to, m.term])).toEqual([
      ['MsgPreVote', 'n2', 1],
      ['MsgPreVote', 'n3', 1],
    ]);
  });

  it('a voter answers a PreVote without changing its term or vote', () => {
    const r = newTestRaft('n2', ['n1', 'n2', 'n3'], { preVote: true });
    r.step(newMessage({ type: 'MsgPreVote', from: 'n1', to: 'n2', term: 1 }));
    expect([r.term, r.vote]).toEqual([0, '']);
    expect(readMessages(r).map((m) => [m.type, m.term, m.reject])).toEqual([
      ['MsgPreVoteResp', 1, false],
    ]);
  });

  it('a pre-candidate that wins the PreVote runs a real election', () => {
    const rs = ['n1', 'n2', 'n3'].map((id) =>
      newTestRaft(id, ['n1', 'n2', 'n3'], { preVote: true }),
    );
    const net = new TestNetwork(rs);
    net.send(hup('n1'));
    expect([rs[0]!.state, rs[0]!.term]).toEqual(['StateLeader', 1]);
  });

  it('a partitioned follower rejoining does not disrupt the leader, and its term does not grow', () => {
    const c = simCluster(3);
    const leader = c.leader()!;
    const term = c.status(leader)!.term;
    const loner = c.ids.find((id) => id !== leader)!;
    c.kernel.net.partition([[loner], c.ids.filter((id) => id !== loner)]);
    c.kernel.runFor(5000); // many election timeouts
    expect(c.status(loner)!.term).toBe(term);
    expect(c.status(loner)!.raftState).toBe('StatePreCandidate');
    c.kernel.net.heal();
    c.kernel.runFor(2000);
    expect(c.leader()).toBe(leader);
    expect(c.ids.map((id) => c.status(id)!.term)).toEqual([term, term, term]);
  });

  it('without PreVote the same rejoin bumps the term and deposes the leader (why PreVote exists)', () => {
    const c = simCluster(3, { preVote: false });
    const leader = c.leader()!;
    const term = c.status(leader)!.term;
    const loner = c.ids.find((id) => id !== leader)!;
    c.kernel.net.partition([[loner], c.ids.filter((id) => id !== loner)]);
    c.kernel.runFor(5000);
    expect(c.status(loner)!.term).toBeGreaterThan(term + 2);
    c.kernel.net.heal();
    c.kernel.runFor(3000);
    expect(c.status(c.leader()!)!.term).toBeGreaterThan(term);
  });
});

describe('CheckQuorum (thesis 6.2)', () => {
  it('a leader that hears from no quorum for an election timeout steps down', () => {
    const r = newTestRaft('n1', ['n1', 'n2', 'n3'], { checkQuorum: true });
    r.becomeCandidate();
    r.becomeLeader();
    for (let i = 0; i < r.electionTimeout; i++) r.tick();
    expect(r.state).toBe('StateFollower');
  });

  it('a leader that hears from one follower (a quorum of 3 with itself) stays', () => {
    const r = newTestRaft('n1', ['n1', 'n2', 'n3'], { checkQuorum: true });
    r.becomeCandidate();
    r.becomeLeader();
    for (let i = 0; i < 3 * r.electionTimeout; i++) {
      r.tick();
      r.step(newMessage({ type: 'MsgHeartbeatResp', from: 'n2', to: 'n1', term: r.term }));
    }
    expect(r.state).toBe('StateLeader');
  });

  it('in a cluster, a partitioned leader steps down and the majority elects a new one', () => {
    const c = simCluster(4, { checkQuorum: true });
    const old = c.leader()!;
    const term = c.status(old)!.term;
    c.kernel.net.partition([[old], c.ids.filter((id) => id !== old)]);
    c.kernel.runFor(3000);
    expect(c.status(old)!.raftState).not.toBe('StateLeader');
    const now = c.leader()!;
    expect(now).not.toBe(old);
    expect(c.status(now)!.term).toBeGreaterThan(term);
  });

  it('without CheckQuorum the partitioned leader keeps believing it leads', () => {
    const c = simCluster(4, { checkQuorum: false });
    const old = c.leader()!;
    c.kernel.net.partition([[old], c.ids.filter((id) => id !== old)]);
    c.kernel.runFor(3000);
    expect(c.status(old)!.raftState).toBe('StateLeader');
  });

  it('a follower within its leader lease ignores vote requests of a higher term', () => {
    const r = newTestRaft('n2', ['n1', 'n2', 'n3'], { checkQuorum: true });
    r.becomeFollower(1, 'n1');
    r.step(newMessage({ type: 'MsgVote', from: 'n3', to: 'n2', term: 2, index: 5, logTerm: 1 }));
    expect([r.term, r.vote]).toEqual([1, '']);
    expect(readMessages(r)).toEqual([]);
  });
});

describe('ReadIndex (thesis 6.4)', () => {
  function elected(): { net: TestNetwork; rs: ReturnType<typeof newTestRaft>[] } {
    const rs = ['n1', 'n2', 'n3'].map((id) => newTestRaft(id, ['n1', 'n2', 'n3']));
    const net = new TestNetwork(rs);
    net.send(hup('n1'));
    net.send(prop('n1', 'x'));
    return { net, rs };
  }
  const readReq = (from: string, to: string, ctx: string): Message =>
    newMessage({
      type: 'MsgReadIndex',
      from,
      to,
      entries: [{ term: 0, index: 0, type: 'EntryNormal', data: ctx }],
    });

  it('the leader answers with its commit index after a quorum acknowledges a heartbeat', () => {
    const { net, rs } = elected();
    net.send(readReq('n1', 'n1', 'r1'));
    expect(rs[0]!.readStates).toEqual([{ index: 2, requestCtx: 'r1' }]);
    const beats = net.delivered.filter((m) => m.type === 'MsgHeartbeat' && m.context === 'r1');
    expect(beats.length).toBe(2);
  });

  it('a follower forwards the request and receives the index', () => {
    const { net, rs } = elected();
    net.send(readReq('n2', 'n2', 'r2'));
    expect(rs[1]!.readStates).toEqual([{ index: 2, requestCtx: 'r2' }]);
  });

  it('a leader that cannot reach a quorum never confirms the read', () => {
    const { net, rs } = elected();
    net.isolate('n1');
    net.send(readReq('n1', 'n1', 'r3'));
    expect(rs[0]!.readStates).toEqual([]);
  });

  it('a new leader holds reads until it has committed an entry of its own term', () => {
    const rs = ['n1', 'n2', 'n3'].map((id) => newTestRaft(id, ['n1', 'n2', 'n3']));
    const net = new TestNetwork(rs);
    net.dropIf((m) => m.type === 'MsgApp');
    net.send(hup('n1'));
    expect(rs[0]!.state).toBe('StateLeader');
    net.send(readReq('n1', 'n1', 'early'));
    expect(rs[0]!.readStates).toEqual([]);
    net.recover();
    net.send(newMessage({ type: 'MsgBeat', from: 'n1', to: 'n1' }));
    expect(rs[0]!.raftLog.committed).toBe(1);
    expect(rs[0]!.readStates).toEqual([{ index: 1, requestCtx: 'early' }]);
  });
});

describe('persistence across crashes (Raft paper 5, Figure 2)', () => {
  /** Persists every Ready to storage, returns the messages. */
  function drain(node: RawNode, storage: MemoryStorage): Message[] {
    const out: Message[] = [];
    while (node.hasReady()) {
      const rd = node.ready();
      if (rd.snapshot) storage.applySnapshot(rd.snapshot);
      storage.append(rd.entries);
      if (rd.hardState) storage.setHardState(rd.hardState);
      out.push(...rd.messages);
      node.advance();
    }
    return out;
  }
  const rng = { nextInt: () => 0 };

  it('a vote survives a crash: the restarted node will not vote twice in the same term', () => {
    const storage = new MemoryStorage(['n1', 'n2', 'n3']);
    const before = new RawNode({ id: 'n1', storage, rng, preVote: false });
    before.step(newMessage({ type: 'MsgVote', from: 'n2', to: 'n1', term: 5 }));
    expect(drain(before, storage).map((m) => [m.type, m.reject])).toEqual([['MsgVoteResp', false]]);
    const after = new RawNode({ id: 'n1', storage, rng, preVote: false }); // crash + restart
    expect([after.status().term, after.status().vote]).toEqual([5, 'n2']);
    after.step(newMessage({ type: 'MsgVote', from: 'n3', to: 'n1', term: 5 }));
    expect(drain(after, storage).map((m) => [m.type, m.reject])).toEqual([['MsgVoteResp', true]]);
  });

  it('a persisted log and commit index reload, and committed entries are handed out again to apply', () => {
    const storage = new MemoryStorage(['solo']);
    const node = new RawNode({ id: 'solo', storage, rng });
    node.campaign();
    for (const d of ['a', 'b', 'c']) node.propose(d);
    drain(node, storage);
    const restarted = new RawNode({ id: 'solo', storage, rng });
    expect([
      restarted.status().lastIndex,
      restarted.status().commit,
      restarted.status().term,
    ]).toEqual([4, 4, 1]);
    const rd = restarted.ready();
    expect(rd.committedEntries.map((e) => e.data)).toEqual(['', 'a', 'b', 'c']);
  });

  it('entries that were never persisted are gone after a crash (why Ready is persisted before sending)', () => {
    const storage = new MemoryStorage(['solo']);
    const node = new RawNode({ id: 'solo', storage, rng });
    node.campaign();
    drain(node, storage);
    node.propose('lost');
    const restarted = new RawNode({ id: 'solo', storage, rng });
    expect(restarted.status().lastIndex).toBe(1);
  });
});

describe('snapshots and InstallSnapshot (Raft paper 7)', () => {
  it('a leader whose log was compacted sends its snapshot to a follower that needs older entries', () => {
    const voters = ['n1', 'n2'];
    const ls = storageWithTerms(voters, Array<number>(10).fill(1), 1);
    ls.setHardState({ term: 1, vote: '', commit: 10 });
    ls.createSnapshot(8, null, 'state@8');
    ls.compact(8);
    const leader = newTestRaft('n1', voters, { storage: ls });
    const follower = newTestRaft('n2', voters);
    const net = new TestNetwork([leader, follower]);
    net.send(hup('n1'));
    expect(leader.state).toBe('StateLeader');
    const snaps = net.delivered.filter((m) => m.type === 'MsgSnap');
    expect(snaps.map((m) => [m.to, m.snapshot!.metadata.index, m.snapshot!.data])).toEqual([
      ['n2', 8, 'state@8'],
    ]);
    expect(follower.raftLog.firstIndex()).toBe(9);
    expect(follower.raftLog.allEntries().map((e) => e.index)).toEqual([9, 10, 11]);
    expect(follower.raftLog.committed).toBe(11);
    expect(leader.prs.progress.get('n2')!.state).toBe('StateReplicate');
  });

  it('a follower ignores a snapshot older than its commit index', () => {
    const voters = ['n1', 'n2'];
    const s = storageWithTerms(voters, [1, 1, 1], 1);
    s.setHardState({ term: 1, vote: '', commit: 3 });
    const r = newTestRaft('n2', voters, { storage: s });
    const snapshot = { metadata: { index: 2, term: 1, confState: { voters } }, data: 'old' };
    r.step(newMessage({ type: 'MsgSnap', from: 'n1', to: 'n2', term: 1, snapshot }));
    expect(r.raftLog.firstIndex()).toBe(1);
    expect(readMessages(r).map((m) => [m.type, m.index])).toEqual([['MsgAppResp', 3]]);
  });

  it('MemoryStorage answers compacted reads with ErrCompacted, as values', () => {
    const s = storageWithTerms(['n1'], [1, 1, 2, 2, 3]);
    s.createSnapshot(3, null, 'x');
    expect(s.compact(3)).toBeNull();
    expect(s.compact(2)).toBe('ErrCompacted');
    expect([s.firstIndex(), s.lastIndex()]).toEqual([4, 5]);
    expect(s.term(2)).toBe('ErrCompacted');
    expect(s.term(3)).toBe(2); // the dummy entry keeps the snapshot's term
    expect(s.entries(3, 5, 100)).toBe('ErrCompacted');
    expect((s.entries(4, 6, 100) as { index: number }[]).map((e) => e.index)).toEqual([4, 5]);
    expect(s.createSnapshot(3, null, 'y')).toBe('ErrSnapOutOfDate');
  });
});
