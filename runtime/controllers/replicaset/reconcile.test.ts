import { describe, expect, it } from 'vitest';
import type { Pod, ReplicaSet } from '../../api/index.ts';
import { rankPodsForDeletion, reconcileReplicaSet } from './reconcile.ts';

const rs: ReplicaSet = { metadata: { name: 'web', uid: 'rs-uid' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } } };
function pod(name: string, o: { node?: string; phase?: string; ready?: string; restarts?: number; created?: string; owner?: string } = {}): Pod {
  return {
    metadata: { name, labels: { app: 'web' }, creationTimestamp: o.created ?? '2026-01-01T00:00:00Z', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: o.owner ?? 'rs-uid', controller: true }] },
    spec: { containers: [], ...(o.node ? { nodeName: o.node } : {}) },
    status: {
      phase: (o.phase ?? 'Running') as Pod['status'] extends infer S ? S extends { phase?: infer P } ? P : never : never,
      conditions: o.ready ? [{ type: 'Ready', status: 'True', lastTransitionTime: o.ready }] : [],
      containerStatuses: [{ name: 'c', restartCount: o.restarts ?? 0 } as never],
    },
  } as Pod;
}

// mirrors controller_utils_test.go TestSortingActivePods: the order upstream deletes in
describe('rankPodsForDeletion (ActivePodsWithRanks.Less)', () => {
  it('unassigned, Pending, Unknown, not ready, doubled up, recently ready, restarting, newest', () => {
    const pods = [
      pod('ready-old', { node: 'n1', ready: '2026-01-01T00:00:01Z' }),
      pod('ready-new', { node: 'n2', ready: '2026-01-01T00:05:00Z' }),
      pod('doubled-a', { node: 'n3', ready: '2026-01-01T00:00:01Z' }),
      pod('doubled-b', { node: 'n3', ready: '2026-01-01T00:00:01Z', created: '2026-01-01T00:00:09Z' }),
      pod('not-ready', { node: 'n4' }),
      pod('unknown', { node: 'n5', phase: 'Unknown' }),
      pod('pending', { node: 'n6', phase: 'Pending' }),
      pod('unassigned', { phase: 'Pending' }),
    ];
    expect(rankPodsForDeletion(pods).map((p) => p.metadata.name)).toEqual(
      ['unassigned', 'pending', 'unknown', 'not-ready', 'doubled-b', 'doubled-a', 'ready-new', 'ready-old']);
  });
});

describe('reconcileReplicaSet', () => {
  it.each([
    { name: 'creates the missing pods', pods: [pod('a', { node: 'n' })], want: { podsToCreate: 1, podsToDelete: [] } },
    { name: 'ignores pods another controller owns', pods: [pod('a', { owner: 'other' })], want: { podsToCreate: 2, podsToDelete: [] } },
    { name: 'deletes the most deletable extra pod', pods: [pod('a', { node: 'n' }), pod('b', { node: 'm' }), pod('c', { phase: 'Pending' })], want: { podsToCreate: 0, podsToDelete: ['c'] } },
    { name: 'nothing to do at the desired count', pods: [pod('a'), pod('b')], want: { podsToCreate: 0, podsToDelete: [] } },
  ])('$name', ({ pods, want }) => {
    expect(reconcileReplicaSet(rs, pods, { burstReplicas: 500 })).toEqual(want);
  });
  it('caps creations at burstReplicas', () => {
    expect(reconcileReplicaSet({ ...rs, spec: { ...rs.spec, replicas: 1000 } }, [], { burstReplicas: 500 }).podsToCreate).toBe(500);
  });
});
