// Single-member membership changes (Raft thesis 4.1; mirrors etcd-io/raft ConfChange V1 handling):
// one change at a time, applied when the entry is applied, quorum recomputed at once.
import { describe, expect, it } from 'vitest';
import { createKernel } from '../kernel/index.ts';
import { LogStateMachine, SimCluster } from './sim-cluster.ts';
import { TestNetwork, hup, newTestRaft, readMessages, storageWithTerms } from './test-network.ts';
import { encodeConfChange, newMessage, decodeConfChange } from './types.ts';

const ccProp = (id: string, type: 'ConfChangeAddNode' | 'ConfChangeRemoveNode', nodeId: string) =>
  newMessage({
    type: 'MsgProp',
    from: id,
    to: id,
    entries: [
      { term: 0, index: 0, type: 'EntryConfChange', data: encodeConfChange({ type, nodeId }) },
    ],
  });

describe('conf changes', () => {
  it('a leader refuses a second change while the first is not applied (it becomes an empty entry)', () => {
    const r = newTestRaft('n1', ['n1']);
    r.step(hup('n1'));
    r.raftLog.appliedTo(r.raftLog.committed); // the empty entry of the term is applied
    r.step(ccProp('n1', 'ConfChangeAddNode', 'n2'));
    r.step(ccProp('n1', 'ConfChangeAddNode', 'n3'));
    const types = r.raftLog.allEntries().map((e) => e.type);
    expect(types).toEqual(['EntryNormal', 'EntryConfChange', 'EntryNormal']);
    expect(r.pendingConfIndex).toBe(2);
  });

  it('a new leader refuses changes until everything in its log at election time is applied', () => {
    const r = newTestRaft('n1', ['n1'], { storage: storageWithTerms(['n1'], [1]) });
    r.step(hup('n1'));
    expect(r.pendingConfIndex).toBe(1); // entry 1 might be an unapplied change
    r.step(ccProp('n1', 'ConfChangeAddNode', 'n2'));
    expect(r.raftLog.allEntries().map((e) => e.type)).toEqual([
      'EntryNormal',
      'EntryNormal',
      'EntryNormal',
    ]);
    r.raftLog.appliedTo(2);
    r.step(ccProp('n1', 'ConfChangeAddNode', 'n2'));
    expect(
      r.raftLog
        .allEntries()
        .map((e) => e.type)
        .at(-1),
    ).toBe('EntryConfChange');
  });

  it('adding a member to a single-member cluster makes commits need both', () => {
    const r = newTestRaft('n1', ['n1']);
    r.step(hup('n1'));
    r.raftLog.appliedTo(1);
    r.step(ccProp('n1', 'ConfChangeAddNode', 'n2'));
    expect(r.raftLog.committed).toBe(2); // alone, it commits the change itself
    r.applyConfChange(decodeConfChange(r.raftLog.allEntries()[1]!.data));
    r.raftLog.appliedTo(2);
    expect(r.prs.voters).toEqual(['n1', 'n2']);
    readMessages(r);
    r.step(
      newMessage({
        type: 'MsgProp',
        from: 'n1',
        to: 'n1',
        entries: [{ term: 0, index: 0, type: 'EntryNormal', data: 'x' }],
      }),
    );
    expect(r.raftLog.committed).toBe(2); // now n2 must acknowledge
    r.step(newMessage({ type: 'MsgAppResp', from: 'n2', to: 'n1', term: 1, index: 3 }));
    expect(r.raftLog.committed).toBe(3);
  });

  it('removing a silent member lowers the quorum so pending entries commit', () => {
    const ids = ['n1', 'n2', 'n3'];
    const rs = ids.map((id) => newTestRaft(id, ids));
    const net = new TestNetwork(rs);
    net.send(hup('n1'));
    const [leader] = rs;
    net.isolate('n2');
    net.isolate('n3');
    net.send(
      newMessage({
        type: 'MsgProp',
        from: 'n1',
        to: 'n1',
        entries: [{ term: 0, index: 0, type: 'EntryNormal', data: 'x' }],
      }),
    );
    expect(leader!.raftLog.committed).toBe(1);
    leader!.applyConfChange({ type: 'ConfChangeRemoveNode', nodeId: 'n3' });
    leader!.applyConfChange({ type: 'ConfChangeRemoveNode', nodeId: 'n2' });
    expect(leader!.raftLog.committed).toBe(2);
  });

  it('a leader refuses to remove the last voter', () => {
    const r = newTestRaft('n1', ['n1']);
    r.step(hup('n1'));
    r.raftLog.appliedTo(1);
    r.step(ccProp('n1', 'ConfChangeRemoveNode', 'n1'));
    expect(r.raftLog.allEntries().map((e) => e.type)).toEqual(['EntryNormal', 'EntryNormal']);
    expect(() => r.applyConfChange({ type: 'ConfChangeRemoveNode', nodeId: 'n1' })).toThrow(
      /removed all voters/,
    );
  });

  it('a leader that removed itself stays leader outside the configuration and refuses proposals', () => {
    const ids = ['n1', 'n2', 'n3'];
    const rs = ids.map((id) => newTestRaft(id, ids));
    const net = new TestNetwork(rs);
    net.send(hup('n1'));
    const leader = rs[0]!;
    leader.applyConfChange({ type: 'ConfChangeRemoveNode', nodeId: 'n1' });
    expect([leader.state, leader.prs.voters]).toEqual(['StateLeader', ['n2', 'n3']]);
    expect(
      leader.step(
        newMessage({
          type: 'MsgProp',
          from: 'n1',
          to: 'n1',
          entries: [{ term: 0, index: 0, type: 'EntryNormal', data: 'x' }],
        }),
      ),
    ).toBe('ErrProposalDropped');
  });

  it('a removed member can no longer campaign', () => {
    const r = newTestRaft('n3', ['n1', 'n2', 'n3']);
    r.applyConfChange({ type: 'ConfChangeRemoveNode', nodeId: 'n3' });
    r.step(hup('n3'));
    expect(r.state).toBe('StateFollower');
    expect(readMessages(r)).toEqual([]);
  });

  it('in a cluster: add n4, it catches up; remove the leader, the others elect a new one and go on', () => {
    const kernel = createKernel({ seed: 5 });
    const c = new SimCluster({
      kernel,
      ids: ['n1', 'n2', 'n3'],
      snapshotEvery: 10,
      snapshotCatchUpEntries: 2,
    });
    kernel.runUntil(() => c.leader() !== undefined, 1_000_000);
    kernel.runFor(500);
    for (let i = 0; i < 30; i++) c.propose(c.leader()!, `a${i}`);
    kernel.runFor(1000);
    expect(c.addMember(c.leader()!, 'n4')).toBeNull();
    kernel.runFor(2000);
    const applied = (id: string) => (c.stateMachine(id) as LogStateMachine).applied;
    expect(applied('n4')).toEqual(applied('n1'));
    expect(c.status(c.leader()!)!.progress['n4']!.match).toBe(c.status(c.leader()!)!.lastIndex);

    const old = c.leader()!;
    expect(c.removeMember(old, old)).toBeNull();
    kernel.runFor(3000);
    expect(c.isUp(old)).toBe(false); // it shut itself down 10 ticks after applying its removal
    const now = c.leader()!;
    expect(now).not.toBe(old);
    expect(Object.keys(c.status(now)!.progress).sort()).toEqual(
      ['n1', 'n2', 'n3', 'n4'].filter((id) => id !== old),
    );
    c.propose(now, 'after');
    kernel.runFor(1000);
    for (const id of ['n1', 'n2', 'n3', 'n4'].filter((x) => x !== old))
      expect(applied(id).at(-1)).toBe('after');
    // The conf change survives a restart: a restarted member replays or restores it.
    c.restart('n4');
    kernel.runFor(2000);
    expect(c.node('n4')!.raft.prs.voters).toEqual(c.node(now)!.raft.prs.voters);
  });
});
