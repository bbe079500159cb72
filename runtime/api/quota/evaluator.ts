// The quota evaluators, shared by the ResourceQuota admission plugin (apiserver) and the
// resourcequota controller (controllers), as upstream shares pkg/quota/v1/evaluator/core.
// What an object counts for: pods.go podEvaluator.Usage (count/pods always; pods and compute only
// while the pod is not terminal), services.go, and the generic count/<resource>[.<group>].
// Differs from upstream: a pod's compute usage is the sum of its containers' requests and limits
// (no init-container maximum, no pod overhead).
// Which objects a scoped quota counts: pods.go podMatchesScopeFunc and resources.go Matches: every scope in spec.scopes and
// every spec.scopeSelector.matchExpressions entry must match the pod; a scoped quota never counts
// objects other than pods (their evaluators use MatchesNoScopeFunc).
// PriorityClass is matched as upstream does it: a label selector over the one-label set
// {PriorityClass: pod.spec.priorityClassName}, so NotIn matches pods without a class, and
// DoesNotExist never matches (the key is always present, perhaps with an empty value).
import { Quantity } from '../resource/quantity.ts';
import type { KubeObject, Pod, Service } from '../types/index.ts';

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

/** Resource name -> amount: what objects count for, or what a quota has used. */
export type QuotaUsage = Map<string, Quantity>;

/** A quantity from a ResourceList value, undefined when it does not parse. */
export function parseQuotaQuantity(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const r = Quantity.parse(String(v));
  return r.ok ? r.quantity : undefined;
}

/** resources.go Add, one name at a time. */
export function addUsage(u: QuotaUsage, name: string, q: Quantity): void {
  u.set(name, (u.get(name) ?? Quantity.fromInt(0)).add(q));
}

const ONE = Quantity.fromInt(1);

/** "count/pods", "count/deployments.apps": GroupResource.String() after count/. */
export const countName = (group: string, resource: string): string => (group === '' ? `count/${resource}` : `count/${resource}.${group}`);

function podUsage(pod: Pod, u: QuotaUsage): void {
  if (isTerminalPod(pod)) return;
  addUsage(u, 'pods', ONE);
  for (const c of Array.isArray(pod.spec?.containers) ? pod.spec.containers : []) {
    for (const [kind, list] of [['requests', c?.resources?.requests], ['limits', c?.resources?.limits]] as const) {
      for (const [name, value] of Object.entries(list ?? {})) {
        const q = parseQuotaQuantity(value);
        if (!q) continue;
        addUsage(u, `${kind}.${name}`, q);
        if (kind === 'requests') addUsage(u, name, q);
      }
    }
  }
}

/** serviceEvaluator.Usage: services, services.nodeports and services.loadbalancers. */
function serviceUsage(svc: Service, u: QuotaUsage): void {
  addUsage(u, 'services', ONE);
  const type = svc.spec?.type ?? 'ClusterIP';
  if (type === 'LoadBalancer') addUsage(u, 'services.loadbalancers', ONE);
  if (type === 'NodePort' || type === 'LoadBalancer') addUsage(u, 'services.nodeports', Quantity.fromInt((svc.spec?.ports ?? []).length));
}

/** What one object of group/resource counts for. */
export function objectUsage(group: string, resource: string, obj: KubeObject): QuotaUsage {
  const u: QuotaUsage = new Map();
  addUsage(u, countName(group, resource), ONE);
  if (group !== '') return u;
  if (resource === 'pods') podUsage(obj as Pod, u);
  else if (resource === 'services') serviceUsage(obj as Service, u);
  else if (['configmaps', 'resourcequotas', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers'].includes(resource)) addUsage(u, resource, ONE);
  return u;
}
