// Impersonation: an authorized user may act as another user, group or service account.
// mirrors staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go (WithImpersonation):
// each requested identity is checked with verb "impersonate" on users, groups, serviceaccounts (in
// their namespace) or uids; the first refusal answers 403 for that check, not for the request.
import type { Attributes, Authorizer } from '../authz/attributes.ts';
import type { Impersonation } from '../request.ts';
import {
  ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS, serviceAccountGroups, splitServiceAccountUsername, type UserInfo,
} from './user.ts';

export type ImpersonationResult =
  | { ok: true; user: UserInfo; reason: string }
  | { ok: false; attributes: Attributes; reason: string }
  | { ok: false; badRequest: string };

export function impersonate(requestor: UserInfo, imp: Impersonation, authorizer: Authorizer): ImpersonationResult {
  if (typeof imp.user !== 'string' || imp.user === '') {
    return { ok: false, badRequest: 'requested [{Group  ' + (imp.groups ?? []).join(' ') + '}] without impersonating a user' };
  }
  const checks: Attributes[] = [];
  const sa = splitServiceAccountUsername(imp.user);
  if (sa) {
    checks.push(attrs(requestor, 'serviceaccounts', '', sa.name, sa.namespace));
  } else {
    checks.push(attrs(requestor, 'users', '', imp.user));
  }
  const requestedGroups = (imp.groups ?? []).filter((g) => typeof g === 'string');
  for (const g of requestedGroups) checks.push(attrs(requestor, 'groups', '', g));
  if (imp.uid !== undefined) checks.push(attrs(requestor, 'uids', 'authentication.k8s.io', imp.uid));

  const reasons: string[] = [];
  for (const a of checks) {
    const result = authorizer.authorize(a);
    if (result.decision !== 'Allow') return { ok: false, attributes: a, reason: result.reason };
    reasons.push(result.reason);
  }
  // impersonation.go: a service account without requested groups gets its default ones; then a
  // non-anonymous user is in system:authenticated (anonymous in system:unauthenticated) unless
  // one of those two groups was requested
  const groups = sa && requestedGroups.length === 0 ? serviceAccountGroups(sa.namespace) : [...requestedGroups];
  const implied = imp.user === ANONYMOUS ? ALL_UNAUTHENTICATED : ALL_AUTHENTICATED;
  if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) groups.push(implied);
  const user: UserInfo = { name: imp.user, groups };
  if (imp.uid !== undefined) user.uid = imp.uid;
  return { ok: true, user, reason: reasons.join('; ') };
}

function attrs(user: UserInfo, resource: string, apiGroup: string, name: string, namespace?: string): Attributes {
  const a: Attributes = { user, verb: 'impersonate', resourceRequest: true, apiGroup, resource, name };
  if (namespace !== undefined) a.namespace = namespace;
  return a;
}
