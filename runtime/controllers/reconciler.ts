// The shape every controller's decision step takes in this runtime.

/**
 * A reconciler is the pure heart of a level-triggered controller: it reads the desired state
 * (one object), the observed state (what the informer cache holds) and a context, and returns
 * a decision describing the API calls to make. It reads no clock, performs no I/O and keeps
 * no state between calls, so the same inputs always give the same decision; the controller
 * around it lists from the cache, calls it on every sync and carries the decision out.
 * mirrors the sync functions of pkg/controller/* (e.g. replica_set.go syncReplicaSet), minus
 * the side effects.
 */
export type Reconciler<Desired, Observed, Context, Decision> = (
  desired: Desired,
  observed: Observed,
  context: Context,
) => Decision;
