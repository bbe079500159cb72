// Which pods a scoped ResourceQuota counts. mirrors pkg/quota/v1/evaluator/core/pods.go
// (podMatchesScopeFunc) and pkg/quota/v1/resources.go (Matches): every scope in spec.scopes and
// every spec.scopeSelector.matchExpressions entry must match the pod; a scoped quota never counts
// objects other than pods (their evaluators use MatchesNoScopeFunc).
// PriorityClass is matched as upstream does it: a label selector over the one-label set
// {PriorityClass: pod.spec.priorityClassName}, so NotIn matches pods without a class, and
// DoesNotExist never matches (the key is always present, perhaps with an empty value).
import type { Pod } from '../../../api/index.ts';

export interface ScopedResourceSelectorRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface QuotaScopes {
  scopes?: string[];
  scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] };
}

const TERMINAL = new Set(['Succeeded', 'Failed']);

/** The quota's scope requirements: spec.scopes as Exists requirements, then the selector's. */
export function scopeRequirements(spec: QuotaScopes | undefined): ScopedResourceSelectorRequirement[] {
  return [
    ...(spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' })),
    ...(spec?.scopeSelector?.matchExpressions ?? []),
  ];
}

function isBestEffort(pod: Pod): boolean {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].every(
    (c) => Object.keys(c.resources?.requests ?? {}).length === 0 && Object.keys(c.resources?.limits ?? {}).length === 0,
  );
}

/** labels.Selector semantics over the set {key: value}. */
function selectorMatches(r: ScopedResourceSelectorRequirement, value: string): boolean {
  switch (r.operator) {
    case 'In': return (r.values ?? []).includes(value);
    case 'NotIn': return !(r.values ?? []).includes(value);
    case 'Exists': return true;
    case 'DoesNotExist': return false;
    default: return false;
  }
}

export function podMatchesScope(pod: Pod, r: ScopedResourceSelectorRequirement): boolean {
  const terminating = pod.spec?.activeDeadlineSeconds !== undefined && pod.spec.activeDeadlineSeconds >= 0;
  switch (r.scopeName) {
    case 'Terminating': return terminating;
    case 'NotTerminating': return !terminating;
    case 'BestEffort': return isBestEffort(pod);
    case 'NotBestEffort': return !isBestEffort(pod);
    case 'PriorityClass': {
      const name = pod.spec?.priorityClassName ?? '';
      if (r.operator === 'Exists') return name !== '';
      return selectorMatches(r, name);
    }
    default: return false;
  }
}

/** Whether a quota with these scopes counts this object (of resource `resource` in the core group). */
export function quotaCounts(spec: QuotaScopes | undefined, group: string, resource: string, obj: unknown): boolean {
  const reqs = scopeRequirements(spec);
  if (reqs.length === 0) return true;
  if (group !== '' || resource !== 'pods') return false;
  const pod = obj as Pod;
  return reqs.every((r) => podMatchesScope(pod, r));
}

export const isTerminalPod = (obj: unknown): boolean => TERMINAL.has((obj as Pod).status?.phase ?? '');
