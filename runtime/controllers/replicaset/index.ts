// The ReplicaSet controller's public pieces (see types.ts).
export { BURST_REPLICAS } from './types.ts';
export type { ReplicaSetDecision, ReplicaSetReconciler, ReplicaSetSyncContext } from './types.ts';
