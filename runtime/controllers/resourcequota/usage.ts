// What a namespace's objects count for in a ResourceQuota: the quota evaluators of
// pkg/quota/v1/evaluator/core (pods.go: podEvaluator.Usage and podMatchesScopeFunc; services.go;
// the generic object-count evaluator for count/<resource>[.<group>]) and pkg/quota/v1/resources.go
// (Add, Mask). The API server's ResourceQuota admission plugin charges the same arithmetic
// (runtime/apiserver/admission/plugins/resource-quota.ts and quota-scopes.ts: that subsystem cannot
// be imported from here, so the scope rules are restated, keep them in step).
// Differs from upstream: a pod's compute usage is the sum of its containers' requests and limits
// (no init-container maximum, no pod overhead), as in our admission plugin.
import { Quantity, type KubeObject, type Pod, type ResourceQuota, type ResourceList, type Service } from '../../api/index.ts';

export type Usage = Map<string, Quantity>;
type Requirement = { scopeName: string; operator: string; values?: string[] };

function parse(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const r = Quantity.parse(String(v));
  return r.ok ? r.quantity : undefined;
}

function add(u: Usage, name: string, q: Quantity): void {
  u.set(name, (u.get(name) ?? Quantity.fromInt(0)).add(q));
}

const ONE = Quantity.fromInt(1);
const isTerminal = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

/** "pods", "deployments.apps": the name after count/ (GroupResource.String()). */
export const countName = (group: string, resource: string): string => (group === '' ? `count/${resource}` : `count/${resource}.${group}`);

/** podEvaluator.Usage: count/pods always; pods and compute only while the pod is not terminal. */
function podUsage(pod: Pod, u: Usage): void {
  if (isTerminal(pod)) return;
  add(u, 'pods', ONE);
  for (const c of pod.spec?.containers ?? []) {
    for (const [kind, list] of [['requests', c.resources?.requests], ['limits', c.resources?.limits]] as const) {
      for (const [name, value] of Object.entries(list ?? {})) {
        const q = parse(value);
        if (!q) continue;
        add(u, `${kind}.${name}`, q);
        if (kind === 'requests') add(u, name, q);
      }
    }
  }
}

/** serviceEvaluator.Usage: services, services.nodeports and services.loadbalancers. */
function serviceUsage(svc: Service, u: Usage): void {
  add(u, 'services', ONE);
  const type = svc.spec?.type ?? 'ClusterIP';
  if (type === 'LoadBalancer') add(u, 'services.loadbalancers', ONE);
  if (type === 'NodePort' || type === 'LoadBalancer') add(u, 'services.nodeports', Quantity.fromInt((svc.spec?.ports ?? []).length));
}

/** One object's usage, for an object of group/resource. */
export function objectUsage(group: string, resource: string, obj: KubeObject): Usage {
  const u: Usage = new Map();
  add(u, countName(group, resource), ONE);
  if (group !== '') return u;
  if (resource === 'pods') podUsage(obj as Pod, u);
  else if (resource === 'services') serviceUsage(obj as Service, u);
  else if (['configmaps', 'resourcequotas', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers'].includes(resource)) add(u, resource, ONE);
  return u;
}

function requirements(quota: ResourceQuota): Requirement[] {
  return [
    ...(quota.spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' })),
    ...(quota.spec?.scopeSelector?.matchExpressions ?? []),
  ];
}

function isBestEffort(pod: Pod): boolean {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].every(
    (c) => Object.keys(c.resources?.requests ?? {}).length === 0 && Object.keys(c.resources?.limits ?? {}).length === 0,
  );
}

/** podMatchesScopeFunc; PriorityClass as a selector over {PriorityClass: priorityClassName}. */
function podMatches(pod: Pod, r: Requirement): boolean {
  const terminating = pod.spec?.activeDeadlineSeconds !== undefined && pod.spec.activeDeadlineSeconds >= 0;
  switch (r.scopeName) {
    case 'Terminating': return terminating;
    case 'NotTerminating': return !terminating;
    case 'BestEffort': return isBestEffort(pod);
    case 'NotBestEffort': return !isBestEffort(pod);
    case 'PriorityClass': {
      const name = pod.spec?.priorityClassName ?? '';
      if (r.operator === 'Exists') return name !== '';
      if (r.operator === 'In') return (r.values ?? []).includes(name);
      if (r.operator === 'NotIn') return !(r.values ?? []).includes(name);
      return false;
    }
    default: return false;
  }
}

/** Whether the quota counts this object: unscoped quotas count everything, scoped ones only matching pods. */
export function quotaCountsObject(quota: ResourceQuota, group: string, resource: string, obj: KubeObject): boolean {
  const reqs = requirements(quota);
  if (reqs.length === 0) return true;
  return group === '' && resource === 'pods' && reqs.every((r) => podMatches(obj as Pod, r));
}

/** The group/resource a quota needs listed to compute one of its hard names (undefined: nothing to count). */
export function sourceOf(name: string): { group: string; resource: string } | undefined {
  if (name.startsWith('count/')) {
    const gr = name.slice('count/'.length);
    const dot = gr.indexOf('.');
    return dot < 0 ? { group: '', resource: gr } : { group: gr.slice(dot + 1), resource: gr.slice(0, dot) };
  }
  if (name === 'pods' || /^(requests\.|limits\.)?(cpu|memory|ephemeral-storage)$/.test(name) || name.startsWith('requests.hugepages-') || name.startsWith('hugepages-')) return { group: '', resource: 'pods' };
  if (name.startsWith('services')) return { group: '', resource: 'services' };
  if (['configmaps', 'resourcequotas', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers'].includes(name)) return { group: '', resource: name };
  return undefined;
}

/**
 * syncResourceQuota's status: hard is spec.hard, used holds every hard name (zero when nothing
 * counts for it) with what the listed objects add up to. `objects` lists a source's objects in
 * the quota's namespace, or undefined when that source is not served or not listed yet.
 */
export function calculateStatus(
  quota: ResourceQuota,
  objects: (group: string, resource: string) => readonly KubeObject[] | undefined,
): { hard: ResourceList; used: ResourceList } | undefined {
  const hard: ResourceList = {};
  const used: ResourceList = {};
  const names = Object.keys(quota.spec?.hard ?? {}).sort();
  const sources = new Map<string, { group: string; resource: string }>();
  for (const name of names) {
    const value = quota.spec!.hard![name]!;
    hard[name] = parse(value)?.toString() ?? value;
    const src = sourceOf(name);
    if (src) sources.set(`${src.group}/${src.resource}`, src);
  }
  const total: Usage = new Map();
  for (const { group, resource } of sources.values()) {
    const list = objects(group, resource);
    if (list === undefined) return undefined;
    for (const obj of list) {
      if (!quotaCountsObject(quota, group, resource, obj)) continue;
      for (const [k, v] of objectUsage(group, resource, obj)) add(total, k, v);
    }
  }
  for (const name of names) used[name] = (total.get(name) ?? Quantity.fromInt(0)).toString();
  return { hard, used };
}
