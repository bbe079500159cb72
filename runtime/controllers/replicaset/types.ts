// The ReplicaSet reconcile decision as a pure function: what the learner implements in the
// replicaset-reconcile lab and what the controller-manager will call on every sync.
// mirrors pkg/controller/replicaset/replica_set.go (syncReplicaSet, manageReplicas) and
// pkg/controller/controller_utils.go (FilterActivePods, ActivePodsWithRanks).
import type { Pod, ReplicaSet } from '../../api/index.ts';
import type { Reconciler } from '../reconciler.ts';

/**
 * Upstream's burstReplicas: the most pods one sync may create or delete
 * (pkg/controller/replicaset/replica_set.go, BurstReplicas = 500).
 */
export const BURST_REPLICAS = 500;

/** What the controller knows besides the ReplicaSet and its pods. */
export interface ReplicaSetSyncContext {
  /** Cap on creations or deletions in one sync; BURST_REPLICAS in the real controller. */
  burstReplicas: number;
  /**
   * The pods related to this ReplicaSet (upstream's getIndirectlyRelatedPods): every pod matching
   * the selector of a ReplicaSet that has the same controller as this one (all the ReplicaSets of
   * one Deployment, this one included), each pod once. Empty when the ReplicaSet has no controller.
   * Their active ones, counted per node, give the "doubled up" rank when scaling down. The
   * controller lists them only when it has pods to delete, as upstream's manageReplicas does.
   */
  relatedPods: readonly Pod[];
}

/**
 * The outcome of one sync: the controller then issues the API calls.
 * At most one of the two is non-zero: a sync either scales up or scales down.
 */
export interface ReplicaSetDecision {
  /** How many new pods to create from spec.template (0 when scaling down or at the desired count). */
  podsToCreate: number;
  /**
   * Names of the pods to delete, most deletable first (the order upstream's getPodsToDelete
   * sorts them in). Empty when scaling up or at the desired count.
   */
  podsToDelete: string[];
}

/**
 * The ReplicaSet reconcile decision. Given the ReplicaSet and every pod in its namespace
 * (as the informer cache would list them), decide how to move the actual state toward
 * spec.replicas (default 1):
 * - count only active pods (phase not Succeeded/Failed, no deletionTimestamp) that this
 *   ReplicaSet controls (an ownerReference with controller: true and its uid) and that match
 *   its selector;
 * - create or delete the difference, capped at context.burstReplicas;
 * - when deleting, pick the pods upstream would pick first (unassigned, Pending, not ready,
 *   doubled up on a node with more of context.relatedPods, recently ready, restarting, newest);
 * - do nothing while the ReplicaSet itself is being deleted.
 * Must not modify its arguments.
 */
export type ReplicaSetReconciler = Reconciler<ReplicaSet, readonly Pod[], ReplicaSetSyncContext, ReplicaSetDecision>;
