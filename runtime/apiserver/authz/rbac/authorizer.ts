// The RBAC authorizer: allowed when some binding that applies to the user grants a rule that
// covers the request; otherwise no opinion (which the server turns into 403 Forbidden).
// mirrors plugin/pkg/auth/authorizer/rbac/rbac.go (Authorize, authorizingVisitor) and
// pkg/registry/rbac/validation/rule.go (VisitRulesFor, appliesTo, describeSubject).
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../../api/index.ts';
import { aggregateText } from '../../../api/index.ts';
import { splitServiceAccountUsername, type UserInfo } from '../../authn/user.ts';
import type { Attributes, AuthorizationResult, Authorizer, UserRules } from '../attributes.ts';
import { ruleAllows } from './rule.ts';

/** Read access to the RBAC objects (the replica's watch cache). */
export interface RbacLister {
  clusterRoleBindings(): readonly ClusterRoleBinding[];
  roleBindings(namespace: string): readonly RoleBinding[];
  clusterRole(name: string): ClusterRole | undefined;
  role(namespace: string, name: string): Role | undefined;
  /**
   * Optional: a value that changes whenever any RBAC object may have changed (the replica uses its
   * RBAC watch caches' resourceVersions). With it, the authorizer remembers its decisions until the
   * value changes; without it, every request walks the bindings.
   */
  policyVersion?(): number;
}

/** Distinct requests (user and attributes) remembered per policy version before starting over. */
const DECISIONS_MAX = 4096;

interface Applicable {
  binding: ClusterRoleBinding | RoleBinding;
  subject: Subject;
}

export class RbacAuthorizer implements Authorizer {
  /**
   * The bindings that apply to a user, per list of bindings: the lister hands back the same array
   * until a binding changes, so a request walks only its user's bindings instead of matching the
   * user against every subject of every binding (the decision and its reason are unchanged).
   */
  private readonly applicable = new WeakMap<readonly (ClusterRoleBinding | RoleBinding)[], Map<string, Applicable[]>>();

  /**
   * Decisions for the current policy version. A decision is a pure function of the attributes and
   * the RBAC objects, so the same request under the same policy gets the same frozen result (and
   * reason text) without walking the rules again: every request of a cluster is authorized, and a
   * handful of (user, verb, resource) shapes repeat endlessly. Keyed first by the user: the user
   * object itself when it is a frozen one the authenticator shares between requests (no text to
   * build for it), else its name and groups as text; then by the request's attributes as text.
   */
  private decisions = new Map<UserInfo | string, Map<string, AuthorizationResult>>();
  private decisionCount = 0;
  private decisionsVersion: number | undefined;

  constructor(private readonly lister: RbacLister) {}

  authorize(a: Attributes): AuthorizationResult {
    const version = this.lister.policyVersion?.();
    if (version === undefined) return this.decide(a);
    if (version !== this.decisionsVersion || this.decisionCount >= DECISIONS_MAX) {
      this.decisions = new Map();
      this.decisionCount = 0;
      this.decisionsVersion = version;
    }
    const u = a.user;
    const user = Object.isFrozen(u) && Object.isFrozen(u.groups) ? u : `${u.name}\u0000${u.groups.join('\u0001')}`;
    let byRequest = this.decisions.get(user);
    if (byRequest === undefined) this.decisions.set(user, (byRequest = new Map()));
    const key = requestKey(a);
    let result = byRequest.get(key);
    if (result === undefined) {
      result = Object.freeze(this.decide(a));
      this.decisionCount++;
      byRequest.set(key, result);
    }
    return result;
  }

  private decide(a: Attributes): AuthorizationResult {
    const errors: string[] = [];
    const allowedBy = this.visit(a, errors);
    if (allowedBy !== undefined) return { decision: 'Allow', reason: `RBAC: allowed by ${allowedBy}` };
    return { decision: 'NoOpinion', reason: errors.length === 0 ? '' : `RBAC: ${aggregateText(errors)}` };
  }

  /** Walks cluster role bindings, then role bindings of the request's namespace; returns the allowing source. */
  private visit(a: Attributes, errors: string[]): string | undefined {
    const userKey = `${a.user.name}\n${a.user.groups.join('\n')}`;
    for (const { binding: b, subject } of this.applying(this.lister.clusterRoleBindings(), a.user, userKey, '')) {
      const rules = this.rulesOf(b.roleRef, '', errors);
      if (rules.some((r) => ruleAllows(a, r))) {
        return `ClusterRoleBinding ${q(b.metadata.name)} of ${b.roleRef.kind} ${q(b.roleRef.name)} to ${describeSubject(subject, '')}`;
      }
    }
    const ns = a.namespace ?? '';
    if (ns === '') return undefined;
    for (const { binding: b, subject } of this.applying(this.lister.roleBindings(ns), a.user, userKey, ns)) {
      const rules = this.rulesOf(b.roleRef, ns, errors);
      if (rules.some((r) => ruleAllows(a, r))) {
        return `RoleBinding ${q(`${b.metadata.name}/${ns}`)} of ${b.roleRef.kind} ${q(b.roleRef.name)} to ${describeSubject(subject, ns)}`;
      }
    }
    return undefined;
  }

  /** The bindings of `bindings` (in name order) with a subject naming this user, and that subject. */
  private applying(bindings: readonly (ClusterRoleBinding | RoleBinding)[], user: UserInfo, userKey: string, namespace: string): Applicable[] {
    let byUser = this.applicable.get(bindings);
    if (!byUser) this.applicable.set(bindings, (byUser = new Map()));
    let found = byUser.get(userKey);
    if (!found) {
      found = [];
      for (const binding of sortByName(bindings)) {
        const subject = appliesTo(user, binding.subjects ?? [], namespace);
        if (subject) found.push({ binding, subject });
      }
      if (byUser.size > 1000) byUser.clear();
      byUser.set(userKey, found);
    }
    return found;
  }

  /**
   * RulesFor (rbac.go): every rule of the roles bound to the user, cluster-wide then in the
   * namespace; a rule with resources is a resource rule, one with URLs a non-resource rule.
   */
  rulesFor(user: UserInfo, namespace: string): UserRules {
    const errors: string[] = [];
    const userKey = `${user.name}\n${user.groups.join('\n')}`;
    const policy: PolicyRule[] = [];
    for (const { binding } of this.applying(this.lister.clusterRoleBindings(), user, userKey, '')) policy.push(...this.rulesOf(binding.roleRef, '', errors));
    if (namespace !== '') {
      for (const { binding } of this.applying(this.lister.roleBindings(namespace), user, userKey, namespace)) policy.push(...this.rulesOf(binding.roleRef, namespace, errors));
    }
    const out: UserRules = { resourceRules: [], nonResourceRules: [], incomplete: errors.length > 0 };
    if (errors.length > 0) out.evaluationError = aggregateText(errors);
    for (const r of policy) {
      if ((r.resources ?? []).length > 0) {
        out.resourceRules.push({ verbs: [...r.verbs], apiGroups: [...(r.apiGroups ?? [])], resources: [...r.resources!], ...(r.resourceNames?.length ? { resourceNames: [...r.resourceNames] } : {}) });
      }
      if ((r.nonResourceURLs ?? []).length > 0) out.nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs!] });
    }
    return out;
  }

  private rulesOf(ref: { kind: string; name: string }, namespace: string, errors: string[]): PolicyRule[] {
    if (ref.kind === 'ClusterRole') {
      const role = this.lister.clusterRole(ref.name);
      if (!role) errors.push(`clusterrole.rbac.authorization.k8s.io ${q(ref.name)} not found`);
      return role?.rules ?? [];
    }
    if (ref.kind === 'Role' && namespace !== '') {
      const role = this.lister.role(namespace, ref.name);
      if (!role) errors.push(`role.rbac.authorization.k8s.io ${q(ref.name)} not found`);
      return role?.rules ?? [];
    }
    errors.push(`unsupported role reference kind: ${q(ref.kind)}`);
    return [];
  }
}

/** Everything RBAC reads from the attributes but the user. */
function requestKey(a: Attributes): string {
  return `${a.verb}\u0000${a.resourceRequest ? 'r' : 'n'}\u0000${a.apiGroup ?? ''}\u0000${a.resource ?? ''}\u0000${a.subresource ?? ''}\u0000${a.namespace ?? ''}\u0000${a.name ?? ''}\u0000${a.path ?? ''}`;
}

/** The first subject of a binding that names this user (directly, by group, or as its service account). */
export function appliesTo(user: UserInfo, subjects: readonly Subject[], bindingNamespace: string): Subject | undefined {
  return subjects.find((s) => subjectMatches(user, s, bindingNamespace));
}

function subjectMatches(user: UserInfo, s: Subject, bindingNamespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.name === s.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const sa = splitServiceAccountUsername(user.name);
      const ns = s.namespace && s.namespace !== '' ? s.namespace : bindingNamespace;
      return sa !== undefined && ns !== '' && sa.namespace === ns && sa.name === s.name;
    }
    default:
      return false;
  }
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') {
    // name/namespace, in that order (rule.go describeSubject)
    const ns = s.namespace && s.namespace !== '' ? s.namespace : bindingNamespace;
    return `${s.kind} ${q(`${s.name}/${ns}`)}`;
  }
  return `${s.kind} ${q(s.name)}`;
}

const q = (s: string | undefined): string => JSON.stringify(s ?? '');

function sortByName<T extends { metadata: { name?: string } }>(items: readonly T[]): readonly T[] {
  // the API server's listers already give name order (the watch cache lists by key): copy only if not
  let sorted = true;
  for (let i = 1; i < items.length && sorted; i++) sorted = (items[i - 1]!.metadata.name ?? '') <= (items[i]!.metadata.name ?? '');
  if (sorted) return items;
  return [...items].sort((x, y) => ((x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : (x.metadata.name ?? '') > (y.metadata.name ?? '') ? 1 : 0));
}
