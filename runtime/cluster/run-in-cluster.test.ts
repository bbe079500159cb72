import { describe, expect, it } from 'vitest';
import { reconcileReplicaSet, type ReplicaSetReconciler } from '../controllers/index.ts';
import { compareReplicaSetReconciler, runReplicaSetScenario } from './run-in-cluster.ts';
// the lab's reference answer and one of its plausible mistakes, plugged in as a learner's code is
import { reconcileReplicaSet as labSolution } from '../../labs/replicaset-reconcile/solution.ts';
import { reconcileReplicaSet as oldestReadyFirst } from '../../labs/replicaset-reconcile/mutants/oldest-ready-first.ts';

describe(
  'Run in cluster: a ReplicaSetReconciler drives the live cluster',
  { timeout: 180_000 },
  () => {
    it('the reference reconciler keeps 4 replicas through a node failure, then scales to 2', async () => {
      const run = await runReplicaSetScenario(undefined, 3);
      expect(run.error).toBeUndefined();
      expect(run.steps.map((s) => [s.label, s.converged])).toEqual([
        ['created with 4 replicas', true],
        ['worker-1 died; its pods were evicted and replaced', true],
        ['scaled down to 2', true],
      ]);
      expect(
        run.steps[1]!.pods.filter((p) => !p.deleting).every((p) => p.node !== 'worker-1'),
      ).toBe(true);
      expect(run.events.some((e) => e.startsWith('SuccessfulCreate: Created pod: web-'))).toBe(
        true,
      );
      expect(run.events.some((e) => e.startsWith('SuccessfulDelete: Deleted pod: web-'))).toBe(
        true,
      );
    });

    it('a learner piece that plugs in the reference behaves like it, and a wrong one shows it', async () => {
      const same = await compareReplicaSetReconciler(
        (rs, pods, ctx) => reconcileReplicaSet(rs, pods, ctx),
        3,
      );
      expect(same.learner.steps).toEqual(same.reference.steps);
      // a common mistake: forgetting to scale down
      const neverDeletes: ReplicaSetReconciler = (rs, pods, ctx) => ({
        ...reconcileReplicaSet(rs, pods, ctx),
        podsToDelete: [],
      });
      const wrong = await runReplicaSetScenario(neverDeletes, 3);
      expect(wrong.steps.at(-1)).toMatchObject({ label: 'scaled down to 2', converged: false });
      expect(wrong.steps.at(-1)!.pods.filter((p) => !p.deleting)).toHaveLength(4);
    });

    it('the replicaset-reconcile lab solution drives the cluster exactly as the built-in controller does', async () => {
      const { learner, reference } = await compareReplicaSetReconciler(labSolution, 5);
      expect(learner).toEqual(reference);
      const mistaken = await runReplicaSetScenario(oldestReadyFirst, 5);
      expect(mistaken.steps.at(-1)!.converged).toBe(true); // it still reaches 2 replicas...
      expect(mistaken.steps.at(-1)!.pods).not.toEqual(reference.steps.at(-1)!.pods); // ...but keeps other pods
    });
  },
);
