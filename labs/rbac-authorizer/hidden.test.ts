// Hidden grading suite for the rbac-authorizer lab. Behaviour only: which rules cover which
// requests, which subjects name which users, the decision and its exact reason over Roles,
// ClusterRoles and their bindings, and the Forbidden message; then a differential test against
// the reference on generated policies and requests.
// Tables ported from plugin/pkg/auth/authorizer/rbac/rbac_test.go (TestRuleMatches, TestAuthorizer)
// and pkg/registry/rbac/validation/rule_test.go (TestAppliesTo), with the reasons of rule.go's
// describers and the messages of responsewriters/errors.go.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../runtime/api/index.ts';
import type { Attributes, AuthorizationResult, RbacLister, UserInfo } from '../../runtime/apiserver/index.ts';
import { forbiddenStatusMessage, newRbacAuthorizer, ruleAllows, subjectMatches } from '@lab/submission';
import { reference } from './reference.ts';

// ---------------------------------------------------------------- builders

const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups });

interface ResourceRequest {
  verb: string;
  group?: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

function req(u: UserInfo, r: ResourceRequest): Attributes {
  return {
    user: u,
    verb: r.verb,
    resourceRequest: true,
    apiGroup: r.group ?? '',
    apiVersion: 'v1',
    resource: r.resource,
    subresource: r.subresource ?? '',
    namespace: r.namespace ?? '',
    name: r.name ?? '',
    path: '',
  };
}

function urlReq(u: UserInfo, verb: string, path: string): Attributes {
  return { user: u, verb, resourceRequest: false, path };
}

/** A one-line description of a request, for failure messages. */
function describeRequest(a: Attributes): string {
  const who = `${a.user.name}${a.user.groups.length ? ` (groups ${a.user.groups.join(', ')})` : ''}`;
  if (!a.resourceRequest) return `${who}: ${a.verb} path ${a.path}`;
  const res = `${a.resource}${a.subresource ? `/${a.subresource}` : ''}${a.apiGroup ? ` in group ${a.apiGroup}` : ''}`;
  return `${who}: ${a.verb} ${res}${a.name ? ` named ${a.name}` : ''}${a.namespace ? ` in namespace ${a.namespace}` : ' (cluster scope)'}`;
}

const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({
  verbs,
  apiGroups,
  resources,
  ...(resourceNames ? { resourceNames } : {}),
});
const urlRule = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs });

const clusterRole = (name: string, ...rules: PolicyRule[]): ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name },
  rules,
});
const role = (namespace: string, name: string, ...rules: PolicyRule[]): Role => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name, namespace },
  rules,
});

/** "User:jane", "Group:dev", "ServiceAccount:builder" or "ServiceAccount:team-a/builder". */
function subject(text: string): Subject {
  const [kind, rest] = text.split(/:(.*)/s) as [string, string];
  if (kind === 'ServiceAccount') {
    const [ns, name] = rest.includes('/') ? rest.split('/') : [undefined, rest];
    return { kind, name: name!, ...(ns ? { namespace: ns } : {}) };
  }
  return { kind, apiGroup: 'rbac.authorization.k8s.io', name: rest };
}

const crb = (name: string, roleName: string, ...subjects: string[]): ClusterRoleBinding => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
  subjects: subjects.map(subject),
});
const rb = (namespace: string, name: string, ref: `${'Role' | 'ClusterRole'}:${string}`, ...subjects: string[]): RoleBinding => {
  const [kind, roleName] = ref.split(':') as [string, string];
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName },
    subjects: subjects.map(subject),
  };
};

interface Policy {
  clusterRoles?: ClusterRole[];
  roles?: Role[];
  clusterRoleBindings?: ClusterRoleBinding[];
  roleBindings?: RoleBinding[];
}

const byName = <T extends { metadata: { name?: string } }>(items: readonly T[]): T[] =>
  [...items].sort((x, y) => ((x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : (x.metadata.name ?? '') > (y.metadata.name ?? '') ? 1 : 0));

/** The API server's view of a policy: bindings listed in name order, as its watch cache lists them. */
function listerOf(p: Policy): RbacLister {
  const crbs = byName(p.clusterRoleBindings ?? []);
  return {
    clusterRoleBindings: () => crbs,
    roleBindings: (ns) => byName((p.roleBindings ?? []).filter((b) => b.metadata.namespace === ns)),
    clusterRole: (name) => (p.clusterRoles ?? []).find((r) => r.metadata.name === name),
    role: (ns, name) => (p.roles ?? []).find((r) => r.metadata.namespace === ns && r.metadata.name === name),
  };
}

/** Calls the learner's authorizer and returns a plain copy of its answer. */
function decide(p: Policy, a: Attributes): AuthorizationResult {
  const result: unknown = newRbacAuthorizer(listerOf(p)).authorize(a);
  return structuredClone(result) as AuthorizationResult;
}

const allow = (reason: string): AuthorizationResult => ({ decision: 'Allow', reason });
const noOpinion = (reason = ''): AuthorizationResult => ({ decision: 'NoOpinion', reason });

function expectDecision(p: Policy, a: Attributes, expected: AuthorizationResult): void {
  expect(decide(p, a), `authorize(${describeRequest(a)})`).toEqual(expected);
}

// ---------------------------------------------------------------- RuleAllows

describe('RuleAllows', () => {
  const rr = (verb: string, group: string, resource: string, subresource = '', name = '') =>
    req(user('u'), { verb, group, resource, subresource, name, namespace: 'ns' });
  const ur = (verb: string, path: string) => urlReq(user('u'), verb, path);

  // [case, rule, [request, expected][]]: TestRuleMatches' table, plus the cases learners trip on.
  const table: [string, PolicyRule, [Attributes, boolean][]][] = [
    ['star verb, exact match other', rule(['*'], ['group1'], ['resource1']), [
      [rr('verb1', 'group1', 'resource1'), true],
      [rr('verb1', 'group2', 'resource1'), false],
      [rr('verb1', 'group1', 'resource2'), false],
      [rr('verb2', 'group1', 'resource1'), true],
      [rr('verb2', 'group2', 'resource2'), false],
    ]],
    ['star group, exact match other', rule(['verb1'], ['*'], ['resource1']), [
      [rr('verb1', 'group1', 'resource1'), true],
      [rr('verb1', 'group2', 'resource1'), true],
      [rr('verb1', 'group1', 'resource2'), false],
      [rr('verb2', 'group1', 'resource1'), false],
    ]],
    ['star resource, exact match other', rule(['verb1'], ['group1'], ['*']), [
      [rr('verb1', 'group1', 'resource1'), true],
      [rr('verb1', 'group1', 'resource2'), true],
      [rr('verb1', 'group2', 'resource1'), false],
      [rr('verb2', 'group1', 'resource1'), false],
    ]],
    ['tuple expansion', rule(['verb1', 'verb2'], ['group1', 'group2'], ['resource1', 'resource2']), [
      [rr('verb1', 'group1', 'resource1'), true],
      [rr('verb1', 'group2', 'resource2'), true],
      [rr('verb2', 'group1', 'resource2'), true],
      [rr('verb2', 'group2', 'resource1'), true],
      [rr('verb3', 'group1', 'resource1'), false],
    ]],
    ['subresource expansion', rule(['*'], ['*'], ['resource1/subresource1']), [
      [rr('verb1', 'group1', 'resource1', 'subresource1'), true],
      [rr('verb1', 'group2', 'resource1', 'subresource2'), false],
      [rr('verb1', 'group1', 'resource2', 'subresource1'), false],
      [rr('verb1', 'group1', 'resource1'), false],
    ]],
    ['a resource does not cover its subresources ("pods" is not "pods/log")', rule(['get'], [''], ['pods']), [
      [rr('get', '', 'pods'), true],
      [rr('get', '', 'pods', 'log'), false],
      [rr('get', '', 'pods', 'status'), false],
    ]],
    ['a subresource does not cover its resource', rule(['get'], [''], ['pods/log']), [
      [rr('get', '', 'pods', 'log'), true],
      [rr('get', '', 'pods'), false],
      [rr('get', '', 'pods', 'exec'), false],
    ]],
    ['"*/status" covers the status of every resource, and nothing else', rule(['update'], ['*'], ['*/status']), [
      [rr('update', '', 'pods', 'status'), true],
      [rr('update', 'apps', 'deployments', 'status'), true],
      [rr('update', '', 'pods'), false],
      [rr('update', '', 'pods', 'log'), false],
      [rr('update', '', 'status'), false],
    ]],
    ['"pods/*" is not a wildcard: only the literal name matches', rule(['get'], [''], ['pods/*']), [
      [rr('get', '', 'pods', 'log'), false],
      [rr('get', '', 'pods', 'status'), false],
      [rr('get', '', 'pods'), false],
      [rr('get', '', 'pods', '*'), true],
    ]],
    ['"*" covers resources and subresources', rule(['get'], [''], ['*']), [
      [rr('get', '', 'pods'), true],
      [rr('get', '', 'pods', 'log'), true],
    ]],
    ['resourceNames allow only those names, so never a request without a name', rule(['get', 'list', 'update'], [''], ['configmaps'], ['app-config']), [
      [rr('get', '', 'configmaps', '', 'app-config'), true],
      [rr('update', '', 'configmaps', '', 'app-config'), true],
      [rr('get', '', 'configmaps', '', 'other'), false],
      [rr('list', '', 'configmaps'), false],
    ]],
    ['an empty resourceNames list allows every name, and none', rule(['get', 'list'], [''], ['configmaps'], []), [
      [rr('get', '', 'configmaps', '', 'anything'), true],
      [rr('list', '', 'configmaps'), true],
    ]],
    ['verbs are compared exactly (case matters)', rule(['get'], [''], ['pods']), [
      [rr('GET', '', 'pods'), false],
      [rr('get', '', 'Pods'), false],
    ]],
    ['a rule without apiGroups covers no resource request', { verbs: ['*'], resources: ['*'] }, [
      [rr('get', '', 'pods'), false],
    ]],
    ['a resource rule covers no URL', rule(['*'], ['*'], ['*']), [
      [ur('get', '/healthz'), false],
    ]],
    ['star nonresource', urlRule(['verb1'], ['*']), [
      [ur('verb1', '/foo'), true],
      [ur('verb1', '/foo/bar/one'), true],
      [ur('verb2', '/foo'), false],
    ]],
    ['star nonresource subpath', urlRule(['verb1'], ['/foo/*']), [
      [ur('verb1', '/foo'), false],
      [ur('verb1', '/foo/bar'), true],
      [ur('verb1', '/foo/baz/one'), true],
      [ur('verb1', '/notfoo'), false],
      [ur('verb1', '/notfoo/bar'), false],
    ]],
    ['star verb, exact nonresource', urlRule(['*'], ['/foo', '/foo/bar/one']), [
      [ur('verb1', '/foo'), true],
      [ur('verb1', '/foo/bar'), false],
      [ur('verb2', '/foo/bar/one'), true],
      [ur('verb2', '/foo/baz/one'), false],
    ]],
    ['a trailing "*" is a plain prefix, not a path segment', urlRule(['get'], ['/healthz*']), [
      [ur('get', '/healthz'), true],
      [ur('get', '/healthz/etcd'), true],
      [ur('get', '/healthzzz'), true],
      [ur('get', '/health'), false],
    ]],
    ['every trailing "*" is trimmed before the prefix test', urlRule(['get'], ['/apis**']), [
      [ur('get', '/apis'), true],
      [ur('get', '/apis/apps'), true],
      [ur('get', '/api'), false],
    ]],
    ['a "*" inside a URL is literal', urlRule(['get'], ['/apis/*/v1']), [
      [ur('get', '/apis/apps/v1'), false],
      [ur('get', '/apis/*/v1'), true],
    ]],
    ['a URL rule covers no resource request', urlRule(['*'], ['*']), [
      [rr('get', '', 'pods'), false],
    ]],
  ];

  it.each(table)('%s', (_name, r, cases) => {
    for (const [a, expected] of cases) {
      expect(ruleAllows(a, structuredClone(r)), `ruleAllows(${describeRequest(a)}, ${JSON.stringify(r)})`).toBe(expected);
    }
  });
});

// ---------------------------------------------------------------- appliesTo

describe('subjects (appliesTo)', () => {
  const sa = (ns: string, name: string) => user(`system:serviceaccount:${ns}:${name}`, 'system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated');
  // [case, user, subject, binding namespace, expected]
  const table: [string, UserInfo, Subject, string, boolean][] = [
    ['a User subject names the user', user('jane'), subject('User:jane'), 'default', true],
    ['a User subject names no one else', user('bob'), subject('User:jane'), 'default', false],
    ['a User subject does not match a group of that name', user('bob', 'jane'), subject('User:jane'), '', false],
    ['a Group subject matches any member', user('bob', 'dev', 'ops'), subject('Group:ops'), '', true],
    ['a Group subject does not match a user of that name', user('ops'), subject('Group:ops'), '', false],
    ['a ServiceAccount subject with a namespace', sa('team-a', 'builder'), subject('ServiceAccount:team-a/builder'), '', true],
    ['a ServiceAccount subject with a namespace, in a RoleBinding of another namespace', sa('team-a', 'builder'), subject('ServiceAccount:team-a/builder'), 'team-b', true],
    ['a ServiceAccount subject without a namespace means the RoleBinding\'s namespace', sa('team-a', 'builder'), subject('ServiceAccount:builder'), 'team-a', true],
    ['a ServiceAccount subject without a namespace does not match another namespace\'s account', sa('team-b', 'builder'), subject('ServiceAccount:builder'), 'team-a', false],
    ['a ServiceAccount subject without a namespace in a ClusterRoleBinding matches no one', sa('default', 'builder'), subject('ServiceAccount:builder'), '', false],
    ['a ServiceAccount subject names the account, not one of the same name elsewhere', sa('team-b', 'builder'), subject('ServiceAccount:team-a/builder'), '', false],
    ['a ServiceAccount subject does not match a user with the account\'s short name', user('builder'), subject('ServiceAccount:team-a/builder'), '', false],
    ['the account\'s user name is system:serviceaccount:<namespace>:<name>, in that order', user('system:serviceaccount:builder:team-a'), subject('ServiceAccount:team-a/builder'), '', false],
    ['a User subject can name a service account by its user name', sa('team-a', 'builder'), subject('User:system:serviceaccount:team-a:builder'), '', true],
    ['an unknown subject kind matches no one', user('jane'), { kind: 'Person', name: 'jane' }, 'default', false],
  ];

  it.each(table)('%s', (_name, u, s, ns, expected) => {
    expect(subjectMatches(u, s, ns), `subjectMatches(${JSON.stringify(u)}, ${JSON.stringify(s)}, ${JSON.stringify(ns)})`).toBe(expected);
  });
});

// ---------------------------------------------------------------- the authorizer

describe('the authorizer', () => {
  // TestAuthorizer case 1: a RoleBinding to a ClusterRole grants only in its namespace.
  it('grants a ClusterRole through a RoleBinding in that namespace only (TestAuthorizer)', () => {
    const p: Policy = {
      clusterRoles: [clusterRole('admin', rule(['*'], ['*'], ['*']), urlRule(['*'], ['*']))],
      roleBindings: [rb('ns1', 'admin', 'ClusterRole:admin', 'User:admin', 'Group:admins')],
    };
    for (const a of [
      req(user('admin'), { verb: 'get', resource: 'Pods', namespace: 'ns1' }),
      req(user('admin'), { verb: 'watch', resource: 'Pods', namespace: 'ns1' }),
      req(user('admin', 'group1'), { verb: 'watch', resource: 'Foobar', namespace: 'ns1' }),
    ]) {
      expectDecision(p, a, allow('RBAC: allowed by RoleBinding "admin/ns1" of ClusterRole "admin" to User "admin"'));
    }
    for (const a of [req(user('joe', 'admins'), { verb: 'watch', resource: 'Foobar', namespace: 'ns1' }), req(user('joe', 'group1', 'admins'), { verb: 'watch', resource: 'Foobar', namespace: 'ns1' })]) {
      expectDecision(p, a, allow('RBAC: allowed by RoleBinding "admin/ns1" of ClusterRole "admin" to Group "admins"'));
    }
    for (const a of [
      req(user('admin'), { verb: 'GET', resource: 'Pods', namespace: 'ns2' }),
      req(user('admin'), { verb: 'GET', resource: 'Nodes' }),
      req(user('admin', 'admins'), { verb: 'GET', resource: 'Pods', namespace: 'ns2' }),
      req(user('admin', 'admins'), { verb: 'GET', resource: 'Nodes' }),
      urlReq(user('admin'), 'get', '/healthz'),
    ]) {
      expectDecision(p, a, noOpinion());
    }
  });

  it('allows non-resource URLs through ClusterRoleBindings (TestAuthorizer)', () => {
    const p: Policy = {
      clusterRoles: [
        clusterRole('non-resource-url-getter', urlRule(['get'], ['/apis'])),
        clusterRole('non-resource-url', urlRule(['*'], ['/apis'])),
        clusterRole('non-resource-url-prefix', urlRule(['get'], ['/apis/*'])),
      ],
      clusterRoleBindings: [
        crb('getter', 'non-resource-url-getter', 'User:foo', 'Group:bar'),
        crb('url', 'non-resource-url', 'User:admin', 'Group:admin'),
        crb('url-prefix', 'non-resource-url-prefix', 'User:prefixed', 'Group:prefixed'),
      ],
    };
    expectDecision(p, urlReq(user('foo'), 'get', '/apis'), allow('RBAC: allowed by ClusterRoleBinding "getter" of ClusterRole "non-resource-url-getter" to User "foo"'));
    expectDecision(p, urlReq(user('', 'bar'), 'get', '/apis'), allow('RBAC: allowed by ClusterRoleBinding "getter" of ClusterRole "non-resource-url-getter" to Group "bar"'));
    expectDecision(p, urlReq(user('admin'), 'watch', '/apis'), allow('RBAC: allowed by ClusterRoleBinding "url" of ClusterRole "non-resource-url" to User "admin"'));
    expectDecision(p, urlReq(user('', 'prefixed'), 'get', '/apis/v1/foobar'), allow('RBAC: allowed by ClusterRoleBinding "url-prefix" of ClusterRole "non-resource-url-prefix" to Group "prefixed"'));
    for (const a of [
      urlReq(user('foo'), 'watch', '/apis'),
      urlReq(user('', 'bar'), 'watch', '/apis'),
      urlReq(user('foo'), 'get', '/api/v1'),
      urlReq(user('admin'), 'get', '/api/v1'),
      urlReq(user('prefixed'), 'get', '/api/v1'),
      urlReq(user('', 'prefixed'), 'get', '/apis'),
    ]) {
      expectDecision(p, a, noOpinion());
    }
  });

  it('resolves subresources (TestAuthorizer)', () => {
    const pods = { clusterRoles: [clusterRole('admin', rule(['*'], ['*'], ['pods']))], roleBindings: [rb('ns1', 'admin', 'ClusterRole:admin', 'User:admin')] };
    expectDecision(pods, req(user('admin'), { verb: 'get', resource: 'pods', namespace: 'ns1' }), allow('RBAC: allowed by RoleBinding "admin/ns1" of ClusterRole "admin" to User "admin"'));
    expectDecision(pods, req(user('admin'), { verb: 'get', resource: 'pods', subresource: 'status', namespace: 'ns1' }), noOpinion());
    const status = { clusterRoles: [clusterRole('admin', rule(['*'], ['*'], ['pods/status']))], roleBindings: [rb('ns1', 'admin', 'ClusterRole:admin', 'User:admin')] };
    expectDecision(status, req(user('admin'), { verb: 'get', resource: 'pods', subresource: 'status', namespace: 'ns1' }), allow('RBAC: allowed by RoleBinding "admin/ns1" of ClusterRole "admin" to User "admin"'));
    expectDecision(status, req(user('admin'), { verb: 'get', resource: 'pods', namespace: 'ns1' }), noOpinion());
  });

  it("grants jane's Role in default, and nothing elsewhere (the chapter's example)", () => {
    const p: Policy = {
      roles: [role('default', 'pod-reader', rule(['get', 'list', 'watch'], [''], ['pods']))],
      roleBindings: [rb('default', 'jane-reads-pods', 'Role:pod-reader', 'User:jane')],
    };
    const jane = user('jane', 'system:authenticated');
    expectDecision(p, req(jane, { verb: 'list', resource: 'pods', namespace: 'default' }), allow('RBAC: allowed by RoleBinding "jane-reads-pods/default" of Role "pod-reader" to User "jane"'));
    expectDecision(p, req(jane, { verb: 'list', resource: 'pods', namespace: 'kube-system' }), noOpinion());
    expectDecision(p, req(jane, { verb: 'delete', resource: 'pods', namespace: 'default', name: 'web' }), noOpinion());
    expectDecision(p, req(jane, { verb: 'list', resource: 'pods' }), noOpinion());
    expectDecision(p, req(user('bob'), { verb: 'list', resource: 'pods', namespace: 'default' }), noOpinion());
  });

  it('never grants a cluster-scoped request through a RoleBinding, even to a ClusterRole that covers it', () => {
    const p: Policy = {
      clusterRoles: [clusterRole('node-reader', rule(['get', 'list'], [''], ['nodes']), urlRule(['get'], ['/healthz']))],
      roleBindings: [rb('default', 'read-nodes', 'ClusterRole:node-reader', 'User:jane')],
    };
    expectDecision(p, req(user('jane'), { verb: 'list', resource: 'nodes' }), noOpinion());
    expectDecision(p, urlReq(user('jane'), 'get', '/healthz'), noOpinion());
    expectDecision(p, req(user('jane'), { verb: 'get', resource: 'nodes', name: 'worker-1' }), noOpinion());
  });

  it('grants everywhere through a ClusterRoleBinding, namespaced requests included', () => {
    const p: Policy = {
      clusterRoles: [clusterRole('view', rule(['get', 'list', 'watch'], ['', 'apps'], ['pods', 'deployments']))],
      clusterRoleBindings: [crb('everyone-views', 'view', 'Group:system:authenticated')],
    };
    const jane = user('jane', 'system:authenticated');
    expectDecision(p, req(jane, { verb: 'list', resource: 'pods', namespace: 'team-a' }), allow('RBAC: allowed by ClusterRoleBinding "everyone-views" of ClusterRole "view" to Group "system:authenticated"'));
    expectDecision(p, req(jane, { verb: 'list', group: 'apps', resource: 'deployments' }), allow('RBAC: allowed by ClusterRoleBinding "everyone-views" of ClusterRole "view" to Group "system:authenticated"'));
    expectDecision(p, req(user('jane'), { verb: 'list', resource: 'pods', namespace: 'team-a' }), noOpinion());
  });

  it('names the binding and the subject that matched, a service account as "name/namespace"', () => {
    const p: Policy = {
      roles: [role('ci', 'deployer', rule(['create', 'update'], ['apps'], ['deployments']))],
      clusterRoles: [clusterRole('secret-reader', rule(['get'], [''], ['secrets']))],
      roleBindings: [rb('ci', 'deployers', 'Role:deployer', 'User:jane', 'ServiceAccount:builder')],
      clusterRoleBindings: [crb('builders-read-secrets', 'secret-reader', 'Group:ops', 'ServiceAccount:ci/builder')],
    };
    const builder = user('system:serviceaccount:ci:builder', 'system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated');
    expectDecision(p, req(builder, { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'ci' }), allow('RBAC: allowed by RoleBinding "deployers/ci" of Role "deployer" to ServiceAccount "builder/ci"'));
    expectDecision(p, req(builder, { verb: 'get', resource: 'secrets', namespace: 'prod', name: 'db' }), allow('RBAC: allowed by ClusterRoleBinding "builders-read-secrets" of ClusterRole "secret-reader" to ServiceAccount "builder/ci"'));
    expectDecision(p, req(user('system:serviceaccount:prod:builder'), { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'ci' }), noOpinion());
  });

  it('reports the first subject of a binding that names the user', () => {
    const p: Policy = {
      clusterRoles: [clusterRole('view', rule(['get'], [''], ['pods']))],
      clusterRoleBindings: [crb('view', 'view', 'Group:dev', 'User:jane', 'Group:ops')],
    };
    expectDecision(p, req(user('jane', 'ops', 'dev'), { verb: 'get', resource: 'pods', namespace: 'x' }), allow('RBAC: allowed by ClusterRoleBinding "view" of ClusterRole "view" to Group "dev"'));
    expectDecision(p, req(user('jane', 'ops'), { verb: 'get', resource: 'pods', namespace: 'x' }), allow('RBAC: allowed by ClusterRoleBinding "view" of ClusterRole "view" to User "jane"'));
  });

  it('looks at ClusterRoleBindings before RoleBindings, each in the order the lister gives them', () => {
    const view = rule(['get', 'list'], [''], ['pods']);
    const p: Policy = {
      roles: [role('default', 'reader', view)],
      clusterRoles: [clusterRole('reader', view)],
      roleBindings: [rb('default', 'a-first', 'Role:reader', 'User:jane'), rb('default', 'b-second', 'ClusterRole:reader', 'User:jane')],
      clusterRoleBindings: [crb('z-last', 'reader', 'User:jane')],
    };
    const a = req(user('jane'), { verb: 'list', resource: 'pods', namespace: 'default' });
    expectDecision(p, a, allow('RBAC: allowed by ClusterRoleBinding "z-last" of ClusterRole "reader" to User "jane"'));
    expectDecision({ ...p, clusterRoleBindings: [] }, a, allow('RBAC: allowed by RoleBinding "a-first/default" of Role "reader" to User "jane"'));
  });

  it('keeps looking past bindings whose rules do not cover the request', () => {
    const p: Policy = {
      clusterRoles: [clusterRole('logs', rule(['get'], [''], ['pods/log'])), clusterRole('pods', rule(['get'], [''], ['pods']))],
      clusterRoleBindings: [crb('a-logs', 'logs', 'User:jane'), crb('b-pods', 'pods', 'User:jane')],
    };
    expectDecision(p, req(user('jane'), { verb: 'get', resource: 'pods', namespace: 'default', name: 'web' }), allow('RBAC: allowed by ClusterRoleBinding "b-pods" of ClusterRole "pods" to User "jane"'));
    expectDecision(p, req(user('jane'), { verb: 'get', resource: 'pods', subresource: 'log', namespace: 'default', name: 'web' }), allow('RBAC: allowed by ClusterRoleBinding "a-logs" of ClusterRole "logs" to User "jane"'));
  });

  it('resolves a RoleBinding\'s Role in the binding\'s own namespace', () => {
    const p: Policy = {
      roles: [role('team-a', 'editor', rule(['*'], ['*'], ['*'])), role('team-b', 'editor', rule(['get'], [''], ['configmaps']))],
      roleBindings: [rb('team-b', 'editors', 'Role:editor', 'Group:dev')],
    };
    expectDecision(p, req(user('jane', 'dev'), { verb: 'delete', resource: 'pods', namespace: 'team-b', name: 'x' }), noOpinion());
    expectDecision(p, req(user('jane', 'dev'), { verb: 'get', resource: 'configmaps', namespace: 'team-b', name: 'x' }), allow('RBAC: allowed by RoleBinding "editors/team-b" of Role "editor" to Group "dev"'));
  });

  it('says which role is missing when nothing allows the request', () => {
    const p: Policy = {
      clusterRoleBindings: [crb('gone', 'deleted-role', 'User:jane')],
      roleBindings: [rb('default', 'also-gone', 'Role:deleted-role', 'User:jane')],
    };
    expectDecision(p, req(user('jane'), { verb: 'get', resource: 'pods', namespace: 'kube-system' }), noOpinion('RBAC: clusterrole.rbac.authorization.k8s.io "deleted-role" not found'));
    expectDecision(
      p,
      req(user('jane'), { verb: 'get', resource: 'pods', namespace: 'default' }),
      noOpinion('RBAC: [clusterrole.rbac.authorization.k8s.io "deleted-role" not found, role.rbac.authorization.k8s.io "deleted-role" not found]'),
    );
  });

  it('reports each missing role once, and only for bindings that name the user', () => {
    const p: Policy = {
      clusterRoleBindings: [crb('a', 'missing', 'User:jane'), crb('b', 'missing', 'Group:dev'), crb('c', 'other-missing', 'User:bob')],
    };
    expectDecision(p, req(user('jane', 'dev'), { verb: 'get', resource: 'pods' }), noOpinion('RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found'));
    expectDecision(p, req(user('alice'), { verb: 'get', resource: 'pods' }), noOpinion());
  });

  it('reports an unsupported roleRef kind', () => {
    const bad = rb('default', 'odd', 'Role:x', 'User:jane');
    bad.roleRef.kind = 'Group';
    expectDecision({ roleBindings: [bad] }, req(user('jane'), { verb: 'get', resource: 'pods', namespace: 'default' }), noOpinion('RBAC: unsupported role reference kind: "Group"'));
  });

  it('allows despite a missing role met first, and then says only who allowed it', () => {
    const p: Policy = {
      clusterRoles: [clusterRole('view', rule(['get'], [''], ['pods']))],
      clusterRoleBindings: [crb('a-gone', 'missing', 'User:jane'), crb('b-view', 'view', 'User:jane')],
    };
    expectDecision(p, req(user('jane'), { verb: 'get', resource: 'pods', namespace: 'default' }), allow('RBAC: allowed by ClusterRoleBinding "b-view" of ClusterRole "view" to User "jane"'));
  });

  it('treats a role without rules as granting nothing', () => {
    const p: Policy = { clusterRoles: [{ metadata: { name: 'empty' } }], clusterRoleBindings: [crb('empty', 'empty', 'User:jane')] };
    expectDecision(p, req(user('jane'), { verb: 'get', resource: 'pods' }), noOpinion());
  });

  it('skips bindings without subjects', () => {
    const p: Policy = {
      clusterRoles: [clusterRole('all', rule(['*'], ['*'], ['*']))],
      clusterRoleBindings: [{ metadata: { name: 'nobody' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'all' } }],
    };
    expectDecision(p, req(user('jane'), { verb: 'get', resource: 'pods' }), noOpinion());
  });

  it('does not modify the policy it reads', () => {
    const p: Policy = {
      roles: [role('default', 'r', rule(['get'], [''], ['pods'], ['web']))],
      clusterRoles: [clusterRole('c', urlRule(['get'], ['/healthz*']))],
      roleBindings: [rb('default', 'rb', 'Role:r', 'ServiceAccount:builder', 'User:jane')],
      clusterRoleBindings: [crb('crb', 'c', 'Group:dev'), crb('gone', 'missing', 'User:jane')],
    };
    const before = structuredClone(p);
    decide(p, req(user('jane', 'dev'), { verb: 'get', resource: 'pods', namespace: 'default', name: 'web' }));
    decide(p, urlReq(user('jane', 'dev'), 'get', '/healthz/etcd'));
    decide(p, req(user('system:serviceaccount:default:builder'), { verb: 'list', resource: 'pods', namespace: 'default' }));
    expect(p).toEqual(before);
  });
});

// ---------------------------------------------------------------- the Forbidden message

describe('the Forbidden message', () => {
  const jane = user('jane', 'system:authenticated');
  // [case, attributes, reason, expected]
  const table: [string, Attributes, string, string][] = [
    ['a namespaced list', req(jane, { verb: 'list', resource: 'pods', namespace: 'default' }), '',
      'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"'],
    ['a get names the object', req(jane, { verb: 'get', resource: 'pods', namespace: 'default', name: 'web-1' }), '',
      'pods "web-1" is forbidden: User "jane" cannot get resource "pods" in API group "" in the namespace "default"'],
    ['a cluster-scoped list', req(jane, { verb: 'list', resource: 'nodes' }), '',
      'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope'],
    ['a list of every namespace is at the cluster scope too', req(jane, { verb: 'list', group: 'apps', resource: 'deployments' }), '',
      'deployments.apps is forbidden: User "jane" cannot list resource "deployments" in API group "apps" at the cluster scope'],
    ['a named object of a group', req(jane, { verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'team-a', name: 'web' }), '',
      'deployments.apps "web" is forbidden: User "jane" cannot delete resource "deployments" in API group "apps" in the namespace "team-a"'],
    ['a subresource is part of the resource in the sentence, not in the prefix', req(jane, { verb: 'get', resource: 'pods', subresource: 'log', namespace: 'default', name: 'web-1' }), '',
      'pods "web-1" is forbidden: User "jane" cannot get resource "pods/log" in API group "" in the namespace "default"'],
    ['a scale subresource of a group', req(jane, { verb: 'update', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'default', name: 'web' }), '',
      'deployments.apps "web" is forbidden: User "jane" cannot update resource "deployments/scale" in API group "apps" in the namespace "default"'],
    ['a non-resource URL', urlReq(jane, 'get', '/metrics'), '',
      'forbidden: User "jane" cannot get path "/metrics"'],
    ['the reason follows a colon', req(jane, { verb: 'get', resource: 'pods', namespace: 'default' }), 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
      'pods is forbidden: User "jane" cannot get resource "pods" in API group "" in the namespace "default": RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found'],
    ['several authorizers\' reasons arrive joined by newlines and stay so', urlReq(jane, 'get', '/healthz'), 'node says no\nRBAC: role.rbac.authorization.k8s.io "r" not found',
      'forbidden: User "jane" cannot get path "/healthz": node says no\nRBAC: role.rbac.authorization.k8s.io "r" not found'],
    ['a service account is quoted like any user', req(user('system:serviceaccount:ci:builder'), { verb: 'create', resource: 'secrets', namespace: 'ci' }), '',
      'secrets is forbidden: User "system:serviceaccount:ci:builder" cannot create resource "secrets" in API group "" in the namespace "ci"'],
    ['quotes inside a name are escaped', req(user('say "hi"'), { verb: 'get', resource: 'pods', namespace: 'default', name: 'a"b' }), '',
      'pods "a\\"b" is forbidden: User "say \\"hi\\"" cannot get resource "pods" in API group "" in the namespace "default"'],
  ];

  it.each(table)('%s', (_name, a, reason, expected) => {
    expect(forbiddenStatusMessage(a, reason), `forbiddenStatusMessage(${describeRequest(a)}, ${JSON.stringify(reason)})`).toBe(expected);
  });
});

// ---------------------------------------------------------------- differential test

const SEED = 20_260_307;
const NAMESPACES = ['default', 'team-a', 'team-b'];
const SA_NAMES = ['builder', 'default'];
const USERS = ['jane', 'bob', ...NAMESPACES.flatMap((ns) => SA_NAMES.map((n) => `system:serviceaccount:${ns}:${n}`))];
const GROUPS = ['dev', 'ops', 'system:authenticated', 'system:serviceaccounts', 'system:serviceaccounts:team-a'];
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const REQUEST_RESOURCES: [string, string, string][] = [
  ['', 'pods', ''], ['', 'pods', 'log'], ['', 'pods', 'status'], ['', 'pods', 'exec'], ['', 'secrets', ''], ['', 'configmaps', ''],
  ['', 'nodes', ''], ['', 'nodes', 'status'], ['apps', 'deployments', ''], ['apps', 'deployments', 'scale'], ['apps', 'deployments', 'status'], ['batch', 'jobs', ''],
];
const RULE_RESOURCES = ['pods', 'pods/log', 'pods/status', 'pods/*', '*/status', '*/scale', '*', 'secrets', 'configmaps', 'nodes', 'deployments', 'deployments/scale', 'jobs'];
const OBJECT_NAMES = ['web', 'db', 'app-config'];
const PATHS = ['/healthz', '/healthz/etcd', '/livez', '/metrics', '/api', '/apis', '/apis/apps', '/version'];
const RULE_PATHS = ['/healthz', '/healthz*', '/healthz/*', '/metrics', '/api*', '/apis/*', '/apis**', '*', '/version'];

const someOf = <T>(values: readonly T[], minLength = 1) => fc.subarray([...values], { minLength });

const resourceRuleArb: fc.Arbitrary<PolicyRule> = fc.record(
  {
    verbs: someOf([...VERBS, '*']),
    apiGroups: someOf(['', 'apps', 'batch', '*'], 0),
    resources: someOf(RULE_RESOURCES),
    resourceNames: someOf(OBJECT_NAMES, 0),
  },
  { requiredKeys: ['verbs', 'apiGroups', 'resources'] },
);
const urlRuleArb: fc.Arbitrary<PolicyRule> = fc.record({ verbs: someOf(['get', 'post', 'head', '*']), nonResourceURLs: someOf(RULE_PATHS) });

const subjectArb: fc.Arbitrary<Subject> = fc.oneof(
  fc.constantFrom(...USERS, 'alice').map((name): Subject => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name })),
  fc.constantFrom(...GROUPS).map((name): Subject => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name })),
  fc.record(
    { kind: fc.constant('ServiceAccount'), name: fc.constantFrom(...SA_NAMES), namespace: fc.constantFrom(...NAMESPACES) },
    { requiredKeys: ['kind', 'name'] },
  ),
);

/** A role reference: usually to a role that exists (index < count), sometimes to one that does not. */
const refIndex = fc.nat({ max: 5 });

const policyArb: fc.Arbitrary<Policy> = fc
  .record({
    clusterRoles: fc.array(fc.array(fc.oneof({ weight: 3, arbitrary: resourceRuleArb }, { weight: 1, arbitrary: urlRuleArb }), { maxLength: 4 }), { maxLength: 5 }),
    roles: fc.array(fc.tuple(fc.constantFrom(...NAMESPACES), fc.array(resourceRuleArb, { maxLength: 4 })), { maxLength: 6 }),
    clusterRoleBindings: fc.array(fc.tuple(refIndex, fc.array(subjectArb, { maxLength: 3 })), { maxLength: 6 }),
    roleBindings: fc.array(
      fc.tuple(fc.constantFrom(...NAMESPACES), fc.constantFrom('Role', 'ClusterRole'), refIndex, fc.array(subjectArb, { maxLength: 3 })),
      { maxLength: 8 },
    ),
  })
  .map((g): Policy => ({
    clusterRoles: g.clusterRoles.map((rules, i) => clusterRole(`cr-${i}`, ...rules)),
    roles: g.roles.map(([ns, rules], i) => role(ns, `role-${i % 3}`, ...rules)).filter((r, i, all) => all.findIndex((o) => o.metadata.namespace === r.metadata.namespace && o.metadata.name === r.metadata.name) === i),
    clusterRoleBindings: g.clusterRoleBindings.map(([ref, subjects], i) => ({ ...crb(`crb-${i}`, `cr-${ref}`), subjects })),
    roleBindings: g.roleBindings.map(([ns, kind, ref, subjects], i) => ({
      ...rb(ns, `rb-${i}`, `${kind as 'Role' | 'ClusterRole'}:${kind === 'Role' ? `role-${ref % 4}` : `cr-${ref}`}`),
      subjects,
    })),
  }));

const userArb: fc.Arbitrary<UserInfo> = fc.tuple(fc.constantFrom(...USERS, 'alice'), someOf(GROUPS, 0)).map(([name, groups]) => user(name, ...groups));

const requestArb: fc.Arbitrary<Attributes> = fc.oneof(
  { weight: 4, arbitrary: fc
    .tuple(userArb, fc.constantFrom(...VERBS), fc.constantFrom(...REQUEST_RESOURCES), fc.constantFrom('', ...NAMESPACES), fc.constantFrom('', ...OBJECT_NAMES))
    .map(([u, verb, [group, resource, subresource], namespace, name]) => req(u, { verb, group, resource, subresource, namespace, name })) },
  { weight: 1, arbitrary: fc.tuple(userArb, fc.constantFrom('get', 'post', 'head'), fc.constantFrom(...PATHS)).map(([u, verb, path]) => urlReq(u, verb, path)) },
);

/**
 * Runs a differential property with a fixed seed; on failure, reports the seed, the path to replay
 * it and the smallest failing input fast-check found (as `compare` describes it: the failing case
 * and what the reference and the learner's code said).
 */
function differential<T>(what: string, arb: fc.Arbitrary<T>, numRuns: number, compare: (input: T) => string | undefined): void {
  const details = fc.check(
    fc.property(arb, (input) => {
      const problem = compare(input);
      if (problem !== undefined) throw new Error(problem);
    }),
    { seed: SEED, numRuns, interruptAfterTimeLimit: 6_000 },
  );
  if (details.failed && details.counterexample) {
    const [input] = details.counterexample;
    let problem: string;
    try {
      problem = compare(input) ?? String(details.errorInstance);
    } catch (e) {
      problem = `${JSON.stringify(input)}\nyour code threw: ${e instanceof Error ? e.message : String(e)}`;
    }
    expect.fail(
      `${what} differs from the reference on a generated case (seed ${details.seed}, path ${details.counterexamplePath}). ` +
        `Smallest failing case found:\n${problem}`,
    );
  }
  expect(details.numRuns, `${what}: generated cases run`).toBe(numRuns);
}

/** A policy, one object per line, for failure messages. */
function describePolicy(p: Policy): string {
  const lines: string[] = [];
  const rules = (rs: readonly PolicyRule[] | undefined) => JSON.stringify(rs ?? []);
  for (const r of p.clusterRoles ?? []) lines.push(`  ClusterRole ${r.metadata.name}: rules ${rules(r.rules)}`);
  for (const r of p.roles ?? []) lines.push(`  Role ${r.metadata.namespace}/${r.metadata.name}: rules ${rules(r.rules)}`);
  for (const b of byName(p.clusterRoleBindings ?? [])) lines.push(`  ClusterRoleBinding ${b.metadata.name} -> ${b.roleRef.kind} ${b.roleRef.name}: subjects ${JSON.stringify(b.subjects ?? [])}`);
  for (const b of byName(p.roleBindings ?? [])) lines.push(`  RoleBinding ${b.metadata.namespace}/${b.metadata.name} -> ${b.roleRef.kind} ${b.roleRef.name}: subjects ${JSON.stringify(b.subjects ?? [])}`);
  return lines.length === 0 ? '  (no RBAC objects)' : lines.join('\n');
}

const same = (x: unknown, y: unknown): boolean => JSON.stringify(x) === JSON.stringify(y);

describe('differential test against the reference', () => {
  it('ruleAllows agrees on generated rules and requests', () => {
    const arb = fc.tuple(fc.oneof(resourceRuleArb, urlRuleArb), fc.array(requestArb, { minLength: 1, maxLength: 20 }));
    differential('ruleAllows', arb, 400, ([r, requests]) => {
      for (const a of requests) {
        const expected = reference.ruleAllows(a, r);
        const got = ruleAllows(a, structuredClone(r));
        if (got !== expected) return `ruleAllows(request, rule) with\n  rule ${JSON.stringify(r)}\n  request ${describeRequest(a)} ${JSON.stringify(a)}\nexpected ${expected}, got ${String(got)}`;
      }
      return undefined;
    });
  });

  it('subjectMatches agrees on generated subjects and users', () => {
    const arb = fc.tuple(subjectArb, fc.constantFrom('', ...NAMESPACES), fc.array(userArb, { minLength: 1, maxLength: 10 }));
    differential('subjectMatches', arb, 300, ([s, ns, users]) => {
      for (const u of users) {
        const expected = reference.subjectMatches(u, s, ns);
        const got = subjectMatches(structuredClone(u), structuredClone(s), ns);
        if (got !== expected) return `subjectMatches(user, subject, bindingNamespace) with\n  user ${JSON.stringify(u)}\n  subject ${JSON.stringify(s)}\n  bindingNamespace ${JSON.stringify(ns)}\nexpected ${expected}, got ${String(got)}`;
      }
      return undefined;
    });
  });

  it('authorize agrees on generated policies and requests: decision and reason', () => {
    const arb = fc.tuple(policyArb, fc.array(requestArb, { minLength: 1, maxLength: 25 }));
    differential('authorize', arb, 300, ([p, requests]) => {
      const expectedAuthorizer = reference.newRbacAuthorizer(listerOf(p));
      const authorizer = newRbacAuthorizer(listerOf(structuredClone(p)));
      for (const a of requests) {
        const expected = expectedAuthorizer.authorize(a);
        const got: unknown = authorizer.authorize(structuredClone(a));
        if (!same(got, expected)) return `policy (bindings listed in name order):\n${describePolicy(p)}\nrequest ${describeRequest(a)}\n  ${JSON.stringify(a)}\nexpected ${JSON.stringify(expected)}\ngot      ${JSON.stringify(got)}`;
      }
      return undefined;
    });
  });

  it('forbiddenStatusMessage agrees on generated requests and reasons', () => {
    const arb = fc.array(fc.tuple(requestArb, fc.constantFrom('', 'RBAC: clusterrole.rbac.authorization.k8s.io "x" not found', 'a\nb')), { minLength: 1, maxLength: 20 });
    differential('forbiddenStatusMessage', arb, 300, (cases) => {
      for (const [a, reason] of cases) {
        const expected = reference.forbiddenStatusMessage(a, reason);
        const got = forbiddenStatusMessage(structuredClone(a), reason);
        if (got !== expected) return `forbiddenStatusMessage(attributes, reason) with\n  attributes ${JSON.stringify(a)}\n  reason ${JSON.stringify(reason)}\nexpected ${JSON.stringify(expected)}\ngot      ${JSON.stringify(got)}`;
      }
      return undefined;
    });
  });
});
