// The authorizer chain: system:masters is allowed before RBAC; the first decision wins.
import { describe, expect, it } from 'vitest';
import type { Attributes, AuthorizationResult, Authorizer } from './attributes.ts';
import { PrivilegedGroupsAuthorizer, UnionAuthorizer } from './union.ts';

const attrs = (groups: string[]): Attributes => ({ user: { name: 'u', groups }, verb: 'delete', resourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'kube-system' });
const fixed = (r: AuthorizationResult): Authorizer & { asked: number } => {
  const a = { asked: 0, authorize: () => (a.asked++, r) };
  return a;
};

describe('PrivilegedGroupsAuthorizer', () => {
  it.each([
    [['system:masters', 'system:authenticated'], 'Allow'],
    [['kubeadm:cluster-admins', 'system:authenticated'], 'NoOpinion'],
    [[], 'NoOpinion'],
  ] as const)('groups %j: %s, with no reason', (groups, decision) => {
    expect(new PrivilegedGroupsAuthorizer().authorize(attrs([...groups]))).toEqual({ decision, reason: '' });
  });
});

describe('UnionAuthorizer', () => {
  it('returns the first Allow or Deny without asking the rest', () => {
    const rbac = fixed({ decision: 'Allow', reason: 'RBAC: allowed' });
    const u = new UnionAuthorizer([new PrivilegedGroupsAuthorizer(), rbac]);
    expect(u.authorize(attrs(['system:masters']))).toEqual({ decision: 'Allow', reason: '' });
    expect(rbac.asked).toBe(0);
    expect(u.authorize(attrs(['devs']))).toEqual({ decision: 'Allow', reason: 'RBAC: allowed' });
    const deny = new UnionAuthorizer([fixed({ decision: 'Deny', reason: 'no' }), rbac]);
    expect(deny.authorize(attrs(['devs']))).toEqual({ decision: 'Deny', reason: 'no' });
  });

  it('joins the non-empty reasons of NoOpinion answers with a newline', () => {
    const u = new UnionAuthorizer([new PrivilegedGroupsAuthorizer(), fixed({ decision: 'NoOpinion', reason: 'a' }), fixed({ decision: 'NoOpinion', reason: 'b' })]);
    expect(u.authorize(attrs(['devs']))).toEqual({ decision: 'NoOpinion', reason: 'a\nb' });
  });
});

describe('rulesFor (RuleResolver)', () => {
  it('system:masters may do everything; the union lists every authorizer\'s rules in order and says when one was incomplete', () => {
    const masters = { name: 'a', groups: ['system:masters'] };
    expect(new PrivilegedGroupsAuthorizer().rulesFor(masters)).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false,
    });
    const rbacLike: Authorizer = {
      authorize: () => ({ decision: 'NoOpinion', reason: '' }),
      rulesFor: () => ({ resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [], incomplete: true, evaluationError: 'clusterrole.rbac.authorization.k8s.io "gone" not found' }),
    };
    const u = new UnionAuthorizer([new PrivilegedGroupsAuthorizer(), rbacLike, fixed({ decision: 'NoOpinion', reason: '' })]);
    expect(u.rulesFor({ name: 'jane', groups: ['system:authenticated'] }, 'default')).toEqual({
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [], incomplete: true,
      evaluationError: 'clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
  });
});
