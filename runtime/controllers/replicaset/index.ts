// The ReplicaSet controller's public pieces (see types.ts).
export { BURST_REPLICAS } from './types.ts';
export type { ReplicaSetDecision, ReplicaSetReconciler, ReplicaSetSyncContext } from './types.ts';
export { ReplicaSetController, calculateStatus, podFromTemplate, type ReplicaSetControllerOptions } from './controller.ts';
export { reconcileReplicaSet, rankPodsForDeletion } from './reconcile.ts';
