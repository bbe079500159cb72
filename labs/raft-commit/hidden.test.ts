// Hidden grading suite for the raft-commit lab. Behaviour only: the leader's commit decision on
// tables, the Raft paper's Figure 8 played out message by message with the learner's rule inside
// every member, the learner's rule driving a live simulated 5-member cluster under seeded fault
// schedules (runtime/raft runRaftSchedule, watched by its SafetyChecker; the 'figure8' family
// steers the cluster into the interleaving where a missing term check loses a committed entry),
// and a differential property against the runtime's own rule (defaultCommitRule).
// Tables ported from etcd-io/raft raft_test.go (TestCommit, TestLeaderOnlyCommitsLogFromCurrentTerm,
// TestLeaderCommitEntry), quorum/testdata/majority_commit.txt (MajorityConfig.CommittedIndex) and
// log_test.go (TestCommitTo / maybeCommit: commit never decreases).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MemoryStorage,
  Raft,
  defaultCommitRule,
  newMessage,
  runRaftSchedule,
  type CommitRule,
  type CommitState,
  type Message,
} from '../../runtime/raft/index.ts';
import { leaderCommitIndex } from '@lab/submission';

// ---------------------------------------------------------------- building states

interface Case {
  /** Match indexes of n1, n2, ... (n1 leads unless `leader` says otherwise). */
  match: number[];
  /** Terms of the leader's log: entry i has terms[i - 1]. */
  terms: number[];
  term: number;
  committed?: number;
  leader?: string;
  /** Index of the first entry in `terms` minus one (a compacted prefix). Default 0. */
  base?: number;
}

function stateOf(c: Case): CommitState {
  const base = c.base ?? 0;
  const terms = [...c.terms];
  return {
    leader: c.leader ?? 'n1',
    match: Object.freeze(Object.fromEntries(c.match.map((m, i) => [`n${i + 1}`, m]))),
    committed: c.committed ?? 0,
    term: c.term,
    termAt: (i: number) => (i > base && i <= base + terms.length ? terms[i - base - 1]! : 0),
  };
}

function describeCase(c: Case): string {
  const base = c.base ?? 0;
  const leader = c.leader ?? 'n1';
  const match = c.match.length === 0 ? '{} (no voters)' : `{ ${c.match.map((m, i) => `n${i + 1}: ${m}`).join(', ')} }`;
  const log =
    c.terms.length === 0
      ? 'empty'
      : c.terms.map((t, i) => `${base + i + 1}:t${t}`).join(' ') + (base > 0 ? ` (entries up to ${base} compacted: termAt says 0)` : '');
  return `match ${match}, leader ${leader}, leader's log [${log}], leader's term ${c.term}, committed ${c.committed ?? 0}`;
}

/** Calls the learner's function; a throw becomes a message. */
function call(state: CommitState): { got?: unknown; threw?: string } {
  try {
    return { got: leaderCommitIndex(state) };
  } catch (e) {
    return { threw: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

function expectCommit(c: Case, want: number, why: string): void {
  const r = call(stateOf(c));
  const input = describeCase(c);
  if (r.threw !== undefined) expect.fail(`leaderCommitIndex threw ${r.threw}\nfor ${input}\nexpected ${want}: ${why}`);
  expect(r.got, `leaderCommitIndex(${input})\nreturned ${String(r.got)}, expected ${want}: ${why}`).toBe(want);
}

// ---------------------------------------------------------------- tables

describe('the quorum index and the term check (TestCommit)', () => {
  // [match indexes, log terms, leader term, expected commit]
  const table: [number[], number[], number, number, string][] = [
    [[1], [1], 1, 1, 'a single voter commits its own entry of its term'],
    [[1], [1], 2, 0, 'a single voter does not commit an entry of an older term by counting'],
    [[2], [1, 2], 2, 2, 'a single voter commits up to its last entry of its term'],
    [[1], [2], 2, 1, 'a single voter, entry of the current term'],
    [[2, 1, 1], [1, 2], 1, 1, 'three voters: index 1 is on all three and of term 1'],
    [[2, 1, 1], [1, 1], 2, 0, 'three voters: index 1 is on a majority but of term 1, not the leader\'s term 2'],
    [[2, 1, 2], [1, 2], 2, 2, 'three voters: index 2 is on two of three and of the current term'],
    [[2, 1, 2], [1, 1], 2, 0, 'three voters: index 2 is on a majority but of term 1'],
    [[2, 1, 1, 1], [1, 2], 1, 1, 'four voters: only index 1 is on three of four'],
    [[2, 1, 1, 1], [1, 1], 2, 0, 'four voters: index 1 is on a majority but of term 1'],
    [[2, 1, 1, 2], [1, 2], 1, 1, 'four voters: index 2 is on two of four, not a majority; index 1 is, and of term 1'],
    [[2, 1, 1, 2], [1, 1], 2, 0, 'four voters: index 1 is on a majority but of term 1'],
    [[2, 1, 2, 2], [1, 2], 2, 2, 'four voters: index 2 is on three of four and of the current term'],
    [[2, 1, 2, 2], [1, 1], 2, 0, 'four voters: index 2 is on three of four but of term 1'],
  ];
  for (const [match, terms, term, want, why] of table) {
    it(`match [${match.join(', ')}], log terms [${terms.join(', ')}], term ${term} -> ${want}`, () => {
      expectCommit({ match, terms, term }, want, why);
    });
  }
});

describe('the highest index a majority stores (MajorityConfig.CommittedIndex)', () => {
  // Every entry is of the current term here, so only the counting matters.
  const t = (n: number) => Array.from({ length: n }, () => 3);
  const table: [number[], number, string][] = [
    [[12], 12, 'one voter: its own match'],
    [[12, 5], 5, 'two voters: both are needed'],
    [[5, 12], 5, 'two voters, in the other order: both are needed'],
    [[12, 9, 5], 9, 'three voters: the second highest'],
    [[5, 12, 9], 9, 'the order of the voters does not matter'],
    [[12, 9, 9, 5], 9, 'four voters: three must have it'],
    [[12, 11, 9, 5], 9, 'four voters: the third highest, not the median of the four'],
    [[20, 19, 3, 2], 3, 'four voters: two at 19 or more are not a majority of four'],
    [[12, 11, 10, 9, 5], 10, 'five voters: the third highest'],
    [[12, 11, 10, 9, 8, 5], 9, 'six voters: the fourth highest'],
    [[12, 11, 10, 9, 8, 7, 5], 9, 'seven voters: the fourth highest'],
    [[12, 12, 12], 12, 'all equal'],
    [[12, 0, 0], 0, 'a leader alone with two followers that have nothing'],
    [[100, 99, 9, 10, 101], 99, 'indexes above 9 compare as numbers, not as text (10 < 99, 9 < 10)'],
  ];
  for (const [match, want, why] of table) {
    it(`match [${match.join(', ')}] -> ${want}`, () => {
      expectCommit({ match, terms: t(Math.max(...match)), term: 3 }, want, why);
    });
  }

  it('counts the leader\'s own copy: a leader and one follower of three are a majority', () => {
    expectCommit({ match: [7, 7, 0], terms: [1, 1, 1, 1, 1, 2, 2], term: 2 }, 7, 'the leader (n1) and n2 both store index 7: 2 of 3');
    expectCommit({ match: [0, 6, 6], terms: [2, 2, 2, 2, 2, 2], term: 2, leader: 'n2' }, 6, 'the leader is n2 here; n2 and n3 store index 6');
  });

  it('a configuration without voters: commit does not move', () => {
    expectCommit({ match: [], terms: [1, 1, 1], term: 1, committed: 2 }, 2, 'with no voters there is nothing to count (upstream: the quorum index is "infinite", whose entry does not exist)');
    expectCommit({ match: [], terms: [], term: 1, committed: 0 }, 0, 'no voters, empty log');
  });
});

describe('only entries of the leader\'s term are committed by counting (Raft 5.4.2)', () => {
  // TestLeaderOnlyCommitsLogFromCurrentTerm: leader log [1:t1, 2:t2], elected in term 3 (appends 3:t3).
  const table: [number, number][] = [
    [1, 0],
    [2, 0],
    [3, 3],
  ];
  for (const [acked, want] of table) {
    it(`leader of term 3 with log [t1, t2, t3], both followers at ${acked} -> ${want}`, () => {
      expectCommit(
        { match: [3, acked, acked], terms: [1, 2, 3], term: 3 },
        want,
        want === 0 ? `index ${acked} is on all three members, but it is of term ${acked}, not 3` : 'index 3 is of term 3 and on a majority: it commits, and 1 and 2 with it',
      );
    });
  }

  it('checks the term of the entry about to be committed, not of the entry at the old commit index', () => {
    expectCommit({ match: [5, 5, 4], terms: [1, 1, 1, 2, 2], term: 2, committed: 3 }, 5, 'index 5 is of term 2 = the leader\'s term; that entry 3 is of term 1 does not matter');
    expectCommit({ match: [6, 5, 5], terms: [2, 2, 2, 3, 3, 4], term: 4, committed: 3 }, 3, 'index 5 is of term 3, the leader leads term 4, whatever the term at index 3');
  });

  it('does not commit an old entry just because the leader\'s log ends with an entry of its term', () => {
    expectCommit({ match: [4, 3, 3, 1, 1], terms: [1, 1, 1, 3], term: 3, committed: 1 }, 1, 'index 3 is on n1, n2, n3 but of term 1; entry 4 (term 3) is only on n1');
  });

  it('an entry from a compacted part of the log (termAt 0) is not of the current term', () => {
    expectCommit({ match: [12, 9, 9], terms: [4, 4, 4], term: 4, committed: 5, base: 9 }, 5, 'index 9 is compacted in this log (termAt(9) is 0), so it is not committed by counting');
    expectCommit({ match: [12, 11, 10], terms: [4, 4, 4], term: 4, committed: 5, base: 9 }, 11, 'index 11 is of term 4');
  });
});

describe('commit never moves back', () => {
  it('keeps the commit index when the quorum index is lower (a new voter with nothing yet)', () => {
    expectCommit({ match: [5, 5, 3, 0], terms: [2, 2, 2, 2, 2], term: 2, committed: 5 }, 5, 'n4 just joined: the quorum index fell to 3, but 5 is already committed');
  });

  it('keeps it after an election, when the followers\' match indexes start from 0', () => {
    expectCommit({ match: [8, 0, 0], terms: [1, 1, 1, 1, 1, 1, 1, 3], term: 3, committed: 7 }, 7, 'the new leader does not know its followers\' logs yet');
  });

  it('keeps it when the quorum index equals it', () => {
    expectCommit({ match: [6, 6, 2], terms: [1, 1, 1, 1, 1, 1], term: 1, committed: 6 }, 6, 'nothing new on a majority');
  });

  it('moves only to a higher index of the current term', () => {
    expectCommit({ match: [9, 8, 7], terms: [1, 1, 1, 1, 2, 2, 2, 2, 2], term: 2, committed: 6 }, 8, 'index 8 is of term 2 and on n1 and n2');
  });
});

describe('the function itself', () => {
  it('returns a number and leaves its argument alone', () => {
    const c: Case = { match: [3, 2, 2], terms: [1, 1, 1], term: 1 };
    const s = stateOf(c);
    const r = call(s);
    if (r.threw) expect.fail(`leaderCommitIndex threw ${r.threw} for ${describeCase(c)}`);
    expect(typeof r.got, 'leaderCommitIndex returns a number').toBe('number');
    expect({ ...s.match }, 'state.match must not be modified').toEqual({ n1: 3, n2: 2, n3: 2 });
    expect(s.committed).toBe(0);
  });
});

// ---------------------------------------------------------------- Figure 8, message by message

/** The learner's function as the rule every member uses. */
const learnerRule: CommitRule = (s) => leaderCommitIndex(s) as number;

/** A tiny network of Raft members (as etcd-io/raft's raft_test.go network): instant, in order. */
class Net {
  readonly rafts = new Map<string, Raft>();
  private readonly cut = new Set<string>();
  private filters: ((m: Message) => boolean)[] = [];
  constructor(ids: string[], rule: CommitRule) {
    for (const id of ids) {
      this.rafts.set(
        id,
        new Raft({ id, storage: new MemoryStorage(ids), rng: { nextInt: () => 0 }, preVote: false, checkQuorum: false, maxEntriesPerMsg: 1, commitRule: rule }),
      );
    }
  }
  r(id: string): Raft {
    return this.rafts.get(id)!;
  }
  send(...msgs: Message[]): void {
    const q = [...msgs];
    for (let guard = 0; q.length > 0 && guard < 100_000; guard++) {
      const m = q.shift()!;
      const p = this.rafts.get(m.to);
      if (!p) continue;
      p.step(m);
      const out = p.msgs;
      p.msgs = [];
      q.push(...out.filter((x) => !this.cut.has(`${x.from}>${x.to}`) && !this.filters.some((f) => f(x))));
    }
  }
  isolate(id: string): void {
    for (const o of this.rafts.keys()) if (o !== id) this.cut.add(`${id}>${o}`).add(`${o}>${id}`);
  }
  dropIf(f: (m: Message) => boolean): void {
    this.filters.push(f);
  }
  recover(): void {
    this.cut.clear();
    this.filters = [];
  }
  hup(id: string): void {
    this.send(newMessage({ type: 'MsgHup', from: id, to: id }));
  }
}

const terms = (r: Raft) => r.raftLog.allEntries().map((e) => e.term);

/**
 * Figure 8 of the Raft paper: (a) n1 leads term 2, its entry 2 reaches n2 only; (b) n5 wins term 3
 * with n3 and n4 and appends its own entry 2 locally; (c) n1 returns, wins term 4 and copies its
 * term-2 entry to n3: entry 2 is now on n1, n2, n3, a majority, while its term-4 entry is not.
 * Returns the network and n1's commit index at that moment.
 */
function figure8(keepTerm4Entry: boolean): { net: Net; commitAtC: number } {
  const ids = ['n1', 'n2', 'n3', 'n4', 'n5'];
  const net = new Net(ids, learnerRule);
  net.hup('n1'); // term 1: n1 leads, its empty entry commits everywhere
  net.dropIf((m) => m.from === 'n1' && m.type === 'MsgApp' && ['n3', 'n4', 'n5'].includes(m.to));
  net.r('n1').becomeFollower(net.r('n1').term, '');
  net.hup('n1'); // (a) term 2
  net.recover();
  net.isolate('n1');
  net.dropIf((m) => m.from === 'n5' && m.type === 'MsgApp');
  net.hup('n5'); // (b) term 3
  net.recover();
  net.isolate('n5');
  if (!keepTerm4Entry) {
    net.dropIf((m) => {
      if (m.from === 'n1' && m.type === 'MsgApp') m.entries = m.entries.filter((e) => e.term !== 4);
      return false;
    });
  }
  net.r('n1').becomeFollower(net.r('n1').term, '');
  net.hup('n1');
  net.hup('n1'); // (c) term 4 (the first attempt only teaches n1 term 3)
  return { net, commitAtC: net.r('n1').raftLog.committed };
}

describe('Figure 8, played out by five members that use your function', () => {
  it('(c) an entry of term 2 stored on a majority is not committed by the leader of term 4', () => {
    let run: { net: Net; commitAtC: number };
    try {
      run = figure8(false);
    } catch (e) {
      expect.fail(`a member using your function failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    const { net, commitAtC } = run;
    expect([net.r('n1').state, net.r('n1').term], 'n1 leads term 4').toEqual(['StateLeader', 4]);
    expect([terms(net.r('n1')), terms(net.r('n2')), terms(net.r('n3'))], 'logs of n1, n2, n3 (terms of entries 1, 2, ...)').toEqual([
      [1, 2, 4],
      [1, 2],
      [1, 2],
    ]);
    expect(
      commitAtC,
      "n1's commit index in term 4 with match { n1: 3, n2: 2, n3: 2, n4: 0, n5: 0 }: entry 2 is on a majority but of term 2; committing it here is the mistake of Figure 8 (c)",
    ).toBe(1);
    // (d) n5 (last log term 3) wins term 5 and overwrites entry 2 everywhere: harmless, since it was never committed.
    net.recover();
    net.isolate('n1');
    net.r('n5').becomeFollower(net.r('n5').term, '');
    net.hup('n5');
    net.hup('n5');
    expect(net.r('n5').state, 'n5 wins term 5 with n2, n3, n4').toBe('StateLeader');
    net.send(newMessage({ type: 'MsgBeat', from: 'n5', to: 'n5' }));
    expect(['n2', 'n3', 'n4'].map((id) => terms(net.r(id))), "n2, n3, n4 now hold n5's log").toEqual([
      [1, 3, 5],
      [1, 3, 5],
      [1, 3, 5],
    ]);
  });

  it('(e) once the term-4 entry is on a majority, entries 2 and 3 commit together, and n5 can no longer win', () => {
    let run: { net: Net; commitAtC: number };
    try {
      run = figure8(true);
    } catch (e) {
      expect.fail(`a member using your function failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    const { net, commitAtC } = run;
    expect(commitAtC, "n1's commit index once n1, n2, n3 store entry 3 of term 4").toBe(3);
    net.recover();
    net.isolate('n1');
    net.r('n5').becomeFollower(net.r('n5').term, '');
    net.hup('n5');
    net.hup('n5');
    net.hup('n5');
    expect(net.r('n5').state, 'n5 (log [t1, t3]) cannot win against logs ending in term 4').not.toBe('StateLeader');
  });
});

// ---------------------------------------------------------------- a live cluster under faults

function schedule(seed: number, family: 'figure8' | 'mixed'): string | undefined {
  try {
    const r = runRaftSchedule(seed, { family, members: 5, commitRule: learnerRule });
    return r.ok ? undefined : r.message.replace(/ \(members 5.*$/, '');
  } catch (e) {
    return `a member using your function failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

describe('a simulated 5-member cluster whose leaders use your function', () => {
  const check = (family: 'figure8' | 'mixed', from: number, to: number) => {
    const failures: string[] = [];
    for (let seed = from; seed <= to; seed++) {
      const problem = schedule(seed, family);
      if (problem) failures.push(`seed ${seed}: ${problem}`);
      if (failures.length >= 3) break;
    }
    if (failures.length > 0) {
      expect.fail(
        `the ${family} fault schedule (crashes, partitions${family === 'figure8' ? ' aimed at the Figure 8 interleaving' : ', loss, duplication, reordering'}) ` +
          `with your function as every member's commit rule broke a Raft safety property or stopped making progress:\n${failures.join('\n')}`,
      );
    }
  };

  it('the Figure 8 schedules: a leader from a shorter log returns after an old leader re-replicated its entries (seeds 1-10)', () => check('figure8', 1, 10));
  it('the Figure 8 schedules (seeds 11-20)', () => check('figure8', 11, 20));
  it('mixed faults: crashes, partitions, lost, duplicated and reordered messages (seeds 1-10)', () => check('mixed', 1, 10));
});

// ---------------------------------------------------------------- differential property

const SEED = 20_260_404;

interface GenCase {
  n: number;
  base: number;
  firstTerm: number;
  steps: number[];
  extraTerm: number;
  others: number[];
  leaderAt: number;
  committedPick: number;
}

const genArb: fc.Arbitrary<GenCase> = fc.record({
  n: fc.integer({ min: 0, max: 7 }),
  base: fc.constantFrom(0, 0, 0, 8, 95),
  firstTerm: fc.integer({ min: 1, max: 3 }),
  steps: fc.array(fc.constantFrom(0, 0, 0, 1, 2), { maxLength: 14 }),
  extraTerm: fc.constantFrom(0, 0, 1, 2),
  others: fc.array(fc.nat({ max: 1000 }), { minLength: 7, maxLength: 7 }),
  leaderAt: fc.nat({ max: 6 }),
  committedPick: fc.nat({ max: 1000 }),
});

function toCase(g: GenCase): Case {
  const terms: number[] = [];
  let t = g.firstTerm;
  for (const s of g.steps) terms.push((t += s));
  const last = g.base + terms.length;
  const lastTerm = terms.length > 0 ? terms[terms.length - 1]! : g.firstTerm;
  const leaderAt = g.n === 0 ? 0 : g.leaderAt % g.n;
  const match = Array.from({ length: g.n }, (_, i) => (i === leaderAt ? last : g.others[i]! % (last + 1)));
  const committed = g.committedPick % (last + 1);
  return { match, terms, term: lastTerm + g.extraTerm, committed, leader: `n${leaderAt + 1}`, base: g.base };
}

function compare(g: GenCase): string | undefined {
  const c = toCase(g);
  const want = defaultCommitRule(stateOf(c));
  const r = call(stateOf(c));
  if (r.threw !== undefined) return `input: ${describeCase(c)}\nexpected: ${want}\ngot: threw ${r.threw}`;
  if (r.got !== want) return `input: ${describeCase(c)}\nexpected: ${want}\ngot: ${String(r.got)}`;
  return undefined;
}

describe('differential: your function against the simulation\'s own commit rule', () => {
  it('agrees on 3000 generated leaders (0 to 7 voters, logs with compacted prefixes, any commit index)', () => {
    const details = fc.check(
      fc.property(genArb, (g) => {
        const problem = compare(g);
        if (problem !== undefined) throw new Error(problem);
      }),
      { seed: SEED, numRuns: 3000 },
    );
    if (details.failed && details.counterexample) {
      const [g] = details.counterexample;
      expect.fail(
        `leaderCommitIndex differs from the runtime's rule (seed ${details.seed}, path ${details.counterexamplePath}, after ${details.numRuns} generated cases).\n` +
          `Smallest failing input:\n${compare(g) ?? String(details.errorInstance)}`,
      );
    }
    expect(details.numRuns, 'generated cases run').toBe(3000);
  });
});
