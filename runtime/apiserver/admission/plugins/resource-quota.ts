// ResourceQuota: a create that would push a namespace over a ResourceQuota's hard limits is refused.
// mirrors plugin/pkg/admission/resourcequota/controller.go (checkRequest) and its message
// "exceeded quota: <name>, requested: <r>, used: <u>, limited: <l>".
// A quota with scopes or a scopeSelector (PriorityClass, BestEffort, Terminating...) counts only the
// pods that match them; what an object counts for and the scope rules are runtime/api/quota's
// evaluators, shared with the resourcequota controller.
// Differs from upstream: usage is counted from the replica's cache on every request (upstream
// reads status.used, kept by the quota controller, and increments it in the same admission call).
import {
  addUsage, objectUsage, parseQuotaQuantity as parse, Quantity, quotaCounts, type KubeObject, type QuotaScopes, type QuotaUsage as Usage,
} from '../../../api/index.ts';
import { admissionForbidden } from '../forbidden.ts';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types.ts';

/** What one object counts for (the shared quota evaluators of runtime/api/quota). */
const usageOf = (obj: KubeObject, a: AdmissionAttributes): Usage => objectUsage(a.resource.group, a.resource.resource, obj);

function used(ctx: AdmissionContext, a: AdmissionAttributes, scopes: QuotaScopes | undefined): Usage {
  const total: Usage = new Map();
  for (const o of ctx.cachedList(a.resource.group, a.resource.resource, a.namespace!)) {
    if (!quotaCounts(scopes, a.resource.group, a.resource.resource, o)) continue;
    for (const [k, v] of usageOf(o, a)) addUsage(total, k, v);
  }
  return total;
}

const fmt = (names: string[], u: Usage): string => names.map((n) => `${n}=${(u.get(n) ?? Quantity.fromInt(0)).toString()}`).join(',');

export const resourceQuota: AdmissionPlugin = {
  name: 'ResourceQuota',
  validate(a, ctx, done) {
    if (a.operation !== 'CREATE' || a.subresource || !a.namespace || !a.object) return done();
    const quotas = ctx.cachedList('', 'resourcequotas', a.namespace);
    if (quotas.length === 0) return done();
    const requested = usageOf(a.object, a);
    for (const quota of quotas) {
      const spec = (quota as { spec?: QuotaScopes & { hard?: Record<string, unknown> } }).spec;
      if (!quotaCounts(spec, a.resource.group, a.resource.resource, a.object)) continue;
      const hard = spec?.hard ?? {};
      const names = Object.keys(hard).filter((n) => requested.has(n)).sort();
      if (names.length === 0) continue;
      const current = used(ctx, a, spec);
      const exceeded = names.filter((n) => {
        const limit = parse(hard[n]);
        return limit !== undefined && (current.get(n) ?? Quantity.fromInt(0)).add(requested.get(n)!).cmp(limit) > 0;
      });
      if (exceeded.length === 0) continue;
      const limited = new Map(exceeded.map((n) => [n, parse(hard[n])!]));
      return done(admissionForbidden(a, `exceeded quota: ${quota.metadata.name}, requested: ${fmt(exceeded, requested)}, used: ${fmt(exceeded, current)}, limited: ${fmt(exceeded, limited)}`));
    }
    done();
  },
};
