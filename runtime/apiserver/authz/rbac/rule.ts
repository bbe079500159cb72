// Whether one RBAC rule covers a request.
// mirrors plugin/pkg/auth/authorizer/rbac/rbac.go RuleAllows and
// pkg/apis/rbac/v1/evaluation_helpers.go (VerbMatches, APIGroupMatches, ResourceMatches,
// ResourceNameMatches, NonResourceURLMatches).
import type { PolicyRule } from '../../../api/index.ts';
import type { Attributes } from '../attributes.ts';

const ALL = '*';

export const verbMatches = (rule: PolicyRule, verb: string): boolean =>
  (rule.verbs ?? []).some((v) => v === ALL || v === verb);

export const apiGroupMatches = (rule: PolicyRule, group: string): boolean =>
  (rule.apiGroups ?? []).some((g) => g === ALL || g === group);

/** "pods/status" matches "pods/status", "*" and "*\/status". */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource === '') continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** An empty resourceNames list allows every name (including none, as for list and create). */
export const resourceNameMatches = (rule: PolicyRule, name: string): boolean =>
  !rule.resourceNames || rule.resourceNames.length === 0 || rule.resourceNames.includes(name);

/** "/healthz" matches "/healthz", "*" and "/health*". */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ALL || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (!a.resourceRequest) return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path ?? '');
  const subresource = a.subresource ?? '';
  const combined = subresource === '' ? (a.resource ?? '') : `${a.resource ?? ''}/${subresource}`;
  return (
    verbMatches(rule, a.verb) &&
    apiGroupMatches(rule, a.apiGroup ?? '') &&
    resourceMatches(rule, combined, subresource) &&
    resourceNameMatches(rule, a.name ?? '')
  );
}
