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

/** A ResourceRuleInfo or NonResourceRuleInfo (authorizer/interfaces.go), as SelfSubjectRulesReview lists them. */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

/** authorizer.RuleResolver's answer: what the user may do in a namespace. */
export interface UserRules {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** True when some rule could not be read (a binding to a missing role). */
  incomplete: boolean;
  evaluationError?: string;
}

export interface Authorizer {
  authorize(attributes: Attributes): AuthorizationResult;
  /** authorizer.RuleResolver.RulesFor, for authorizers that can list what they allow. */
  rulesFor?(user: UserInfo, namespace: string): UserRules;
}
