// describe role / clusterrole / rolebinding / clusterrolebinding: the exact texts of describe.go's
// RBAC describers, through the command (which must not fall back to the generic describer).
import { describe, expect, it } from 'vitest';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../../api/index.ts';
import { FakeTransport } from '../fake-transport.ts';
import { runKubectl } from '../kubectl.ts';

function transport(): FakeTransport {
  const t = new FakeTransport(() => 60_000);
  const rbac = 'rbac.authorization.k8s.io';
  t.seed(rbac, 'roles', {
    apiVersion: `${rbac}/v1`,
    kind: 'Role',
    metadata: { name: 'pod-reader', namespace: 'default', labels: { team: 'a' } },
    rules: [
      { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['get'] },
    ],
  } as Role);
  t.seed(rbac, 'clusterroles', {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'health' },
    rules: [{ nonResourceURLs: ['/healthz', '/livez'], verbs: ['get'] }, { apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
  } as ClusterRole);
  t.seed(rbac, 'rolebindings', {
    apiVersion: `${rbac}/v1`,
    kind: 'RoleBinding',
    metadata: { name: 'read-pods', namespace: 'default' },
    roleRef: { apiGroup: rbac, kind: 'Role', name: 'pod-reader' },
    subjects: [
      { kind: 'User', apiGroup: rbac, name: 'jane' },
      { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
    ],
  } as RoleBinding);
  t.seed(rbac, 'clusterrolebindings', {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'ops' },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'health' },
    subjects: [{ kind: 'Group', apiGroup: rbac, name: 'ops' }],
  } as ClusterRoleBinding);
  return t;
}

function describeOut(line: string): string {
  let out = '';
  runKubectl(line, transport(), { nowMs: 60_000 }, (r) => (out = r.stdout + r.stderr));
  return out;
}

describe('describe of RBAC objects (RoleDescriber, ClusterRoleDescriber, RoleBindingDescriber, ClusterRoleBindingDescriber)', () => {
  const cases: [string, string][] = [
    [
      'describe role pod-reader',
      'Name:         pod-reader\n' +
        'Labels:       team=a\n' +
        'Annotations:  <none>\n' +
        'PolicyRule:\n' +
        '  Resources         Non-Resource URLs  Resource Names  Verbs\n' +
        '  ---------         -----------------  --------------  -----\n' +
        '  pods/log          []                 []              [get list watch]\n' +
        '  pods              []                 []              [get list watch]\n' +
        '  deployments.apps  []                 [web]           [get]\n',
    ],
    [
      'describe clusterrole health',
      'Name:         health\n' +
        'Labels:       <none>\n' +
        'Annotations:  <none>\n' +
        'PolicyRule:\n' +
        '  Resources  Non-Resource URLs  Resource Names  Verbs\n' +
        '  ---------  -----------------  --------------  -----\n' +
        '  *.*        []                 []              [*]\n' +
        '             [/healthz]         []              [get]\n' +
        '             [/livez]           []              [get]\n',
    ],
    [
      'describe rolebinding read-pods',
      'Name:         read-pods\n' +
        'Labels:       <none>\n' +
        'Annotations:  <none>\n' +
        'Role:\n' +
        '  Kind:  Role\n' +
        '  Name:  pod-reader\n' +
        'Subjects:\n' +
        '  Kind            Name     Namespace\n' +
        '  ----            ----     ---------\n' +
        '  User            jane     \n' +
        '  ServiceAccount  builder  ci\n',
    ],
    [
      'describe clusterrolebinding ops',
      'Name:         ops\n' +
        'Labels:       <none>\n' +
        'Annotations:  <none>\n' +
        'Role:\n' +
        '  Kind:  ClusterRole\n' +
        '  Name:  health\n' +
        'Subjects:\n' +
        '  Kind   Name  Namespace\n' +
        '  ----   ----  ---------\n' +
        '  Group  ops   \n',
    ],
  ];
  it.each(cases)('%s', (line, expected) => {
    expect(describeOut(line)).toBe(expected);
  });
});
