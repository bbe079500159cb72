// Types for the fixed specifier every lab suite imports the learner's module from.
// At run time it resolves to the graded file (scripts/lib/labs/submission-plugin.ts in Node,
// a virtual module in the browser). One module for all labs: each suite uses its lab's names.
declare module '@lab/submission' {

  export const reconcileReplicaSet: import('../runtime/controllers/index.ts').ReplicaSetReconciler;
}
