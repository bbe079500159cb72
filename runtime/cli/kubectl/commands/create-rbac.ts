// kubectl create role | clusterrole | rolebinding | clusterrolebinding NAME: mirrors
// staging/src/k8s.io/kubectl/pkg/cmd/create/{create_role.go, create_clusterrole.go,
// create_rolebinding.go, create_clusterrolebinding.go}. A role gets one rule per API group of its
// resources (groups sorted), each with all the verbs; a binding's subjects are its users, then
// groups, then service accounts.
import { lookupResource, type ClusterRole, type ClusterRoleBinding, type KubeObject, type PolicyRule, type Role, type RoleBinding, type Subject } from '../../../api/index.ts';
import { flagString, flagStrings } from '../args.ts';
import type { Ctx } from '../context.ts';

type Built = KubeObject | { error: string };
const RBAC = 'rbac.authorization.k8s.io';
const RBAC_V1 = `${RBAC}/v1`;

/** validResourceVerbs: others are allowed, with a warning. */
const STANDARD_VERBS = new Set(['*', 'get', 'delete', 'list', 'create', 'update', 'patch', 'watch', 'proxy', 'deletecollection', 'use', 'bind', 'escalate', 'impersonate']);
/** specialVerbs: verbs that only make sense on certain resources. */
const SPECIAL_VERBS: Record<string, { group: string; resource: string }[]> = {
  use: [{ group: 'policy', resource: 'podsecuritypolicies' }, { group: 'extensions', resource: 'podsecuritypolicies' }],
  bind: [{ group: RBAC, resource: 'roles' }, { group: RBAC, resource: 'clusterroles' }],
  escalate: [{ group: RBAC, resource: 'roles' }, { group: RBAC, resource: 'clusterroles' }],
  impersonate: [{ group: '', resource: 'users' }, { group: '', resource: 'serviceaccounts' }, { group: '', resource: 'groups' }, { group: 'authentication.k8s.io', resource: 'userextras' }],
};

const unique = (xs: string[]): string[] => xs.filter((x, i) => xs.indexOf(x) === i);

/** Complete + Validate + generateResourcePolicyRules. */
function rules(ctx: Ctx, nonResourceURLs: string[]): PolicyRule[] | { error: string } {
  let verbs = unique(flagStrings(ctx.args, 'verb'));
  if (verbs.includes('*')) verbs = ['*'];
  if (verbs.length === 0) return { error: 'at least one verb must be specified' };
  for (const v of verbs) if (!STANDARD_VERBS.has(v)) ctx.stderr += `Warning: '${v}' is not a standard resource verb\n`;
  const resources: { group: string; resource: string; sub?: string }[] = [];
  for (const r of flagStrings(ctx.args, 'resource')) {
    const [main, sub] = r.split('/', 2) as [string, string | undefined];
    const dot = main.indexOf('.');
    const parsed = { resource: dot < 0 ? main : main.slice(0, dot), group: dot < 0 ? '' : main.slice(dot + 1), ...(sub !== undefined ? { sub } : {}) };
    if (parsed.resource === '*' && dot < 0 && sub === undefined) {
      resources.splice(0, resources.length, parsed);
      break;
    }
    resources.push(parsed);
  }
  if (resources.length === 0 && nonResourceURLs.length === 0) return { error: 'at least one resource must be specified' };
  const byGroup = new Map<string, string[]>();
  for (const r of resources) {
    if (r.resource === '') return { error: 'resource must be specified if apiGroup/subresource specified' };
    // the RESTMapper turns short names and kinds into the resource and finds its group
    const info = r.resource === '*' ? undefined : lookupResource(r.group === '' ? r.resource : `${r.resource}.${r.group}`);
    if (r.resource !== '*' && !info) return { error: `the server doesn't have a resource type "${r.resource}"` };
    const group = info?.group ?? r.group;
    const resource = info?.resource ?? r.resource;
    for (const v of verbs) {
      const allowed = Object.hasOwn(SPECIAL_VERBS, v) ? SPECIAL_VERBS[v] : undefined;
      if (allowed && r.resource !== '*' && !allowed.some((a) => a.group === group && a.resource === resource)) {
        return { error: `can not perform '${v}' on '${resource}' in group '${group}'` };
      }
    }
    const name = r.sub !== undefined ? `${resource}/${r.sub}` : resource;
    const list = byGroup.get(group) ?? [];
    if (!list.includes(name)) list.push(name);
    byGroup.set(group, list);
  }
  const resourceNames = unique(flagStrings(ctx.args, 'resource-name'));
  const out: PolicyRule[] = [...byGroup.keys()].sort().map((g) => ({
    verbs, apiGroups: [g], resources: byGroup.get(g)!, ...(resourceNames.length > 0 ? { resourceNames } : {}),
  }));
  if (nonResourceURLs.length > 0) out.push({ verbs, nonResourceURLs });
  return out;
}

export function roleFor(ctx: Ctx, name: string): Built {
  const r = rules(ctx, []);
  if ('error' in r) return r;
  const role: Role = { apiVersion: RBAC_V1, kind: 'Role', metadata: { name }, rules: r };
  return role;
}

export function clusterRoleFor(ctx: Ctx, name: string): Built {
  const aggregation = flagString(ctx.args, 'aggregation-rule');
  const nonResourceURLs = unique(flagStrings(ctx.args, 'non-resource-url'));
  for (const url of nonResourceURLs) {
    if (!url.startsWith('/')) return { error: `'${url}' is not a valid non-resource URL: must start with '/'` };
  }
  if (aggregation !== undefined && aggregation !== '') {
    if (flagStrings(ctx.args, 'verb').length > 0 || flagStrings(ctx.args, 'resource').length > 0 || nonResourceURLs.length > 0) {
      return { error: 'aggregation rule must be specified without nonResourceURLs, resources, verbs or resourceNames' };
    }
    const matchLabels: Record<string, string> = {};
    for (const pair of aggregation.split(',')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) return { error: `invalid aggregation rule: ${pair}` };
      matchLabels[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    const aggregated: ClusterRole = { apiVersion: RBAC_V1, kind: 'ClusterRole', metadata: { name }, aggregationRule: { clusterRoleSelectors: [{ matchLabels }] }, rules: [] };
    return aggregated;
  }
  const r = rules(ctx, nonResourceURLs);
  if ('error' in r) return r;
  const role: ClusterRole = { apiVersion: RBAC_V1, kind: 'ClusterRole', metadata: { name }, rules: r };
  return role;
}

/** --user, --group and --serviceaccount (namespace:name) as subjects, in that order. */
function subjects(ctx: Ctx): Subject[] | { error: string } {
  const out: Subject[] = [];
  for (const name of flagStrings(ctx.args, 'user')) out.push({ kind: 'User', apiGroup: RBAC, name });
  for (const name of flagStrings(ctx.args, 'group')) out.push({ kind: 'Group', apiGroup: RBAC, name });
  for (const sa of flagStrings(ctx.args, 'serviceaccount')) {
    const parts = sa.split(':');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return { error: `serviceaccount must be <namespace>:<name>` };
    out.push({ kind: 'ServiceAccount', namespace: parts[0]!, name: parts[1]! });
  }
  return out;
}

export function roleBindingFor(ctx: Ctx, name: string): Built {
  const role = flagString(ctx.args, 'role') ?? '';
  const clusterRole = flagString(ctx.args, 'clusterrole') ?? '';
  if ((role === '') === (clusterRole === '')) return { error: 'exactly one of clusterrole or role must be specified' };
  const s = subjects(ctx);
  if ('error' in s) return s;
  const binding: RoleBinding = {
    apiVersion: RBAC_V1, kind: 'RoleBinding', metadata: { name },
    roleRef: { apiGroup: RBAC, kind: role !== '' ? 'Role' : 'ClusterRole', name: role !== '' ? role : clusterRole },
    ...(s.length > 0 ? { subjects: s } : {}),
  };
  return binding;
}

export function clusterRoleBindingFor(ctx: Ctx, name: string): Built {
  const clusterRole = flagString(ctx.args, 'clusterrole') ?? '';
  if (clusterRole === '') return { error: 'required flag(s) "clusterrole" not set' };
  const s = subjects(ctx);
  if ('error' in s) return s;
  const binding: ClusterRoleBinding = {
    apiVersion: RBAC_V1, kind: 'ClusterRoleBinding', metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: clusterRole },
    ...(s.length > 0 ? { subjects: s } : {}),
  };
  return binding;
}
