// The namespace deleter's status conditions: every sync sets all five condition types, the failing
// ones True with what went wrong and the others False with their "ok" reason and message.
// mirrors pkg/controller/namespace/deletion/status_condition_utils.go (okReasons, okMessages,
// ProcessContentTotals, makeDeleteContentCondition, updateConditions).
import type { Namespace } from '../../api/index.ts';

export type NamespaceCondition = NonNullable<NonNullable<Namespace['status']>['conditions']>[number];

export const NAMESPACE_CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;
type ConditionType = (typeof NAMESPACE_CONDITION_TYPES)[number];

const OK: Record<ConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
};

/** What one pass over the namespace's content found. */
export interface ContentTotals {
  /** "pods." or "deployments.apps" -> instances still there. */
  remainingByResource: Map<string, number>;
  /** finalizer -> instances still carrying it. */
  remainingByFinalizer: Map<string, number>;
  /** Errors from deleting or listing a resource type. */
  deleteErrors: string[];
}

/** The failing conditions this pass produced (the rest become their "ok" variant in updateConditions). */
export function failureConditions(totals: ContentTotals, now: string): NamespaceCondition[] {
  const out: NamespaceCondition[] = [];
  if (totals.deleteErrors.length > 0) {
    const msgs = [...totals.deleteErrors].sort();
    out.push({
      type: 'NamespaceDeletionContentFailure', status: 'True', lastTransitionTime: now, reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
    });
  }
  const resources = [...totals.remainingByResource].filter(([, n]) => n > 0).map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
  if (totals.remainingByResource.size > 0) {
    out.push({
      type: 'NamespaceContentRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${resources.join(', ')}`,
    });
  }
  const finalizers = [...totals.remainingByFinalizer].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
  if (totals.remainingByFinalizer.size > 0) {
    out.push({
      type: 'NamespaceFinalizersRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeFinalizerRemain',
      message: `Some finalizers are remaining: ${finalizers.join(', ')}`,
    });
  }
  return out;
}

/**
 * updateConditions: the new condition list and whether it changed. A condition keeps its
 * lastTransitionTime unless its status flips.
 */
export function updateConditions(existing: readonly NamespaceCondition[], failures: readonly NamespaceCondition[], now: string): { conditions: NamespaceCondition[]; changed: boolean } {
  const conditions = existing.map((c) => ({ ...c }));
  let changed = false;
  for (const type of NAMESPACE_CONDITION_TYPES) {
    const next = failures.find((c) => c.type === type) ?? { type, status: 'False' as const, lastTransitionTime: now, ...OK[type] };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push({ ...next });
      changed = true;
    } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
      if (old.status !== next.status) old.lastTransitionTime = now;
      old.status = next.status;
      if (next.reason !== undefined) old.reason = next.reason;
      if (next.message !== undefined) old.message = next.message;
      changed = true;
    }
  }
  return { conditions, changed };
}
