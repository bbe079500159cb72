// runtime/controllers: the controller-manager's controllers, its public face.
// Each controller is a folder; its decision step is a pure Reconciler (reconciler.ts) that labs
// can replace with a learner's implementation.
export type { Reconciler } from './reconciler.ts';
export { BURST_REPLICAS } from './replicaset/index.ts';
export type { ReplicaSetDecision, ReplicaSetReconciler, ReplicaSetSyncContext } from './replicaset/index.ts';
