import { describe, expect, it } from 'vitest';
import type { ScorePlugin } from '../scheduler/index.ts';
import type { LearnerScorePlugins } from './learner-pieces.ts';
import {
  compareSchedulerRuns,
  describeRequests,
  podStream,
  runSchedulerScenario,
  SCHEDULER_WORKERS,
  type SchedulerRun,
} from './run-in-cluster-scheduler.ts';
// the lab's reference answer and its plausible mistakes, plugged in as a learner's code is
import * as labSolution from '../../labs/scheduler-scoring/solution.ts';
import * as labStarter from '../../labs/scheduler-scoring/starter.ts';
import * as balancedOldFormula from '../../labs/scheduler-scoring/mutants/balanced-old-formula.ts';
import * as balancedUsesDefaults from '../../labs/scheduler-scoring/mutants/balanced-uses-defaults.ts';
import * as leastFloatAverage from '../../labs/scheduler-scoring/mutants/least-float-average.ts';
import * as leastNoDefaults from '../../labs/scheduler-scoring/mutants/least-no-defaults.ts';
import * as leastUsesRequested from '../../labs/scheduler-scoring/mutants/least-uses-requested.ts';

const SEED = 1;
let referenceRun: Promise<SchedulerRun> | undefined;
const reference = (): Promise<SchedulerRun> => (referenceRun ??= runSchedulerScenario(undefined, SEED));

describe('the pod stream', () => {
  it('is the same for a seed, starts with the special shapes, and differs between seeds', () => {
    const stream = podStream(SEED);
    expect(podStream(SEED)).toEqual(stream);
    expect(podStream(SEED + 1)).not.toEqual(stream);
    expect(stream).toHaveLength(12);
    expect(stream.slice(0, 4).map(describeRequests)).toEqual([
      'nothing (best-effort)',
      expect.stringMatching(/^cpu \d+m?$/),
      expect.stringMatching(/^memory \d+Mi$/),
      expect.stringMatching(/^c0: cpu \d+m?, memory \d+Mi; c1: nothing$/),
    ]);
  });
});

describe('Run in cluster: the learner\'s Score plugins inside kube-scheduler', { timeout: 180_000 }, () => {
  it('the built-in plugins place every pod on a heterogeneous cluster, with the scores recorded, and replay from the seed', async () => {
    const run = await reference();
    expect(run.error).toBeUndefined();
    expect(run.nodes.map((n) => n.name)).toEqual(SCHEDULER_WORKERS.map((w) => w.name));
    expect(run.placements).toHaveLength(12);
    for (const p of run.placements) {
      expect(p.pending).toBeUndefined();
      expect(p.scores.map((s) => s.node)).toEqual(['worker-1', 'worker-2', 'worker-3', 'worker-4']);
      // the chosen node has the highest total (ties broken at random among the best)
      const best = Math.max(...p.scores.map((s) => s.total));
      expect(p.scores.find((s) => s.node === p.node)?.total).toBe(best);
    }
    // the best-effort pod: BalancedAllocation's PreScore skips it, LeastAllocated counts the defaults
    expect(run.placements[0]!.scores[0]).toMatchObject({ leastAllocated: expect.any(String) });
    expect(run.placements[0]!.scores[0]!.balancedAllocation).toBeUndefined();
    // the heterogeneous workers are all used
    expect(new Set(run.placements.map((p) => p.node)).size).toBe(4);
    expect(await runSchedulerScenario(undefined, SEED)).toEqual(run);
  });

  it('the lab solution places every pod where the built-in plugins do, with the same scores', async () => {
    const comparison = compareSchedulerRuns(await runSchedulerScenario(labSolution, SEED), await reference());
    expect(comparison.learner.error).toBeUndefined();
    expect(comparison.firstDivergence).toBeUndefined();
    expect(comparison.rows.every((r) => r.sameNode && r.sameScores)).toBe(true);
  });

  // Mutants that cannot show here: balanced-no-cap (its difference needs a pod larger than the
  // node, which the NodeResourcesFit filter removes before scoring); normalize-rounds,
  // select-first-tie and sum-ignores-weight (kube-scheduler's framework does that arithmetic itself:
  // only the two Score plugins are plugged in).
  it.each([
    ['balanced-old-formula', balancedOldFormula],
    ['balanced-uses-defaults', balancedUsesDefaults],
    ['least-float-average', leastFloatAverage],
    ['least-no-defaults', leastNoDefaults],
    ['least-uses-requested', leastUsesRequested],
  ] as const)('the mutant %s shows different scores', async (_name, mutant) => {
    const comparison = compareSchedulerRuns(await runSchedulerScenario(mutant, SEED), await reference());
    expect(comparison.learner.error).toBeUndefined();
    expect(comparison.firstDivergence).toBeDefined();
  });

  it('the non-zero request defaults show on the first pod, which asks for nothing', async () => {
    for (const mutant of [balancedUsesDefaults, leastNoDefaults]) {
      const comparison = compareSchedulerRuns(await runSchedulerScenario(mutant, SEED), await reference());
      expect(comparison.firstDivergence).toBe('pod-01');
    }
  });

  it('a mutant that changes placements shows pods on other nodes', async () => {
    const comparison = compareSchedulerRuns(await runSchedulerScenario(balancedOldFormula, SEED), await reference());
    expect(comparison.rows.filter((r) => !r.sameNode).map((r) => r.pod)).not.toEqual([]);
    const moved = comparison.rows.find((r) => !r.sameNode)!.pod;
    const node = (run: SchedulerRun) => run.placements.find((p) => p.pod === moved)!.node;
    expect(node(comparison.learner)).not.toBe(node(comparison.reference));
  });

  it('the starter\'s Error status leaves pods Pending with the scheduler\'s message', async () => {
    const run = await runSchedulerScenario(labStarter, SEED);
    expect(run.error).toBeUndefined();
    expect(run.placements.every((p) => p.node === '')).toBe(true);
    expect(run.placements[0]!.pending).toBe('running Score plugin "YourLeastAllocated": LeastAllocated is not implemented yet');
  });

  it('stops at a throw in the learner\'s score and names the function, pod and node', async () => {
    const throwing: LearnerScorePlugins = {
      ...labSolution,
      newBalancedAllocation: (): ScorePlugin => ({
        name: 'NodeResourcesBalancedAllocation',
        scoreExtensions: () => null,
        score: () => { throw new RangeError('fractions[2] is undefined'); },
      }),
    };
    const run = await runSchedulerScenario(throwing, SEED);
    // the pod's generated suffix depends on every request before it (the seeded name generator), not on this test
    expect(run.error).toMatch(/^LearnerCodeError: newBalancedAllocation\(\.\.\.\)\.score threw for pod "coredns-b66c85d5d-[a-z0-9]{5}" on node "worker-1": RangeError: fractions\[2\] is undefined$/);
  });
});
