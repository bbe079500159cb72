// POST /apis/authentication.k8s.io/v1/selfsubjectreviews: "who am I?" (kubectl auth whoami).
// mirrors pkg/registry/authentication/selfsubjectreview/rest.go: the answer is the requesting
// user (after impersonation) as the authenticators saw it, and nothing is stored.
import type { KubeObject, ResourceInfo } from '../../api/index.ts';
import type { UserInfo } from '../authn/user.ts';

export const SELF_SUBJECT_REVIEW_RESOURCE: ResourceInfo = Object.freeze({
  kind: 'SelfSubjectReview', resource: 'selfsubjectreviews', singular: 'selfsubjectreview',
  group: 'authentication.k8s.io', version: 'v1', namespaced: false, shortNames: Object.freeze([]),
  categories: Object.freeze([]), verbs: Object.freeze(['create']), subresources: Object.freeze([]),
});

export function selfSubjectReview(user: UserInfo): { code: number; body: KubeObject } {
  const userInfo: Record<string, unknown> = { username: user.name };
  if (user.uid) userInfo.uid = user.uid;
  if (user.groups.length > 0) userInfo.groups = [...user.groups];
  return {
    code: 201,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: { creationTimestamp: null }, status: { userInfo } } as unknown as KubeObject,
  };
}
