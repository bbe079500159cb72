// The injectable vote rule (vote-rule.ts, Config.voteRule): the built-in rule's table (etcd-io/raft
// raft_test.go TestRecvMsgVote / TestStepIgnoreOldTermMsg behaviour, log_test.go TestIsUpToDate),
// and Raft driven by the rule behaving exactly as without it.
import { describe, expect, it } from 'vitest';
import { defaultVoteRule, runRaftSchedule, type VoteRule } from './index.ts';
import { newTestRaft } from './test-network.ts';
import { newMessage } from './types.ts';

const s = (term: number, vote = '', lead = '', lastIndex = 2, lastTerm = 2) => ({ term, vote, lead, lastIndex, lastTerm });
const req = (type: 'MsgVote' | 'MsgPreVote', term: number, lastIndex = 2, lastTerm = 2, from = 'n2') => ({ type, from, term, lastIndex, lastTerm });

describe('defaultVoteRule', () => {
  it('steps down on a higher-term MsgVote first, then grants an up-to-date candidate', () => {
    expect(defaultVoteRule(s(2, 'n3', 'n3'), req('MsgVote', 3))).toEqual({ term: 3, vote: 'n2', grant: true });
  });
  it('one vote per term; the same candidate again is granted', () => {
    expect(defaultVoteRule(s(3, 'n3'), req('MsgVote', 3))).toEqual({ term: 3, vote: 'n3', grant: false });
    expect(defaultVoteRule(s(3, 'n2'), req('MsgVote', 3))).toEqual({ term: 3, vote: 'n2', grant: true });
  });
  it('last term first, then last index', () => {
    expect(defaultVoteRule(s(2), req('MsgVote', 3, 9, 1)).grant).toBe(false);
    expect(defaultVoteRule(s(2), req('MsgVote', 3, 1, 3)).grant).toBe(true);
    expect(defaultVoteRule(s(2), req('MsgVote', 3, 1, 2)).grant).toBe(false);
    expect(defaultVoteRule(s(2), req('MsgVote', 3, 2, 2)).grant).toBe(true);
  });
  it('PreVote: never changes term or vote; granted for a future term even after voting', () => {
    expect(defaultVoteRule(s(2, 'n3'), req('MsgPreVote', 3))).toEqual({ term: 2, vote: 'n3', grant: true });
    expect(defaultVoteRule(s(2, 'n3', 'n3'), req('MsgPreVote', 2))).toEqual({ term: 2, vote: 'n3', grant: false });
  });
  it('an older term is refused', () => {
    expect(defaultVoteRule(s(4), req('MsgVote', 3))).toEqual({ term: 4, vote: '', grant: false });
  });
});

describe('Raft with an injected vote rule', () => {
  it('the default rule injected behaves exactly as the built-in one (same trace, both families)', () => {
    for (const seed of [3, 11, 26, 41]) {
      for (const family of ['mixed', 'figure8'] as const) {
        const trace = { detail: true, capacity: 0 };
        const a = runRaftSchedule(seed, { family, trace });
        const b = runRaftSchedule(seed, { family, trace, voteRule: defaultVoteRule });
        expect(b.traceHash, `seed ${seed}, ${family}`).toBe(a.traceHash);
        expect(b.ok, b.message).toBe(true);
      }
    }
  });

  it('an impossible answer is refused with a clear error', () => {
    const bad: VoteRule = (st) => ({ term: st.term + 5, vote: '', grant: false });
    const r = newTestRaft('n1', ['n1', 'n2', 'n3'], { voteRule: bad });
    expect(() => r.step(newMessage({ type: 'MsgVote', from: 'n2', to: 'n1', term: 1, index: 0, logTerm: 0 }))).toThrow(
      /the vote rule answered MsgVote from n2 \(term 1\) at n1 \(term 0\) with term 5/,
    );
  });
});
