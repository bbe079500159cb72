// Visible examples for the rbac-authorizer lab: read them, run them, add your own.
// `npm run grade -- rbac-authorizer --examples`
import { describe, expect, it } from 'vitest';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../runtime/api/index.ts';
import type { Attributes, RbacLister } from '../../runtime/apiserver/index.ts';
import { forbiddenStatusMessage, newRbacAuthorizer, ruleAllows, subjectMatches } from '@lab/submission';

// The chapter's example: jane may read Pods in "default", through a Role and a RoleBinding.
const podReader: Role = {
  metadata: { name: 'pod-reader', namespace: 'default' },
  rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }],
};
const janeReadsPods: RoleBinding = {
  metadata: { name: 'jane-reads-pods', namespace: 'default' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
};
// And a ClusterRole granted to a group everywhere.
const nodeReader: ClusterRole = { metadata: { name: 'node-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['nodes'] }] };
const opsReadNodes: ClusterRoleBinding = {
  metadata: { name: 'ops-read-nodes' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'node-reader' },
  subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'ops' }],
};

const lister: RbacLister = {
  clusterRoleBindings: () => [opsReadNodes],
  roleBindings: (ns) => (ns === 'default' ? [janeReadsPods] : []),
  clusterRole: (name) => (name === 'node-reader' ? nodeReader : undefined),
  role: (ns, name) => (ns === 'default' && name === 'pod-reader' ? podReader : undefined),
};

const listPods = (namespace: string, user = 'jane', groups: string[] = []): Attributes => ({
  user: { name: user, groups },
  verb: 'list',
  resourceRequest: true,
  apiGroup: '',
  resource: 'pods',
  namespace,
});

describe('examples', () => {
  it('allows jane to list pods in default, naming the RoleBinding', () => {
    expect(newRbacAuthorizer(lister).authorize(listPods('default'))).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "jane-reads-pods/default" of Role "pod-reader" to User "jane"',
    });
  });

  it('has no opinion about kube-system, where nothing grants her anything', () => {
    expect(newRbacAuthorizer(lister).authorize(listPods('kube-system'))).toEqual({ decision: 'NoOpinion', reason: '' });
  });

  it('grants through a group and a ClusterRoleBinding', () => {
    const listNodes: Attributes = { user: { name: 'bob', groups: ['ops'] }, verb: 'list', resourceRequest: true, apiGroup: '', resource: 'nodes' };
    expect(newRbacAuthorizer(lister).authorize(listNodes)).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "ops-read-nodes" of ClusterRole "node-reader" to Group "ops"',
    });
  });

  it('does not let a rule for "pods" cover "pods/log"', () => {
    const logs: Attributes = { ...listPods('default'), verb: 'get', subresource: 'log', name: 'web-1' };
    expect(ruleAllows(logs, { verbs: ['get'], apiGroups: [''], resources: ['pods'] })).toBe(false);
    expect(ruleAllows(logs, { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] })).toBe(true);
  });

  it('matches a service account by its user name', () => {
    const builder = { name: 'system:serviceaccount:ci:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'] };
    expect(subjectMatches(builder, { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' }, '')).toBe(true);
    expect(subjectMatches(builder, { kind: 'ServiceAccount', name: 'builder' }, 'ci')).toBe(true);
    expect(subjectMatches(builder, { kind: 'ServiceAccount', name: 'builder' }, 'prod')).toBe(false);
  });

  it("writes the API server's Forbidden message", () => {
    expect(forbiddenStatusMessage(listPods('kube-system'), '')).toBe(
      'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "kube-system"',
    );
  });
});
