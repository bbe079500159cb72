import { describe, expect, it } from 'vitest';
import type { ClusterRole, ClusterRoleBinding, Status } from '../../../api/index.ts';
import { RbacAuthorizer } from './authorizer.ts';
import { createHarness } from '../../testing/harness.ts';

const user = (name: string, groups: string[] = []) => ({ clientCert: { commonName: name, organizations: groups } });

describe('RBAC with the bootstrap policy', () => {
  const h = createHarness();
  h.admin({ verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'rolebindings', namespace: 'default', body: {
    metadata: { name: 'bob-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
  } });
  h.admin({ verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', body: {
    metadata: { name: 'ops-impersonate' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonator' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'ops' }],
  } });
  h.admin({ verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', body: {
    metadata: { name: 'impersonator' }, rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['bob'] }],
  } });
  h.kernel.runFor(10);

  const cases: { name: string; creds: ReturnType<typeof user>; verb: 'get' | 'list' | 'delete' | 'create'; group?: string; resource: string; namespace?: string; resName?: string; code: number; message?: string }[] = [
    { name: 'system:masters may do anything', creds: user('alice', ['system:masters']), verb: 'delete', resource: 'pods', namespace: 'kube-system', resName: 'x', code: 404 },
    { name: 'view lets bob list pods in default', creds: user('bob'), verb: 'list', resource: 'pods', namespace: 'default', code: 200 },
    { name: 'view does not let bob delete', creds: user('bob'), verb: 'delete', resource: 'pods', namespace: 'kube-system', resName: 'x', code: 403,
      message: 'pods "x" is forbidden: User "bob" cannot delete resource "pods" in API group "" in the namespace "kube-system"' },
    { name: 'no binding in another namespace', creds: user('bob'), verb: 'list', group: 'apps', resource: 'deployments', namespace: 'kube-system', code: 403,
      message: 'deployments.apps is forbidden: User "bob" cannot list resource "deployments" in API group "apps" in the namespace "kube-system"' },
    { name: 'cluster scope wording', creds: user('bob'), verb: 'list', resource: 'nodes', code: 403,
      message: 'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope' },
    { name: 'the scheduler may bind pods', creds: user('system:kube-scheduler'), verb: 'list', resource: 'nodes', code: 200 },
    { name: 'a kubelet may read pods', creds: user('system:node:n1', ['system:nodes']), verb: 'list', resource: 'pods', code: 200 },
    { name: 'a kubelet may not delete namespaces', creds: user('system:node:n1', ['system:nodes']), verb: 'delete', resource: 'namespaces', resName: 'default', code: 403,
      message: 'namespaces "default" is forbidden: User "system:node:n1" cannot delete resource "namespaces" in API group "" at the cluster scope' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const res = h.call({ credentials: c.creds, verb: c.verb, group: c.group, resource: c.resource, namespace: c.namespace, name: c.resName });
      expect(res.code).toBe(c.code);
      if (c.message) expect((res.body as Status).message).toBe(c.message);
    });
  }

  it('anonymous requests are system:anonymous and may read /healthz but not pods', () => {
    expect(h.call({ verb: 'get', path: '/healthz' }).code).toBe(200);
    const res = h.call({ verb: 'list', resource: 'pods', namespace: 'default' });
    expect((res.body as Status).message).toBe('pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default"');
  });

  it('an unknown token is 401 Unauthorized', () => {
    const res = h.call({ credentials: { token: 'nope' }, verb: 'list', resource: 'pods' });
    expect(res.code).toBe(401);
    expect((res.body as Status).reason).toBe('Unauthorized');
  });

  it('service account tokens authenticate as system:serviceaccount:<ns>:<name>', () => {
    const res = h.call({ credentials: { token: 'sa-token:default:default' }, verb: 'list', resource: 'pods', namespace: 'default' });
    expect((res.body as Status).message).toBe('pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default"');
  });

  it('impersonation: allowed --as bob, refused --as carol with the impersonate message', () => {
    const asBob = h.call({ credentials: user('ops'), impersonate: { user: 'bob' }, verb: 'list', resource: 'pods', namespace: 'default' });
    expect(asBob.code).toBe(200);
    const asCarol = h.call({ credentials: user('ops'), impersonate: { user: 'carol' }, verb: 'list', resource: 'pods', namespace: 'default' });
    expect(asCarol.code).toBe(403);
    expect((asCarol.body as Status).message).toBe('users "carol" is forbidden: User "ops" cannot impersonate resource "users" in API group "" at the cluster scope');
    const audit = h.server.audit.list().at(-2)!;
    expect(audit.impersonatedUser?.name).toBe('bob');
    expect(audit.annotations['authorization.k8s.io/reason']).toBe('RBAC: allowed by RoleBinding "bob-view/default" of ClusterRole "view" to User "bob"');
  });
});

describe('RBAC decisions follow binding changes', () => {
  it('a user refused, then bound, then unbound is refused, allowed, refused', () => {
    const h = createHarness();
    const list = () => h.call({ credentials: user('dana', ['team-a']), verb: 'list', resource: 'pods', namespace: 'default' }).code;
    expect(list()).toBe(403);
    h.admin({ verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', body: {
      metadata: { name: 'team-a-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'team-a' }],
    } });
    h.kernel.runFor(10);
    expect(list()).toBe(200);
    h.admin({ verb: 'delete', group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', name: 'team-a-view' });
    h.kernel.runFor(10);
    expect(list()).toBe(403);
  });
});

describe('RBAC decisions are remembered per policy version', () => {
  it('a changed role (not only a changed binding) changes the decision', () => {
    const h = createHarness();
    const G = 'rbac.authorization.k8s.io';
    const get = () => h.call({ credentials: user('erin'), verb: 'get', resource: 'configmaps', namespace: 'default', name: 'x' }).code;
    h.admin({ verb: 'create', group: G, resource: 'roles', namespace: 'default', body: {
      metadata: { name: 'cm' }, rules: [{ verbs: ['list'], apiGroups: [''], resources: ['configmaps'] }],
    } });
    h.admin({ verb: 'create', group: G, resource: 'rolebindings', namespace: 'default', body: {
      metadata: { name: 'erin-cm' }, roleRef: { apiGroup: G, kind: 'Role', name: 'cm' }, subjects: [{ kind: 'User', apiGroup: G, name: 'erin' }],
    } });
    h.kernel.runFor(10);
    expect(get()).toBe(403);
    expect(get()).toBe(403);
    h.admin({ verb: 'update', group: G, resource: 'roles', namespace: 'default', name: 'cm', body: {
      metadata: { name: 'cm' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }],
    } });
    h.kernel.runFor(10);
    expect(get()).toBe(404);
  });

  it('a decision stands until the lister reports a new policy version', () => {
    let version = 1;
    let bindings: ClusterRoleBinding[] = [];
    const view: ClusterRole = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'view' },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] };
    const authorizer = new RbacAuthorizer({
      clusterRoleBindings: () => bindings, roleBindings: () => [], clusterRole: (n) => (n === 'view' ? view : undefined), role: () => undefined,
      policyVersion: () => version,
    });
    const attrs = { user: { name: 'fay', groups: [] }, verb: 'get', resourceRequest: true, apiGroup: '', resource: 'pods', namespace: 'default', name: 'p' };
    expect(authorizer.authorize(attrs).decision).toBe('NoOpinion');
    bindings = [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'fay-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'fay' }] }];
    expect(authorizer.authorize(attrs).decision).toBe('NoOpinion'); // same version: the remembered decision
    version++;
    expect(authorizer.authorize(attrs)).toEqual({ decision: 'Allow', reason: 'RBAC: allowed by ClusterRoleBinding "fay-view" of ClusterRole "view" to User "fay"' });
    expect(authorizer.authorize({ ...attrs, verb: 'delete' }).decision).toBe('NoOpinion');
  });
});
