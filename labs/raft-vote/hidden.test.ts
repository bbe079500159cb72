// Hidden grading suite for the raft-vote lab. Behaviour only: a member's answer to MsgVote and
// MsgPreVote on message tables, then the learner's function answering every vote request of a
// live simulated 5-member cluster under seeded fault schedules (runtime/raft runRaftSchedule:
// crashes, partitions, lost, duplicated and reordered messages, and the 'figure8' family), watched
// by its SafetyChecker (at most one leader per term, a new leader holds every committed entry),
// and a differential property against the runtime's own rule (defaultVoteRule).
// Tables ported from etcd-io/raft raft_test.go (TestRecvMsgVote, TestStepIgnoreOldTermMsg,
// TestLeaderElectionOverwriteNewerLogs, TestPreVoteWithSplitVote, TestDuelingPreCandidates,
// TestVoteFromAnyState as behaviour) and log_test.go (TestIsUpToDate).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defaultVoteRule,
  runRaftSchedule,
  type VoteDecision,
  type VoteRequest,
  type VoteRule,
  type VoteState,
} from '../../runtime/raft/index.ts';
import { voteDecision } from '@lab/submission';

const show = (v: string) => (v === '' ? "'' (none)" : v);
const describeState = (s: VoteState) =>
  `voter n1 { term ${s.term}, vote ${show(s.vote)}, lead ${show(s.lead)}, last entry index ${s.lastIndex} term ${s.lastTerm} }`;
const describeRequest = (r: VoteRequest) =>
  `${r.type} from ${r.from} { term ${r.term}, candidate's last entry index ${r.lastIndex} term ${r.lastTerm} }`;
const describeDecision = (d: unknown) => {
  if (!d || typeof d !== 'object') return String(d);
  const x = d as Partial<VoteDecision>;
  return `{ term: ${String(x.term)}, vote: ${typeof x.vote === 'string' ? JSON.stringify(x.vote) : String(x.vote)}, grant: ${String(x.grant)} }`;
};

function call(s: VoteState, r: VoteRequest): { got?: unknown; threw?: string } {
  try {
    return { got: voteDecision(Object.freeze({ ...s }), Object.freeze({ ...r })) };
  } catch (e) {
    return { threw: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

function same(got: unknown, want: VoteDecision): boolean {
  if (!got || typeof got !== 'object') return false;
  const g = got as VoteDecision;
  return g.term === want.term && g.vote === want.vote && g.grant === want.grant;
}

function expectDecision(s: VoteState, r: VoteRequest, want: VoteDecision, why: string): void {
  const res = call(s, r);
  const input = `${describeState(s)}\nreceives ${describeRequest(r)}`;
  if (res.threw !== undefined) expect.fail(`voteDecision threw ${res.threw}\nwhen ${input}\nexpected ${describeDecision(want)}: ${why}`);
  if (!same(res.got, want)) {
    expect.fail(`when ${input}\nvoteDecision returned ${describeDecision(res.got)}\nexpected ${describeDecision(want)}: ${why}`);
  }
}

const st = (term: number, vote = '', lead = '', lastIndex = 2, lastTerm = 2): VoteState => ({ term, vote, lead, lastIndex, lastTerm });
const rq = (type: VoteRequest['type'], term: number, lastIndex: number, lastTerm: number, from = 'n2'): VoteRequest => ({ type, from, term, lastIndex, lastTerm });

// ---------------------------------------------------------------- tables

describe('is the candidate\'s log at least as up to date? (TestRecvMsgVote, TestIsUpToDate)', () => {
  // The voter's log is [1:t2, 2:t2], term 2, no vote, no leader; the candidate asks in term 2.
  // [candidate's last index, last term, granted]
  const table: [number, number, boolean][] = [
    [0, 0, false], [0, 1, false], [0, 2, false], [0, 3, true],
    [1, 0, false], [1, 1, false], [1, 2, false], [1, 3, true],
    [2, 0, false], [2, 1, false], [2, 2, true], [2, 3, true],
    [3, 0, false], [3, 1, false], [3, 2, true], [3, 3, true],
  ];
  for (const type of ['MsgVote', 'MsgPreVote'] as const) {
    for (const [index, logTerm, grant] of table) {
      it(`${type}: candidate's last entry (index ${index}, term ${logTerm}) vs the voter's (2, 2) -> ${grant ? 'grant' : 'reject'}`, () => {
        const why = grant
          ? logTerm > 2
            ? 'a newer last term wins whatever the indexes'
            : 'same last term, and the candidate\'s log is at least as long'
          : logTerm < 2
            ? 'an older last term loses whatever the indexes'
            : 'same last term, but the candidate\'s log is shorter';
        expectDecision(st(2), rq(type, 2, index, logTerm), { term: 2, vote: type === 'MsgVote' && grant ? 'n2' : '', grant }, why);
      });
    }
  }

  it('last term first: a very long log of an old term loses to a short one of a newer term', () => {
    expectDecision(st(5, '', '', 3, 4), rq('MsgVote', 6, 100, 3), { term: 6, vote: '', grant: false }, 'the candidate\'s last term 3 is older than the voter\'s 4');
    expectDecision(st(5, '', '', 100, 3), rq('MsgVote', 6, 3, 4), { term: 6, vote: 'n2', grant: true }, 'the candidate\'s last term 4 is newer than the voter\'s 3');
  });

  it('an empty log (index 0, term 0) is as up to date as another empty log', () => {
    expectDecision(st(0, '', '', 0, 0), rq('MsgVote', 1, 0, 0), { term: 1, vote: 'n2', grant: true }, 'two empty logs are equal');
  });
});

describe('one vote per term (TestRecvMsgVote, TestVoteFromAnyState)', () => {
  it('a member that voted for n2 grants n2 again (a duplicated request)', () => {
    expectDecision(st(2, 'n2'), rq('MsgVote', 2, 2, 2), { term: 2, vote: 'n2', grant: true }, 'the vote already belongs to n2');
  });
  it('a member that voted for n3 refuses n2 in the same term', () => {
    expectDecision(st(2, 'n3'), rq('MsgVote', 2, 3, 3), { term: 2, vote: 'n3', grant: false }, 'one vote per term, even for a better log');
  });
  it('a candidate or leader (voted for itself) refuses', () => {
    expectDecision(st(2, 'n1', 'n1'), rq('MsgVote', 2, 3, 3), { term: 2, vote: 'n1', grant: false }, 'n1 voted for itself in term 2');
    expectDecision(st(2, 'n1'), rq('MsgVote', 2, 3, 3), { term: 2, vote: 'n1', grant: false }, 'n1 is a candidate of term 2');
  });
  it('a member that knows the leader of this term refuses, even without having voted', () => {
    expectDecision(st(2, '', 'n3'), rq('MsgVote', 2, 3, 3), { term: 2, vote: '', grant: false }, 'n3 already leads term 2 (n1 learned it from its messages)');
  });
  it('a repeated request from the one we voted for is granted even when a leader is known', () => {
    expectDecision(st(2, 'n2', 'n2'), rq('MsgVote', 2, 2, 2), { term: 2, vote: 'n2', grant: true }, 'the vote already belongs to n2, now the leader');
  });
});

describe('terms: step down first, ignore the past (TestStepIgnoreOldTermMsg, TestLeaderElectionOverwriteNewerLogs)', () => {
  it('a MsgVote of a higher term: the voter moves to that term, forgets its old vote and leader, then decides', () => {
    expectDecision(st(2, 'n3', 'n3'), rq('MsgVote', 3, 2, 2), { term: 3, vote: 'n2', grant: true }, 'term 3 is new: no vote cast in it yet');
  });
  it('it moves to the higher term even when it refuses (the candidate\'s log is behind)', () => {
    expectDecision(st(2, 'n3', 'n3'), rq('MsgVote', 7, 1, 1), { term: 7, vote: '', grant: false }, 'the term changes first; the log check then fails');
  });
  it('a request from an older term is refused and changes nothing', () => {
    expectDecision(st(4, '', ''), rq('MsgVote', 3, 9, 3), { term: 4, vote: '', grant: false }, 'term 3 is over for n1');
    expectDecision(st(4, 'n2', ''), rq('MsgVote', 3, 9, 3), { term: 4, vote: 'n2', grant: false }, 'term 3 is over, even for the member n1 voted for in term 4');
    expectDecision(st(4), rq('MsgPreVote', 3, 9, 3), { term: 4, vote: '', grant: false }, 'a PreVote for term 3 is about the past');
  });
});

describe('PreVote (TestPreVoteWithSplitVote, TestDuelingPreCandidates)', () => {
  it('a PreVote of a higher term never changes the voter\'s term or vote', () => {
    expectDecision(st(2, 'n3'), rq('MsgPreVote', 3, 2, 2), { term: 2, vote: 'n3', grant: true }, 'granted (a future term, an up-to-date log) but nothing is recorded');
    expectDecision(st(2), rq('MsgPreVote', 3, 1, 2), { term: 2, vote: '', grant: false }, 'refused (log behind), term unchanged');
  });
  it('a PreVote for a future term is granted even after voting or with a known leader', () => {
    expectDecision(st(2, 'n3', 'n3'), rq('MsgPreVote', 3, 2, 2), { term: 2, vote: 'n3', grant: true }, 'the question is about term 3, where n1 has not voted');
  });
  it('a PreVote for the current term follows the vote rules', () => {
    expectDecision(st(3, 'n3'), rq('MsgPreVote', 3, 2, 2), { term: 3, vote: 'n3', grant: false }, 'n1 voted for n3 in term 3');
    expectDecision(st(3), rq('MsgPreVote', 3, 2, 2), { term: 3, vote: '', grant: true }, 'no vote, no leader in term 3: granted, and still nothing recorded');
  });
});

describe('the function itself', () => {
  it('returns { term, vote, grant } and leaves its arguments alone', () => {
    const s = st(2);
    const r = rq('MsgVote', 3, 2, 2);
    const res = call(s, r);
    if (res.threw) expect.fail(`voteDecision threw ${res.threw}`);
    const d = res.got as VoteDecision;
    expect(typeof d?.term, 'term is a number').toBe('number');
    expect(typeof d?.vote, 'vote is a string (\'\' for none)').toBe('string');
    expect(typeof d?.grant, 'grant is a boolean').toBe('boolean');
    expect(s, 'the state must not be modified').toEqual(st(2));
    expect(r, 'the request must not be modified').toEqual(rq('MsgVote', 3, 2, 2));
  });
});

// ---------------------------------------------------------------- a live cluster under faults

const learnerRule: VoteRule = (s, r) => voteDecision(s, r) as VoteDecision;

function schedule(seed: number, family: 'figure8' | 'mixed'): string | undefined {
  try {
    const r = runRaftSchedule(seed, { family, members: 5, voteRule: learnerRule });
    return r.ok ? undefined : r.message.replace(/ \(members 5.*$/, '');
  } catch (e) {
    return `a member using your function failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

describe('a simulated 5-member cluster whose members answer every vote request with your function', () => {
  const check = (family: 'figure8' | 'mixed', from: number, to: number) => {
    const failures: string[] = [];
    for (let seed = from; seed <= to; seed++) {
      const problem = schedule(seed, family);
      if (problem) failures.push(`seed ${seed}: ${problem}`);
      if (failures.length >= 3) break;
    }
    if (failures.length > 0) {
      expect.fail(
        `the ${family} fault schedule (crashes, partitions${family === 'figure8' ? ', leaders cut off at the worst moment' : ', loss, duplication, reordering'}) ` +
          `with your function answering every vote broke a Raft safety property or stopped making progress:\n${failures.join('\n')}`,
      );
    }
  };
  it('mixed faults: crashes, partitions, lost, duplicated and reordered messages (seeds 1-12)', () => check('mixed', 1, 12));
  it('mixed faults (seeds 13-24)', () => check('mixed', 13, 24));
  it('leaders cut off and crashed the moment they lead or commit, members with shorter logs returning (seeds 1-10)', () => check('figure8', 1, 10));
});

// ---------------------------------------------------------------- differential property

const SEED = 20_260_405;
const idArb = fc.constantFrom('', 'n1', 'n2', 'n3');

const caseArb = fc.record({
  state: fc.record({ term: fc.nat({ max: 6 }), vote: idArb, lead: idArb, lastIndex: fc.nat({ max: 6 }), lastTerm: fc.nat({ max: 6 }) }),
  request: fc.record({
    type: fc.constantFrom<VoteRequest['type']>('MsgVote', 'MsgPreVote'),
    from: fc.constantFrom('n2', 'n3'),
    term: fc.nat({ max: 7 }),
    lastIndex: fc.nat({ max: 6 }),
    lastTerm: fc.nat({ max: 6 }),
  }),
}).map(({ state, request }) => {
  // Realistic logs: no entry is newer than its owner's term, and only an empty log has term 0.
  const log = (term: number, lastIndex: number, lastTerm: number) => {
    const t = Math.min(lastTerm, term);
    return t === 0 || lastIndex === 0 ? { lastIndex: 0, lastTerm: 0 } : { lastIndex, lastTerm: t };
  };
  return {
    state: { ...state, ...log(state.term, state.lastIndex, state.lastTerm) },
    request: { ...request, ...log(request.term, request.lastIndex, request.lastTerm) },
  };
});

function compare(c: { state: VoteState; request: VoteRequest }): string | undefined {
  const want = defaultVoteRule(c.state, c.request);
  const res = call(c.state, c.request);
  const input = `input: ${describeState(c.state)}\nreceives ${describeRequest(c.request)}\nexpected: ${describeDecision(want)}`;
  if (res.threw !== undefined) return `${input}\ngot: threw ${res.threw}`;
  if (!same(res.got, want)) return `${input}\ngot: ${describeDecision(res.got)}`;
  return undefined;
}

describe('differential: your function against the simulation\'s own vote rule', () => {
  it('agrees on 4000 generated voters and requests', () => {
    const details = fc.check(
      fc.property(caseArb, (c) => {
        const problem = compare(c);
        if (problem !== undefined) throw new Error(problem);
      }),
      { seed: SEED, numRuns: 4000 },
    );
    if (details.failed && details.counterexample) {
      const [c] = details.counterexample;
      expect.fail(
        `voteDecision differs from the runtime's rule (seed ${details.seed}, path ${details.counterexamplePath}, after ${details.numRuns} generated cases).\n` +
          `Smallest failing input:\n${compare(c) ?? String(details.errorInstance)}`,
      );
    }
    expect(details.numRuns, 'generated cases run').toBe(4000);
  });
});
