// The impersonated user's groups (impersonation.go WithImpersonation), from its table of cases.
import { describe, expect, it } from 'vitest';
import type { Authorizer } from '../authz/attributes.ts';
import { impersonate } from './impersonation.ts';

const allowAll: Authorizer = { authorize: () => ({ decision: 'Allow', reason: '' }) };
const admin = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };

describe('impersonate: the groups of the user acted as', () => {
  it.each([
    ['a user alone is authenticated', 'jane', undefined, ['system:authenticated']],
    ['requested groups, then system:authenticated', 'jane', ['devs'], ['devs', 'system:authenticated']],
    ['system:authenticated requested is not added twice', 'jane', ['system:authenticated', 'devs'], ['system:authenticated', 'devs']],
    ['system:unauthenticated requested keeps the user out of system:authenticated', 'jane', ['system:unauthenticated'], ['system:unauthenticated']],
    ['anonymous is unauthenticated', 'system:anonymous', undefined, ['system:unauthenticated']],
    ['a service account gets its default groups', 'system:serviceaccount:ns:sa', undefined,
      ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated']],
    ['a service account with requested groups gets those instead', 'system:serviceaccount:ns:sa', ['devs'], ['devs', 'system:authenticated']],
  ] as const)('%s', (_, user, groups, expected) => {
    const r = impersonate(admin, { user, ...(groups ? { groups: [...groups] } : {}) }, allowAll);
    expect(r.ok && r.user.groups).toEqual(expected);
  });

  it('names the first refused check', () => {
    const denyGroups: Authorizer = { authorize: (a) => ({ decision: a.resource === 'groups' ? 'NoOpinion' : 'Allow', reason: 'nope' }) };
    const r = impersonate(admin, { user: 'jane', groups: ['devs'] }, denyGroups);
    expect(r).toMatchObject({ ok: false, attributes: { verb: 'impersonate', resource: 'groups', name: 'devs' }, reason: 'nope' });
  });
});
