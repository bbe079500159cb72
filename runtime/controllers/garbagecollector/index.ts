// The garbage collector's public pieces.
export { GarbageCollector, monitoredResources, type GarbageCollectorOptions } from './controller.ts';
export { DependencyGraph, FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type GraphNode, type GraphWork, type ObjectIdentity } from './graph.ts';
export { decideAttemptToDelete, classifyOwner, type GcDecision, type ItemFacts, type OwnerState } from './decide.ts';
