// NodeRestriction through the request pipeline, after plugin/pkg/admission/noderestriction/
// admission_test.go: a kubelet's credentials write only what belongs to its own node.
import { describe, expect, it } from 'vitest';
import type { Pod, Status } from '../../../api/index.ts';
import { createHarness } from '../../testing/harness.ts';

const asNode = (node: string) => ({ clientCert: { commonName: `system:node:${node}`, organizations: ['system:nodes'] } });
const pod = (name: string, nodeName: string, extra: Partial<Pod['metadata']> = {}): Pod =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', ...extra }, spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }] } }) as Pod;
const mirror = (name: string, nodeName: string, owner = nodeName): Pod =>
  pod(name, nodeName, { annotations: { 'kubernetes.io/config.mirror': 'hash' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: owner, uid: 'u', controller: true }] });

function setup() {
  const h = createHarness();
  for (const n of ['n1', 'n2']) expect(h.admin({ verb: 'create', resource: 'nodes', body: { apiVersion: 'v1', kind: 'Node', metadata: { name: n } } }).code).toBe(201);
  expect(h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('on-n2', 'n2') }).code).toBe(201);
  return h;
}
const message = (body: unknown): string => (body as Status).message ?? '';

describe('NodeRestriction admission', () => {
  it('a node creates only mirror pods bound to itself and owned by its Node', () => {
    const h = setup();
    const create = (p: Pod) => h.call({ credentials: asNode('n1'), verb: 'create', resource: 'pods', namespace: 'default', body: p });
    expect(create(mirror('static-n1', 'n1')).code).toBe(201);
    const plain = create(pod('plain', 'n1'));
    expect([plain.code, message(plain.body)]).toEqual([403, 'pods "plain" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods']);
    expect(message(create(mirror('elsewhere', 'n2')).body)).toBe('pods "elsewhere" is forbidden: node "n1" can only create pods with spec.nodeName set to itself');
    expect(message(create(mirror('owned', 'n1', 'n2')).body)).toBe('pods "owned" is forbidden: node "n1" can only create pods with an owner reference set to itself');
  });

  it('deletes and updates the status of only its own pods', () => {
    const h = setup();
    const del = h.call({ credentials: asNode('n1'), verb: 'delete', resource: 'pods', namespace: 'default', name: 'on-n2' });
    expect([del.code, message(del.body)]).toEqual([403, 'pods "on-n2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself']);
    const current = h.admin({ verb: 'get', resource: 'pods', namespace: 'default', name: 'on-n2' }).body as Pod;
    const status = h.call({ credentials: asNode('n1'), verb: 'update', resource: 'pods', subresource: 'status', namespace: 'default', name: 'on-n2', body: { ...current, status: { phase: 'Running' } } });
    expect(message(status.body)).toBe('pods "on-n2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself');
    expect(h.call({ credentials: asNode('n2'), verb: 'update', resource: 'pods', subresource: 'status', namespace: 'default', name: 'on-n2', body: { ...current, status: { phase: 'Running' } } }).code).toBe(200);
    expect(h.call({ credentials: asNode('n2'), verb: 'delete', resource: 'pods', namespace: 'default', name: 'on-n2' }).code).toBe(200);
  });

  it('modifies only its own Node, and creates only its own Lease', () => {
    const h = setup();
    const n2 = h.admin({ verb: 'get', resource: 'nodes', name: 'n2' }).body;
    const res = h.call({ credentials: asNode('n1'), verb: 'update', resource: 'nodes', name: 'n2', body: n2 });
    expect([res.code, message(res.body)]).toEqual([403, 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"']);
    const lease = (name: string) => h.call({ credentials: asNode('n1'), verb: 'create', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'kube-node-lease' }, spec: { holderIdentity: name } } });
    expect(lease('n1').code).toBe(201);
    expect(message(lease('n2').body)).toBe('leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node');
  });

  it('users that are not nodes are not its business', () => {
    const h = setup();
    expect(h.admin({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('plain', 'n1') }).code).toBe(201);
  });
});
