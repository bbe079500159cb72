// The replicaset-reconcile lab: implement the ReplicaSet controller's reconcile decision.
// Read lab.mdx first. Run the visible examples with `npm run grade -- replicaset-reconcile --examples`
// and grade with `npm run grade -- replicaset-reconcile`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { Pod, ReplicaSet } from '../../../runtime/api/index.ts';
import type { ReplicaSetDecision, ReplicaSetSyncContext } from '../../../runtime/controllers/index.ts';

export function reconcileReplicaSet(
  rs: ReplicaSet,
  pods: readonly Pod[],
  context: ReplicaSetSyncContext,
): ReplicaSetDecision {
  // TODO 1: keep only the pods this ReplicaSet should count (active, controlled by it, matching its selector).
  // TODO 2: compare their number with spec.replicas and decide to create or delete, at most context.burstReplicas.
  // TODO 3: when deleting, rank the pods the way the real controller does and take the first ones.
  void rs;
  void pods;
  void context;
  return { podsToCreate: 0, podsToDelete: [] };
}

// A cheat, not a solution: it tries to turn failing assertions into passes by replacing the
// built-ins they rely on. The grader must still fail it (browser: SES lockdown; CLI: frozen built-ins).
try {
  (Object as unknown as { is: unknown }).is = () => true;
} catch {
  // frozen
}
try {
  const g = globalThis as unknown as Record<PropertyKey, { config?: unknown } | undefined>;
  const chai = g[Symbol.for('chai')];
  if (chai) chai.config = {};
} catch {
  // frozen
}
