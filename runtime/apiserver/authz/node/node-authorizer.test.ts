// The Node authorizer's decisions (plugin/pkg/auth/authorizer/node/node_authorizer_test.go):
// a kubelet reads only what pods bound to its node refer to, writes only its own Lease, and
// everything else follows the static system:node rules; it never denies, it has no opinion.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../api/index.ts';
import type { Attributes } from '../attributes.ts';
import { NodeAuthorizer, nodeIdentity } from './node-authorizer.ts';

const pod = (name: string, node: string, spec: Partial<Pod['spec']> = {}, namespace = 'ns'): Pod =>
  ({ metadata: { name, namespace }, spec: { nodeName: node, containers: [{ name: 'c', image: 'busybox' }], ...spec } }) as Pod;

const pods: Pod[] = [
  pod('web', 'node-1', {
    serviceAccountName: 'web-sa',
    imagePullSecrets: [{ name: 'pull' }],
    volumes: [
      { name: 'a', secret: { secretName: 'vol-secret' } },
      { name: 'b', configMap: { name: 'vol-cm' } },
      { name: 'c', projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }, { secret: { name: 'proj-secret' } }] } } as never,
      { name: 'd', persistentVolumeClaim: { claimName: 'data' } } as never,
    ],
    containers: [{ name: 'c', image: 'busybox', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }], envFrom: [{ configMapRef: { name: 'env-cm' } }] }],
    initContainers: [{ name: 'i', image: 'busybox', envFrom: [{ secretRef: { name: 'init-secret' } }] }],
  }),
  pod('other', 'node-2', { volumes: [{ name: 'a', secret: { secretName: 'elsewhere' } }] }),
];
const authz = new NodeAuthorizer((node) => pods.filter((p) => p.spec.nodeName === node));
const node1 = { name: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] };
const request = (verb: string, resource: string, name: string, extra: Partial<Attributes> = {}): Attributes =>
  ({ user: node1, verb, resourceRequest: true, apiGroup: '', resource, namespace: 'ns', name, ...extra });

describe('nodeIdentity (nodeidentifier.NodeIdentity)', () => {
  it.each([
    [{ name: 'system:node:n1', groups: ['system:nodes'] }, 'n1'],
    [{ name: 'system:node:', groups: ['system:nodes'] }, ''],
    [{ name: 'system:node:n1', groups: ['system:authenticated'] }, undefined],
    [{ name: 'alice', groups: ['system:nodes'] }, undefined],
  ])('%j is %j', (user, want) => expect(nodeIdentity(user)).toBe(want));
});

describe('NodeAuthorizer', () => {
  it.each([
    ['vol-secret'], ['proj-secret'], ['env-secret'], ['init-secret'], ['pull'],
  ])('allows reading secret %s, which a pod on the node refers to', (name) => {
    expect(authz.authorize(request('get', 'secrets', name)).decision).toBe('Allow');
  });

  it.each([['vol-cm'], ['env-cm'], ['kube-root-ca.crt']])('allows reading configmap %s', (name) => {
    expect(authz.authorize(request('get', 'configmaps', name)).decision).toBe('Allow');
    expect(authz.authorize(request('watch', 'configmaps', name)).decision).toBe('Allow');
  });

  it('has no opinion on objects no pod of its node refers to, and says why', () => {
    expect(authz.authorize(request('get', 'secrets', 'elsewhere'))).toEqual({ decision: 'NoOpinion', reason: "no relationship found between node 'node-1' and this object" });
    expect(authz.authorize(request('get', 'secrets', 'vol-secret', { namespace: 'other-ns' })).decision).toBe('NoOpinion');
    expect(authz.authorize(request('list', 'secrets', ''))).toEqual({ decision: 'NoOpinion', reason: 'No Object name found' });
    expect(authz.authorize(request('delete', 'secrets', 'vol-secret'))).toEqual({ decision: 'NoOpinion', reason: 'can only read resources of this type' });
    expect(authz.authorize(request('get', 'secrets', 'vol-secret', { namespace: '' }))).toEqual({ decision: 'NoOpinion', reason: 'can only read namespaced object of this type' });
  });

  it('persistent volume claims: get only', () => {
    expect(authz.authorize(request('get', 'persistentvolumeclaims', 'data')).decision).toBe('Allow');
    expect(authz.authorize(request('list', 'persistentvolumeclaims', 'data'))).toEqual({ decision: 'NoOpinion', reason: 'can only get individual resources of this type' });
  });

  it('tokens only for the service accounts its pods run as', () => {
    expect(authz.authorize(request('create', 'serviceaccounts', 'web-sa', { subresource: 'token' })).decision).toBe('Allow');
    expect(authz.authorize(request('create', 'serviceaccounts', 'default', { subresource: 'token' })).decision).toBe('NoOpinion');
    expect(authz.authorize(request('get', 'serviceaccounts', 'web-sa'))).toEqual({ decision: 'NoOpinion', reason: 'can only create tokens for individual service accounts' });
    expect(authz.authorize(request('create', 'serviceaccounts', 'web-sa'))).toEqual({ decision: 'NoOpinion', reason: 'can only create token subresource of serviceaccount' });
  });

  it('its own Lease in kube-node-lease, no other', () => {
    const lease = (verb: string, name: string, namespace = 'kube-node-lease') => authz.authorize(request(verb, 'leases', name, { apiGroup: 'coordination.k8s.io', namespace }));
    expect(lease('update', 'node-1').decision).toBe('Allow');
    expect(lease('create', '').decision).toBe('Allow');
    expect(lease('update', 'node-2')).toEqual({ decision: 'NoOpinion', reason: 'can only access node lease with the same name as the requesting node' });
    expect(lease('get', 'node-1', 'kube-system')).toEqual({ decision: 'NoOpinion', reason: 'can only access leases in the "kube-node-lease" system namespace' });
    expect(lease('list', 'node-1')).toEqual({ decision: 'NoOpinion', reason: 'can only get, create, update, patch, or delete a node lease' });
  });

  it('everything else by the static system:node rules', () => {
    expect(authz.authorize(request('list', 'pods', '', { namespace: '' })).decision).toBe('Allow');
    expect(authz.authorize(request('patch', 'pods', 'web', { subresource: 'status' })).decision).toBe('Allow');
    expect(authz.authorize(request('update', 'nodes', 'node-1', { namespace: '', subresource: 'status' })).decision).toBe('Allow');
    expect(authz.authorize(request('delete', 'deployments', 'x', { apiGroup: 'apps' }))).toEqual({ decision: 'NoOpinion', reason: '' });
  });

  it('ignores users that are not nodes, and nodes without a name', () => {
    expect(authz.authorize({ ...request('get', 'secrets', 'vol-secret'), user: { name: 'alice', groups: [] } })).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(authz.authorize({ ...request('get', 'secrets', 'vol-secret'), user: { name: 'system:node:', groups: ['system:nodes'] } })).toEqual({ decision: 'NoOpinion', reason: 'unknown node for user "system:node:"' });
  });
});
