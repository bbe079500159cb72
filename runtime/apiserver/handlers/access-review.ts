// POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews: "may I do this?" (kubectl auth can-i).
// mirrors pkg/registry/authorization/selfsubjectaccessreview/rest.go: the review is evaluated for
// the requesting user (after impersonation) by the same authorizer that guards every request, and
// nothing is stored; the answer is the review with its status filled in.
import { newBadRequest, resourceFor, type KubeObject, type ResourceInfo, type Status } from '../../api/index.ts';
import type { UserInfo } from '../authn/user.ts';
import type { Attributes, Authorizer } from '../authz/attributes.ts';

export const ACCESS_REVIEW_RESOURCE: ResourceInfo = resourceFor('authorization.k8s.io', 'selfsubjectaccessreviews')!;

interface ReviewSpec {
  resourceAttributes?: { namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string };
  nonResourceAttributes?: { path?: string; verb?: string };
}

export function selfSubjectAccessReview(body: unknown, user: UserInfo, authorizer: Authorizer): { code: number; body: KubeObject | Status } {
  const spec = (body as { spec?: ReviewSpec } | undefined)?.spec;
  const ra = spec?.resourceAttributes;
  const nra = spec?.nonResourceAttributes;
  if ((ra === undefined) === (nra === undefined)) {
    return { code: 400, body: newBadRequest('exactly one of nonResourceAttributes or resourceAttributes must be specified') };
  }
  const attrs: Attributes = ra
    ? {
        user, verb: ra.verb ?? '', resourceRequest: true, apiGroup: ra.group ?? '', apiVersion: ra.version ?? '', resource: ra.resource ?? '',
        ...(ra.subresource ? { subresource: ra.subresource } : {}), ...(ra.namespace ? { namespace: ra.namespace } : {}), ...(ra.name ? { name: ra.name } : {}),
      }
    : { user, verb: nra?.verb ?? '', resourceRequest: false, path: nra?.path ?? '' };
  const decision = authorizer.authorize(attrs);
  const allowed = decision.decision === 'Allow';
  const status: Record<string, unknown> = { allowed };
  if (decision.decision === 'Deny') status.denied = true;
  if (decision.reason) status.reason = decision.reason;
  return {
    code: 201,
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {}, spec, status } as unknown as KubeObject,
  };
}

export const RULES_REVIEW_RESOURCE: ResourceInfo = resourceFor('authorization.k8s.io', 'selfsubjectrulesreviews')!;

/**
 * POST selfsubjectrulesreviews (kubectl auth can-i --list): what the requesting user may do in
 * spec.namespace, as the authorizers' RulesFor lists it. mirrors
 * pkg/registry/authorization/selfsubjectrulesreview/rest.go.
 */
export function selfSubjectRulesReview(body: unknown, user: UserInfo, authorizer: Authorizer): { code: number; body: KubeObject | Status } {
  const namespace = (body as { spec?: { namespace?: unknown } } | undefined)?.spec?.namespace;
  if (typeof namespace !== 'string' || namespace === '') return { code: 400, body: newBadRequest('no namespace on request') };
  const rules = authorizer.rulesFor?.(user, namespace) ?? { resourceRules: [], nonResourceRules: [], incomplete: false };
  const status: Record<string, unknown> = { resourceRules: rules.resourceRules, nonResourceRules: rules.nonResourceRules, incomplete: rules.incomplete };
  if (rules.evaluationError) status.evaluationError = rules.evaluationError;
  return {
    code: 201,
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: { creationTimestamp: null }, spec: { namespace }, status } as unknown as KubeObject,
  };
}
