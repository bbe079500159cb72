// The namespace controller's public pieces.
export { NamespaceController, FINALIZER_KUBERNETES, FINALIZER_ESTIMATE_SECONDS, deletableNamespacedResources, estimateForPods, type NamespaceControllerOptions } from './controller.ts';
export { NAMESPACE_CONDITION_TYPES, failureConditions, updateConditions, type ContentTotals, type NamespaceCondition } from './conditions.ts';
