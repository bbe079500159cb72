// The authorizer chain of kube-apiserver: system:masters first, then RBAC.
// mirrors staging/src/k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go
// (privilegedGroupAuthorizer: members of a privileged group are allowed everything, with an empty
// reason) and staging/src/k8s.io/apiserver/pkg/authorization/union/union.go (the first Allow or
// Deny wins; NoOpinion reasons are joined with "\n"). pkg/kubeapiserver/authorizer/config.go puts
// the privileged-group authorizer before every configured mode, so system:masters keeps working
// while RBAC's caches are still empty (an API server that is starting) or its bindings are broken.
import { SYSTEM_PRIVILEGED_GROUP } from '../authn/user.ts';
import type { Attributes, AuthorizationResult, Authorizer } from './attributes.ts';

export class PrivilegedGroupsAuthorizer implements Authorizer {
  constructor(private readonly groups: readonly string[] = [SYSTEM_PRIVILEGED_GROUP]) {}

  authorize(a: Attributes): AuthorizationResult {
    const member = a.user.groups.some((g) => this.groups.includes(g));
    return { decision: member ? 'Allow' : 'NoOpinion', reason: '' };
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
}
