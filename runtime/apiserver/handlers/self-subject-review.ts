// POST /apis/authentication.k8s.io/v1/selfsubjectreviews: "who am I?" (kubectl auth whoami).
// mirrors pkg/registry/authentication/selfsubjectreview/rest.go: the answer is the requesting
// user (after impersonation) as the authenticators saw it, and nothing is stored.
import { resourceFor, type KubeObject, type ResourceInfo } from '../../api/index.ts';
import type { UserInfo } from '../authn/user.ts';

export const SELF_SUBJECT_REVIEW_RESOURCE: ResourceInfo = resourceFor('authentication.k8s.io', 'selfsubjectreviews')!;

export function selfSubjectReview(user: UserInfo): { code: number; body: KubeObject } {
  const userInfo: Record<string, unknown> = { username: user.name };
  if (user.uid) userInfo.uid = user.uid;
  if (user.groups.length > 0) userInfo.groups = [...user.groups];
  return {
    code: 201,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: { creationTimestamp: null }, status: { userInfo } } as unknown as KubeObject,
  };
}
