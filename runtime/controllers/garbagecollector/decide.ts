// What attemptToDeleteItem does with an object once its owners are classified, as a pure decision.
// mirrors pkg/controller/garbagecollector/garbagecollector.go (attemptToDeleteItem,
// classifyReferences, the solid / dangling / waitingForDependentsDeletion cases).
import type { OwnerReference } from '../../api/index.ts';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from './graph.ts';

/** What a live lookup of one owner found. */
export type OwnerState = 'solid' | 'dangling' | 'waitingForDependentsDeletion';

export type DeletePolicy = 'Background' | 'Foreground' | 'Orphan';

export type GcDecision =
  | { action: 'none' }
  /** Drop the references to these owners (dangling, or owners waiting on us while another owner is solid). */
  | { action: 'removeOwnerReferences'; ownerUids: string[] }
  /** Delete the object; unblockFirst: set blockOwnerDeletion false first (cycle breaking). */
  | { action: 'delete'; policy: DeletePolicy; unblockFirst: boolean };

export interface ItemFacts {
  ownerReferences: readonly OwnerReference[];
  /** State of each owner, by uid. */
  owners: ReadonlyMap<string, OwnerState>;
  finalizers: readonly string[];
  /** The item has dependents in the graph. */
  hasDependents: boolean;
  /** One of its dependents is itself deleting its dependents (foreground). */
  aDependentIsDeletingDependents: boolean;
}

export function decideAttemptToDelete(f: ItemFacts): GcDecision {
  if (f.ownerReferences.length === 0) return { action: 'none' };
  const of = (state: OwnerState): OwnerReference[] => f.ownerReferences.filter((r) => (f.owners.get(r.uid) ?? 'dangling') === state);
  const solid = of('solid');
  const dangling = of('dangling');
  const waiting = of('waitingForDependentsDeletion');
  if (solid.length > 0) {
    if (dangling.length === 0 && waiting.length === 0) return { action: 'none' };
    // waiting owners must be dropped too, or they would keep their foregroundDeletion finalizer forever
    return { action: 'removeOwnerReferences', ownerUids: [...dangling, ...waiting].map((r) => r.uid) };
  }
  if (waiting.length > 0 && f.hasDependents) {
    return { action: 'delete', policy: 'Foreground', unblockFirst: f.aDependentIsDeletingDependents };
  }
  // no solid owner left: collect it, honouring a finalizer that already asked for a policy
  const policy: DeletePolicy = f.finalizers.includes(ORPHAN_FINALIZER) ? 'Orphan' : f.finalizers.includes(FOREGROUND_FINALIZER) ? 'Foreground' : 'Background';
  return { action: 'delete', policy, unblockFirst: false };
}

/** classifyReferences for one owner from what a GET returned (undefined: 404). */
export function classifyOwner(ref: OwnerReference, owner: { metadata: { uid?: string; deletionTimestamp?: string; finalizers?: string[] } } | undefined): OwnerState {
  if (!owner || owner.metadata.uid !== ref.uid) return 'dangling';
  if (owner.metadata.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER)) return 'waitingForDependentsDeletion';
  return 'solid';
}
