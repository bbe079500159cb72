import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Pod, Service } from '../../api/index.ts';
import { findPort, podToEndpoint } from './endpoints.ts';
import { reconcileEndpointSlices } from './reconcile.ts';

const svc: Service = { metadata: { name: 'web', namespace: 'default', uid: 's1', labels: { team: 'a' } }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] } };
const pod = (i: number, over: { ready?: boolean; ip?: string | null; deleting?: boolean; phase?: string; port?: number } = {}): Pod => ({
  metadata: { name: `web-${String(i).padStart(3, '0')}`, namespace: 'default', uid: `p${i}`, labels: { app: 'web' }, ...(over.deleting ? { deletionTimestamp: 't' } : {}) },
  spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: over.port ?? 8080 }] }] },
  status: {
    phase: over.phase ?? 'Running', ...(over.ip === null ? {} : { podIP: over.ip ?? `10.0.0.${i}` }),
    conditions: [{ type: 'Ready', status: over.ready === false ? 'False' : 'True' }],
  },
} as Pod);
const named = (s: EndpointSlice, name: string, rv = '1'): EndpointSlice => ({ ...s, metadata: { ...s.metadata, name, resourceVersion: rv } });

describe('podToEndpoint and findPort', () => {
  const cases: [string, Pod, { ready: boolean; serving: boolean; terminating: boolean }][] = [
    ['ready pod', pod(1), { ready: true, serving: true, terminating: false }],
    ['not ready', pod(1, { ready: false }), { ready: false, serving: false, terminating: false }],
    ['terminating but still serving', pod(1, { deleting: true }), { ready: false, serving: true, terminating: true }],
  ];
  for (const [name, p, want] of cases) it(name, () => expect(podToEndpoint(p, svc).conditions).toEqual(want));
  it('fills address, node and target reference', () => {
    expect(podToEndpoint(pod(7), svc)).toMatchObject({ addresses: ['10.0.0.7'], nodeName: 'node-1', targetRef: { kind: 'Pod', name: 'web-007', uid: 'p7' } });
  });
  it('resolves named, numeric and missing target ports', () => {
    expect(findPort(pod(1), { port: 80, targetPort: 'http' })).toBe(8080);
    expect(findPort(pod(1), { port: 80, targetPort: 9000 })).toBe(9000);
    expect(findPort(pod(1), { port: 80 })).toBe(80);
    expect(findPort(pod(1), { port: 80, targetPort: 'grpc' })).toBeUndefined();
  });
});

describe('reconcileEndpointSlices', () => {
  it('creates one slice with labels, owner and ports; skips pods without IP or finished', () => {
    const c = reconcileEndpointSlices(svc, [pod(1), pod(2, { ip: null }), pod(3, { phase: 'Succeeded' }), pod(4, { deleting: true })], [], 100);
    expect(c.update).toEqual([]);
    expect(c.delete).toEqual([]);
    expect(c.create).toHaveLength(1);
    const s = c.create[0]!;
    expect(s.metadata.generateName).toBe('web-');
    expect(s.metadata.labels).toEqual({ team: 'a', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    expect(s.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 's1', controller: true, blockOwnerDeletion: true }]);
    expect(s.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(s.endpoints.map((e) => e.targetRef?.name)).toEqual(['web-001', 'web-004']);
  });
  it('splits at the per-slice maximum and groups by port mapping', () => {
    const pods = [...Array.from({ length: 5 }, (_, i) => pod(i + 1)), pod(9, { port: 9090 })];
    const c = reconcileEndpointSlices(svc, pods, [], 2);
    expect(c.create.map((s) => `${s.ports?.[0]?.port}:${s.endpoints.length}`)).toEqual(['8080:2', '8080:2', '8080:1', '9090:1']);
  });
  it('leaves an up-to-date slice alone, rewrites one whose pod changed, deletes an emptied one', () => {
    const first = named(reconcileEndpointSlices(svc, [pod(1), pod(2)], [], 100).create[0]!, 'web-abcde');
    expect(reconcileEndpointSlices(svc, [pod(1), pod(2)], [first], 100)).toEqual({ create: [], update: [], delete: [] });
    const changed = reconcileEndpointSlices(svc, [pod(1), pod(2, { ready: false })], [first], 100);
    expect(changed.update).toHaveLength(1);
    expect(changed.update[0]!.metadata.name).toBe('web-abcde');
    expect(changed.update[0]!.endpoints[1]!.conditions?.ready).toBe(false);
    const gone = reconcileEndpointSlices(svc, [], [first], 100);
    expect(gone.delete.map((s) => s.metadata.name)).toEqual(['web-abcde']);
    expect(gone.create).toHaveLength(1); // the placeholder
    expect(gone.create[0]!.endpoints).toEqual([]);
    expect(gone.create[0]!.ports).toEqual([]);
  });
  it('keeps an existing placeholder; a new endpoint fills the fullest unchanged slice that fits', () => {
    const placeholder = named(reconcileEndpointSlices(svc, [], [], 100).create[0]!, 'web-empty');
    expect(reconcileEndpointSlices(svc, [], [placeholder], 100)).toEqual({ create: [], update: [], delete: [] });
    const a = named(reconcileEndpointSlices(svc, [pod(1)], [], 3).create[0]!, 'web-aaaaa');
    const b = named(reconcileEndpointSlices(svc, [pod(2), pod(3)], [], 3).create[0]!, 'web-bbbbb');
    const c = reconcileEndpointSlices(svc, [pod(1), pod(2), pod(3), pod(4)], [a, b], 3);
    expect(c.create).toEqual([]);
    expect(c.update.map((s) => `${s.metadata.name}:${s.endpoints.length}`)).toEqual(['web-bbbbb:3']);
  });
});
