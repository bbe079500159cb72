// The authorizer chain of kube-apiserver: system:masters first, then RBAC.
// mirrors staging/src/k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go
// (privilegedGroupAuthorizer: members of a privileged group are allowed everything, with an empty
// reason) and staging/src/k8s.io/apiserver/pkg/authorization/union/union.go (the first Allow or
// Deny wins; NoOpinion reasons are joined with "\n"). pkg/kubeapiserver/authorizer/config.go puts
// the privileged-group authorizer before every configured mode, so system:masters keeps working
// while RBAC's caches are still empty (an API server that is starting) or its bindings are broken.
import { SYSTEM_PRIVILEGED_GROUP } from '../authn/user.ts';
import type { UserInfo } from '../authn/user.ts';
import type { Attributes, AuthorizationResult, Authorizer, UserRules } from './attributes.ts';

export class PrivilegedGroupsAuthorizer implements Authorizer {
  constructor(private readonly groups: readonly string[] = [SYSTEM_PRIVILEGED_GROUP]) {}

  authorize(a: Attributes): AuthorizationResult {
    const member = a.user.groups.some((g) => this.groups.includes(g));
    return { decision: member ? 'Allow' : 'NoOpinion', reason: '' };
  }

  /** RulesFor: everything, for a member. */
  rulesFor(user: UserInfo): UserRules {
    const member = user.groups.some((g) => this.groups.includes(g));
    return member
      ? { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false }
      : { resourceRules: [], nonResourceRules: [], incomplete: false };
  }
}

export class UnionAuthorizer implements Authorizer {
  constructor(private readonly chain: readonly Authorizer[]) {}

  authorize(a: Attributes): AuthorizationResult {
    const reasons: string[] = [];
    for (const authorizer of this.chain) {
      const result = authorizer.authorize(a);
      if (result.decision !== 'NoOpinion') return result;
      if (result.reason !== '') reasons.push(result.reason);
    }
    return { decision: 'NoOpinion', reason: reasons.join('\n') };
  }

  /** unionAuthzRulesHandler.RulesFor: every authorizer's rules, in chain order. */
  rulesFor(user: UserInfo, namespace: string): UserRules {
    const out: UserRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
    const errors: string[] = [];
    for (const a of this.chain) {
      const r = a.rulesFor?.(user, namespace);
      if (!r) continue;
      out.resourceRules.push(...r.resourceRules);
      out.nonResourceRules.push(...r.nonResourceRules);
      if (r.incomplete) out.incomplete = true;
      if (r.evaluationError) errors.push(r.evaluationError);
    }
    if (errors.length > 0) out.evaluationError = errors.join(', ');
    return out;
  }
}
