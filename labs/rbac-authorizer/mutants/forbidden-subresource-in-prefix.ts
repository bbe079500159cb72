// Mutant "forbidden-subresource-in-prefix": puts the subresource in the Forbidden message's prefix too ("pods/log \"web\" is forbidden").
// A plausible wrong solution; the hidden suite must fail it.
import type { PolicyRule, RoleRef, Subject } from '../../../runtime/api/index.ts';
import type { Attributes, AuthorizationResult, Authorizer, RbacLister, UserInfo } from '../../../runtime/apiserver/index.ts';

export function newRbacAuthorizer(lister: RbacLister): Authorizer {
  return {
    authorize(a: Attributes): AuthorizationResult {
      const errors: string[] = [];
      const source = visit(lister, a, errors);
      if (source !== undefined) return { decision: 'Allow', reason: `RBAC: allowed by ${source}` };
      return { decision: 'NoOpinion', reason: errors.length === 0 ? '' : `RBAC: ${aggregate(errors)}` };
    },
  };
}

/** The first binding (cluster-wide, then in the request's namespace) whose rules allow the request, described. */
function visit(lister: RbacLister, a: Attributes, errors: string[]): string | undefined {
  for (const binding of lister.clusterRoleBindings()) {
    const subject = appliesTo(a.user, binding.subjects ?? [], '');
    if (subject === undefined) continue;
    const rules = roleRules(lister, binding.roleRef, '', errors);
    if (rules !== undefined && rules.some((rule) => ruleAllows(a, rule))) {
      return `ClusterRoleBinding ${q(binding.metadata.name ?? '')} of ${binding.roleRef.kind} ${q(binding.roleRef.name)} to ${describeSubject(subject, '')}`;
    }
  }
  const namespace = a.namespace ?? '';
  if (namespace === '') return undefined;
  for (const binding of lister.roleBindings(namespace)) {
    const subject = appliesTo(a.user, binding.subjects ?? [], namespace);
    if (subject === undefined) continue;
    const rules = roleRules(lister, binding.roleRef, namespace, errors);
    if (rules !== undefined && rules.some((rule) => ruleAllows(a, rule))) {
      const bindingNamespace = binding.metadata.namespace ?? namespace;
      return `RoleBinding ${q(`${binding.metadata.name ?? ''}/${bindingNamespace}`)} of ${binding.roleRef.kind} ${q(binding.roleRef.name)} to ${describeSubject(subject, bindingNamespace)}`;
    }
  }
  return undefined;
}

/** GetRoleReferenceRules: the rules of the referenced role, or undefined with the error recorded. */
function roleRules(lister: RbacLister, ref: RoleRef, bindingNamespace: string, errors: string[]): readonly PolicyRule[] | undefined {
  if (ref.kind === 'Role') {
    const role = lister.role(bindingNamespace, ref.name);
    if (role === undefined) errors.push(`role.rbac.authorization.k8s.io ${q(ref.name)} not found`);
    return role === undefined ? undefined : (role.rules ?? []);
  }
  if (ref.kind === 'ClusterRole') {
    const role = lister.clusterRole(ref.name);
    if (role === undefined) errors.push(`clusterrole.rbac.authorization.k8s.io ${q(ref.name)} not found`);
    return role === undefined ? undefined : (role.rules ?? []);
  }
  errors.push(`unsupported role reference kind: ${q(ref.kind)}`);
  return undefined;
}

/** appliesTo: the first subject that names this user. */
function appliesTo(user: UserInfo, subjects: readonly Subject[], bindingNamespace: string): Subject | undefined {
  return subjects.find((s) => subjectMatches(user, s, bindingNamespace));
}

/** appliesToUser; a ServiceAccount subject without a namespace means the binding's own. */
export function subjectMatches(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  if (subject.kind === 'User') return user.name === subject.name;
  if (subject.kind === 'Group') return user.groups.includes(subject.name);
  if (subject.kind === 'ServiceAccount') {
    const namespace = subject.namespace !== undefined && subject.namespace !== '' ? subject.namespace : bindingNamespace;
    return namespace !== '' && user.name === `system:serviceaccount:${namespace}:${subject.name}`;
  }
  return false;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') {
    const namespace = s.namespace !== undefined && s.namespace !== '' ? s.namespace : bindingNamespace;
    return `${s.kind} ${q(`${s.name}/${namespace}`)}`;
  }
  return `${s.kind} ${q(s.name)}`;
}

/** RuleAllows. */
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

const verbMatches = (rule: PolicyRule, verb: string): boolean => rule.verbs.some((v) => v === '*' || v === verb);

const apiGroupMatches = (rule: PolicyRule, group: string): boolean => (rule.apiGroups ?? []).some((g) => g === '*' || g === group);

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some(
    (r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`),
  );
}

/** No resourceNames: any name, and no name at all (list, create). Otherwise the request's name must be listed. */
const resourceNameMatches = (rule: PolicyRule, name: string): boolean =>
  (rule.resourceNames ?? []).length === 0 || (rule.resourceNames ?? []).includes(name);

function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some(
    (u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))),
  );
}

/** utilerrors.NewAggregate(...).Error(): one message as is; several, deduplicated, in brackets. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/** Go's %q for the plain text these messages carry. */
const q = (s: string): string => JSON.stringify(s);

export function forbiddenStatusMessage(a: Attributes, reason: string): string {
  let message: string;
  if (!a.resourceRequest) {
    message = `User ${q(a.user.name)} cannot ${a.verb} path ${q(a.path ?? '')}`;
  } else {
    const resource = a.subresource ? `${a.resource ?? ''}/${a.subresource}` : (a.resource ?? '');
    const head = `User ${q(a.user.name)} cannot ${a.verb} resource ${q(resource)} in API group ${q(a.apiGroup ?? '')}`;
    message = a.namespace ? `${head} in the namespace ${q(a.namespace)}` : `${head} at the cluster scope`;
  }
  const err = reason === '' ? message : `${message}: ${reason}`;
  const group = a.resourceRequest ? (a.apiGroup ?? '') : '';
  const resource = a.resourceRequest ? (a.subresource ? `${a.resource ?? ''}/${a.subresource}` : (a.resource ?? '')) : '';
  if (group === '' && resource === '') return `forbidden: ${err}`;
  const qualified = group === '' ? resource : `${resource}.${group}`;
  const name = a.name ?? '';
  return name === '' ? `${qualified} is forbidden: ${err}` : `${qualified} ${q(name)} is forbidden: ${err}`;
}
