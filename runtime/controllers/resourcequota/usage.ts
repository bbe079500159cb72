// The resourcequota controller's arithmetic: which objects a quota needs listed (sourceOf) and its
// status (calculateStatus). What each object counts for and which objects a scoped quota counts
// are runtime/api/quota's evaluators, shared with the ResourceQuota admission plugin, as upstream
// shares pkg/quota/v1/evaluator/core.
import {
  addUsage as add, objectUsage, parseQuotaQuantity as parse, Quantity, quotaCounts,
  type KubeObject, type QuotaUsage as Usage, type ResourceList, type ResourceQuota,
} from '../../api/index.ts';

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
      if (!quotaCounts(quota.spec, group, resource, obj)) continue;
      for (const [k, v] of objectUsage(group, resource, obj)) add(total, k, v);
    }
  }
  for (const name of names) used[name] = (total.get(name) ?? Quantity.fromInt(0)).toString();
  return { hard, used };
}
