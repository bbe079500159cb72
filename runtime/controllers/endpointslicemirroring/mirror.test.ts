// The mirroring decision, after pkg/controller/endpointslicemirroring/reconciler_test.go's cases.
import { describe, expect, it } from 'vitest';
import type { EndpointSlice, Endpoints } from '../../api/index.ts';
import { desiredSlices, reconcileMirrored, shouldMirror } from './mirror.ts';

const ep = (o: Partial<Endpoints> = {}, meta: Partial<Endpoints['metadata']> = {}): Endpoints => ({
  metadata: { name: 'db', namespace: 'default', uid: 'u1', labels: { app: 'db' }, ...meta },
  subsets: [{ addresses: [{ ip: '10.1.2.3' }], notReadyAddresses: [{ ip: '10.1.2.4', hostname: 'db-1' }], ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] }],
  ...o,
});

describe('shouldMirror', () => {
  it.each([
    ['plain', ep(), true],
    ['skip-mirror', ep({}, { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } }), false],
    ['a leader-election lock', ep({}, { annotations: { 'control-plane.alpha.kubernetes.io/leader': '{}' } }), false],
    ['missing', undefined, false],
  ] as const)('%s: %s', (_, e, want) => {
    expect(shouldMirror(e)).toBe(want);
  });
});

describe('desiredSlices', () => {
  it('one slice per subset: ready and not-ready endpoints, the Service\'s labels, owned by the Endpoints', () => {
    const [slice, ...rest] = desiredSlices(ep({}, { annotations: { note: 'x', 'kubectl.kubernetes.io/last-applied-configuration': '{}' } }));
    expect(rest).toEqual([]);
    expect(slice).toEqual({
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
      metadata: {
        generateName: 'db-', namespace: 'default',
        labels: { app: 'db', 'kubernetes.io/service-name': 'db', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' },
        annotations: { note: 'x' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Endpoints', name: 'db', uid: 'u1', controller: true, blockOwnerDeletion: true }],
      },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.2.3'], conditions: { ready: true } }, { addresses: ['10.1.2.4'], conditions: { ready: false }, hostname: 'db-1' }],
      ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }],
    });
  });
});

describe('reconcileMirrored', () => {
  const existing = (over: Partial<EndpointSlice> = {}): EndpointSlice => ({ ...desiredSlices(ep())[0]!, metadata: { ...desiredSlices(ep())[0]!.metadata, name: 'db-abcde', resourceVersion: '7' }, ...over });
  it('creates what is missing, leaves an equal slice alone, rewrites a changed one, deletes the rest', () => {
    expect(reconcileMirrored(ep(), [])).toMatchObject({ create: [{ metadata: { generateName: 'db-' } }], update: [], delete: [] });
    expect(reconcileMirrored(ep(), [existing()])).toEqual({ create: [], update: [], delete: [] });
    const moved = reconcileMirrored(ep({ subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] }] }), [existing()]);
    expect(moved.update.map((s) => [s.metadata.name, s.endpoints.map((e) => e.addresses[0])])).toEqual([['db-abcde', ['10.9.9.9']]]);
    const other = existing({ ports: [{ name: 'x', port: 1, protocol: 'TCP' }] });
    expect(reconcileMirrored(ep(), [other])).toMatchObject({ create: [{}], delete: [{ metadata: { name: 'db-abcde' } }] });
  });
});
