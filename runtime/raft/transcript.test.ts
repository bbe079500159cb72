// A transcript: one election and one proposal in a 3-member cluster with PreVote, message by
// message. It doubles as lesson material for the etcd and Raft chapter (in the style of
// etcd-io/raft testdata/*.txt): every line is a message delivered, in order.
import { describe, expect, it } from 'vitest';
import { TestNetwork, hup, newTestRaft, prop } from './test-network.ts';
import { describeMessage } from './types.ts';

describe('transcript: campaign, then replicate one command', () => {
  it('reads like the protocol', () => {
    const rs = ['n1', 'n2', 'n3'].map((id) =>
      newTestRaft(id, ['n1', 'n2', 'n3'], { preVote: true }),
    );
    const net = new TestNetwork(rs);
    net.send(hup('n1'));
    net.send(prop('n1', 'x=1'));
    expect(net.delivered.map(describeMessage).join('\n')).toBe(
      [
        // n1's election timer fires (MsgHup is local). PreVote first: would you vote for me in term 1?
        'n1->n1 MsgHup term=0',
        'n1->n2 MsgPreVote term=1 logTerm=0 index=0',
        'n1->n3 MsgPreVote term=1 logTerm=0 index=0',
        'n2->n1 MsgPreVoteResp term=1 granted',
        'n3->n1 MsgPreVoteResp term=1 granted',
        // A majority would: now the real election, which bumps the term to 1 (Raft paper 5.2).
        'n1->n2 MsgVote term=1 logTerm=0 index=0',
        'n1->n3 MsgVote term=1 logTerm=0 index=0',
        'n2->n1 MsgVoteResp term=1 granted',
        'n3->n1 MsgVoteResp term=1 granted',
        // The new leader appends an empty entry of its term (5.4.2) and replicates it.
        'n1->n2 MsgApp term=1 logTerm=0 index=0 commit=0 entries=1',
        'n1->n3 MsgApp term=1 logTerm=0 index=0 commit=0 entries=1',
        'n2->n1 MsgAppResp term=1 index=1',
        'n3->n1 MsgAppResp term=1 index=1',
        // Entry 1 is on a majority: committed. An empty append tells the followers.
        'n1->n2 MsgApp term=1 logTerm=1 index=1 commit=1 entries=0',
        'n1->n3 MsgApp term=1 logTerm=1 index=1 commit=1 entries=0',
        'n2->n1 MsgAppResp term=1 index=1',
        'n3->n1 MsgAppResp term=1 index=1',
        // A client command: appended at index 2, replicated, acknowledged, committed.
        'n1->n1 MsgProp term=0',
        'n1->n2 MsgApp term=1 logTerm=1 index=1 commit=1 entries=1',
        'n1->n3 MsgApp term=1 logTerm=1 index=1 commit=1 entries=1',
        'n2->n1 MsgAppResp term=1 index=2',
        'n3->n1 MsgAppResp term=1 index=2',
        'n1->n2 MsgApp term=1 logTerm=1 index=2 commit=2 entries=0',
        'n1->n3 MsgApp term=1 logTerm=1 index=2 commit=2 entries=0',
        'n2->n1 MsgAppResp term=1 index=2',
        'n3->n1 MsgAppResp term=1 index=2',
      ].join('\n'),
    );
    expect(rs.map((r) => r.raftLog.committed)).toEqual([2, 2, 2]);
  });
});
