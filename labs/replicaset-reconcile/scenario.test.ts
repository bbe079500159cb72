// "Run in cluster" for this lab (scenario.ts): the story, replayed from its seed, with the
// reference, the lab's solution and its plausible mistakes plugged in as a learner's code is.
import { describe, expect, it } from 'vitest';
import type { ReplicaSetReconciler } from '../../runtime/controllers/index.ts';
import { runScenario } from '../lab-scenario.ts';
import scenario, { firstDivergentStep, type ScenarioRun } from './scenario.ts';
import * as labSolution from './solution.ts';
import * as ignoresDoubledUp from './mutants/ignores-doubled-up.ts';
import * as oldestReadyFirst from './mutants/oldest-ready-first.ts';
import * as runningFirst from './mutants/running-first.ts';

const SEED = 1;
// One reference run shared by the tests below (each run is a whole cluster for ~7 simulated minutes).
let referenceRun: Promise<ScenarioRun> | undefined;
const reference = (): Promise<ScenarioRun> => (referenceRun ??= runScenario(scenario, undefined, SEED));
const withReconciler = (reconcileReplicaSet: ReplicaSetReconciler) => runScenario(scenario, { reconcileReplicaSet }, SEED);

describe('Run in cluster: a ReplicaSetReconciler drives a live cluster where a node dies', { timeout: 180_000 }, () => {
  it('the reference keeps its replicas through a node failure and each scale, and the run replays from its seed', async () => {
    const run = await reference();
    expect(run.error).toBeUndefined();
    expect(run.steps.map((s) => [s.label, s.desired, s.converged])).toEqual([
      ['created with 4 replicas', 4, true],
      ['scaled down to 3', 3, true],
      ['worker-1 died: NotReady after 50 s, its pods evicted 300 s later and replaced', 3, true],
      ['scaled down to 2', 2, true],
      ['new image nginx:1.28 (not pulled yet), scaled to 5, and 0.5 s later to 2', 2, true],
    ]);
    const [created, scaledDown, died, , churn] = run.steps;
    expect(created!.created).toHaveLength(4);
    expect(scaledDown!.deleted).toHaveLength(1);
    // the dead worker's pods are evicted (stuck Terminating: no kubelet confirms) and replaced elsewhere
    expect(died!.nodes).toContainEqual({ name: 'worker-1', ready: false });
    expect(died!.evicted.length).toBeGreaterThan(0);
    expect(died!.created).toHaveLength(died!.evicted.length);
    expect(died!.pods.filter((p) => !p.deleting).every((p) => p.node !== 'worker-1')).toBe(true);
    // the pods still pulling the new image are the ones deleted, the running ones stay
    expect(churn!.created).toHaveLength(3);
    expect([...churn!.deleted].sort()).toEqual([...churn!.created].sort());
    expect(run.events.some((e) => e.startsWith('SuccessfulDelete: Deleted pod: web-'))).toBe(true);
    expect(await runScenario(scenario, undefined, SEED)).toEqual(run);
  });

  it('the lab solution drives the cluster exactly as the built-in controller does', async () => {
    const mine = await runScenario(scenario, labSolution, SEED);
    expect(firstDivergentStep(mine, await reference())).toBeUndefined();
    expect(mine).toEqual(await reference());
    const comparison = scenario.compare(mine, await reference());
    expect(comparison.firstDifference).toBeUndefined();
    expect(comparison.summary).toBe('Your code drove the cluster exactly as the reference did, at all 5 steps.');
    expect(JSON.stringify(comparison.report)).not.toContain('≠');
  });

  // Mutants that cannot show here: counts-terminating and ignores-owner (the controller filters
  // out terminating pods and pods of other owners before calling the reconciler, as upstream's
  // syncReplicaSet does), replicas-default-zero (the API server defaults spec.replicas to 1),
  // fewer-restarts-first (no container restarts in this scenario), no-burst-cap (4 replicas, far
  // below the burst of 500), ignores-doubled-up (below: no related pods, no doubled-up rank) and
  // ranks-own-pods (its own pods per node pick the same pods here; only the order of the last
  // step's deletions differs).
  it.each([
    ['oldest-ready-first', 3, oldestReadyFirst],
    ['running-first', 4, runningFirst],
  ] as const)('the mutant %s shows a different cluster from step %i on', async (_name, step, mutant) => {
    const learner = await runScenario(scenario, mutant, SEED);
    expect(learner.error).toBeUndefined();
    expect(firstDivergentStep(learner, await reference())).toBe(step);
    const comparison = scenario.compare(learner, await reference());
    expect(comparison.firstDifference).toBe(`step ${step + 1}: ${(await reference()).steps[step]!.label}`);
    expect(comparison.summary).toMatch(new RegExp(`^Your code first differs from the reference at step ${step + 1} `));
    expect(JSON.stringify(comparison.report)).toContain('≠');
  });

  // The story's ReplicaSet is applied on its own: it has no controller, so the controller passes it
  // no related pods (upstream's getReplicaSetsWithSameController returns none) and no pod ranks as
  // doubled up. A mistake in that rank cannot show here; the graded tests catch it.
  it('the ReplicaSet has no controller: no related pods, so ignores-doubled-up drives the cluster as the reference does', async () => {
    const relatedAtScaleDown: number[] = [];
    const spy: ReplicaSetReconciler = (rs, pods, ctx) => {
      if (rs.metadata.name === 'web' && pods.length > (rs.spec.replicas ?? 1)) relatedAtScaleDown.push(ctx.relatedPods.length);
      return labSolution.reconcileReplicaSet(rs, pods, ctx);
    };
    expect(await withReconciler(spy)).toEqual(await reference());
    expect(relatedAtScaleDown.length).toBeGreaterThan(0);
    expect(relatedAtScaleDown.every((n) => n === 0)).toBe(true);
    expect(await runScenario(scenario, ignoresDoubledUp, SEED)).toEqual(await reference());
  });

  it('a reconciler that forgets to scale down never converges, and the run says which step', async () => {
    const neverDeletes: ReplicaSetReconciler = (rs, pods, ctx) => ({ ...labSolution.reconcileReplicaSet(rs, pods, ctx), podsToDelete: [] });
    const learner = await withReconciler(neverDeletes);
    expect(firstDivergentStep(learner, await reference())).toBe(1);
    expect(learner.steps[1]).toMatchObject({ label: 'scaled down to 3', converged: false, deleted: [] });
  });

  it.each([
    ['a throw', () => { throw new TypeError('pods.filtr is not a function'); }, 'reconcileReplicaSet threw while syncing ReplicaSet "coredns-b66c85d5d": TypeError: pods.filtr is not a function'],
    ['a malformed answer', () => ({ podsToCreate: -1, podsToDelete: [] }), 'reconcileReplicaSet returned podsToCreate = -1 (a whole number >= 0 is expected) for ReplicaSet "coredns-b66c85d5d"'],
    ['undefined', () => undefined, 'reconcileReplicaSet returned undefined instead of { podsToCreate, podsToDelete } for ReplicaSet "coredns-b66c85d5d"'],
  // the learner's reconciler runs the cluster's every ReplicaSet: CoreDNS's in kube-system is the first it meets
  ])('stops at %s from the learner code and names the function', async (_name, broken, message) => {
    const run = await withReconciler(broken as unknown as ReplicaSetReconciler);
    expect(run.error).toBe(`LearnerCodeError: ${message}`);
    expect(run.steps).toEqual([]);
    const comparison = scenario.compare(run, await reference());
    expect(comparison.learnerError).toBe(run.error);
    expect(comparison.summary).toBe('Your code stopped the run at step 1.');
  });

  it('reports progress, and stops when the simulated-time budget is used up', async () => {
    const progress: string[] = [];
    const run = await runScenario(scenario, undefined, SEED, { budgetMs: 60_000, onProgress: (what) => progress.push(what) });
    expect(progress.slice(0, 3)).toEqual(['the cluster is up', 'step 1: created with 4 replicas', 'step 2: scaled down to 3']);
    expect(run.error).toBe('BudgetExceeded: the scenario used up its simulated-time budget of 60 s and was stopped');
    expect(run.steps.map((s) => s.label)).toEqual(['created with 4 replicas', 'scaled down to 3']);
  });
});
