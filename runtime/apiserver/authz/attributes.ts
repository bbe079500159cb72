// What an authorizer decides on.
// mirrors staging/src/k8s.io/apiserver/pkg/authorization/authorizer/interfaces.go (AttributesRecord)
// and the Decision / reason pair every authorizer returns.
import type { UserInfo } from '../authn/user.ts';

export interface Attributes {
  user: UserInfo;
  verb: string;
  /** True for /api and /apis requests; false for paths like /metrics. */
  resourceRequest: boolean;
  apiGroup?: string;
  apiVersion?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** For non-resource requests. */
  path?: string;
}

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizationResult {
  decision: Decision;
  /** Why: "RBAC: allowed by ClusterRoleBinding ..." or the errors met while looking. */
  reason: string;
}

export interface Authorizer {
  authorize(attributes: Attributes): AuthorizationResult;
}
