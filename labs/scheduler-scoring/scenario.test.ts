// "Run in cluster" for this lab (scenario.ts): the pod stream, and the learner's Score plugins
// inside kube-scheduler, with the lab's solution, starter and plausible mistakes plugged in as a
// learner's code is.
import { describe, expect, it } from 'vitest';
import type { ScorePlugin } from '../../runtime/scheduler/index.ts';
import { runScenario } from '../lab-scenario.ts';
import scenario, { describeRequests, placementRows, podStream, SCHEDULER_WORKERS, type LearnerScorePlugins, type SchedulerRun } from './scenario.ts';
import * as labSolution from './solution.ts';
import * as labStarter from './starter.ts';
import * as balancedOldFormula from './mutants/balanced-old-formula.ts';
import * as balancedUsesDefaults from './mutants/balanced-uses-defaults.ts';
import * as leastFloatAverage from './mutants/least-float-average.ts';
import * as leastNoDefaults from './mutants/least-no-defaults.ts';
import * as leastUsesRequested from './mutants/least-uses-requested.ts';

const SEED = 1;
let referenceRun: Promise<SchedulerRun> | undefined;
const reference = (): Promise<SchedulerRun> => (referenceRun ??= runScenario(scenario, undefined, SEED));
const run = (learner: LearnerScorePlugins) => runScenario(scenario, learner as unknown as Record<string, unknown>, SEED);

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
    const ref = await reference();
    expect(ref.error).toBeUndefined();
    expect(ref.nodes.map((n) => n.name)).toEqual(SCHEDULER_WORKERS.map((w) => w.name));
    expect(ref.placements).toHaveLength(12);
    for (const p of ref.placements) {
      expect(p.pending).toBeUndefined();
      expect(p.scores.map((s) => s.node)).toEqual(['worker-1', 'worker-2', 'worker-3', 'worker-4']);
      // the chosen node has the highest total (ties broken at random among the best)
      const best = Math.max(...p.scores.map((s) => s.total));
      expect(p.scores.find((s) => s.node === p.node)?.total).toBe(best);
    }
    // the best-effort pod: BalancedAllocation's PreScore skips it, LeastAllocated counts the defaults
    expect(ref.placements[0]!.scores[0]).toMatchObject({ leastAllocated: expect.any(String) });
    expect(ref.placements[0]!.scores[0]!.balancedAllocation).toBeUndefined();
    // the heterogeneous workers are all used
    expect(new Set(ref.placements.map((p) => p.node)).size).toBe(4);
    expect(await runScenario(scenario, undefined, SEED)).toEqual(ref);
  });

  it('the lab solution places every pod where the built-in plugins do, with the same scores', async () => {
    const mine = await run(labSolution);
    expect(mine.error).toBeUndefined();
    const comparison = scenario.compare(mine, await reference());
    expect(comparison.firstDifference).toBeUndefined();
    expect(comparison.summary).toBe('Your plugins placed all 12 pods where the built-in ones did, with the same scores.');
    expect(placementRows(mine, await reference()).every((r) => r.sameNode && r.sameScores)).toBe(true);
    expect(JSON.stringify(comparison.report)).not.toContain('≠');
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
    const mine = await run(mutant);
    expect(mine.error).toBeUndefined();
    const comparison = scenario.compare(mine, await reference());
    expect(comparison.firstDifference).toBeDefined();
    expect(comparison.summary).toMatch(/differ/);
    expect(JSON.stringify(comparison.report)).toContain('≠');
  });

  it('the non-zero request defaults show on the first pod, which asks for nothing', async () => {
    for (const mutant of [balancedUsesDefaults, leastNoDefaults]) {
      expect(scenario.compare(await run(mutant), await reference()).firstDifference).toBe('pod-01');
    }
  });

  it('a mutant that changes placements shows pods on other nodes', async () => {
    const mine = await run(balancedOldFormula);
    const rows = placementRows(mine, await reference());
    expect(rows.filter((r) => !r.sameNode).map((r) => r.pod)).not.toEqual([]);
    const moved = rows.find((r) => !r.sameNode)!.pod;
    const node = (r: SchedulerRun) => r.placements.find((p) => p.pod === moved)!.node;
    expect(node(mine)).not.toBe(node(await reference()));
  });

  it('the starter\'s Error status leaves pods Pending with the scheduler\'s message', async () => {
    const mine = await run(labStarter);
    expect(mine.error).toBeUndefined();
    expect(mine.placements.every((p) => p.node === '')).toBe(true);
    expect(mine.placements[0]!.pending).toBe('running Score plugin "YourLeastAllocated": LeastAllocated is not implemented yet');
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
    const mine = await run(throwing);
    // the pod's generated suffix depends on every request before it (the seeded name generator), not on this test
    expect(mine.error).toMatch(/^LearnerCodeError: newBalancedAllocation\(\.\.\.\)\.score threw for pod "coredns-b66c85d5d-[a-z0-9]{5}" on node "worker-1": RangeError: fractions\[2\] is undefined$/);
    expect(scenario.compare(mine, await reference()).summary).toBe('Your code stopped the run after 0 of 12 pods.');
  });
});
