// Which victims would break a PodDisruptionBudget. mirrors filterPodsWithPDBViolation in
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go: every PDB of the pod's
// namespace whose selector matches the pod's labels loses one allowed disruption (unless the pod is
// already in status.disruptedPods, which the eviction API has counted); a pod that drives any budget
// below zero is "violating". Nil and empty selectors match nothing here (unlike elsewhere, where an
// empty selector matches every pod), and an invalid selector matches nothing.
import { budgetGuards, type PodDisruptionBudget } from '../../../api/index.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';

interface Budget {
  namespace: string;
  matches: (labels: Readonly<Record<string, string>>) => boolean;
  disruptedPods: Readonly<Record<string, unknown>>;
  allowed: number;
}

function budgetOf(pdb: PodDisruptionBudget): Budget {
  return {
    namespace: pdb.metadata.namespace ?? '',
    matches: budgetGuards(pdb),
    disruptedPods: pdb.status?.disruptedPods ?? {},
    allowed: pdb.status?.disruptionsAllowed ?? 0,
  };
}

/**
 * Splits `pods` into those whose preemption would violate a budget and the others. Stable: each
 * group keeps the input order (the caller passes victims sorted by importance).
 */
export function filterPodsWithPDBViolation(
  pods: readonly SchedPodInfo[],
  pdbs: readonly PodDisruptionBudget[],
): [violating: SchedPodInfo[], nonViolating: SchedPodInfo[]] {
  const budgets = pdbs.map(budgetOf);
  const violating: SchedPodInfo[] = [];
  const nonViolating: SchedPodInfo[] = [];
  for (const p of pods) {
    let violated = false;
    // a pod with no labels matches no budget
    if (Object.keys(p.labels).length > 0) {
      for (const b of budgets) {
        if (b.namespace !== p.namespace || !b.matches(p.labels)) continue;
        // already evicted through the API: counted there, do not count it twice
        if (Object.hasOwn(b.disruptedPods, p.name)) continue;
        b.allowed--;
        if (b.allowed < 0) violated = true;
      }
    }
    (violated ? violating : nonViolating).push(p);
  }
  return [violating, nonViolating];
}
