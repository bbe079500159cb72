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
    // the pods are all related (one ReplicaSet under a Deployment, say): n3 holds two of them
    expect(rankPodsForDeletion(pods, pods).map((p) => p.metadata.name)).toEqual(
      ['unassigned', 'pending', 'unknown', 'not-ready', 'doubled-b', 'doubled-a', 'ready-new', 'ready-old']);
  });

  // getPodsRankedByRelatedPodsOnSameNode: the rank counts the active related pods on the node
  it('ranks by the related pods, active ones only, and not at all when there are none (a ReplicaSet without a controller)', () => {
    const alone = pod('alone', { node: 'n1', ready: '2026-01-01T00:00:01Z' });
    const paired = pod('paired', { node: 'n2', ready: '2026-01-01T00:00:01Z', created: '2025-12-31T00:00:00Z' });
    const sibling = pod('old-revision', { node: 'n2', owner: 'other-rs' });
    const gone = { ...pod('gone', { node: 'n1' }), metadata: { ...pod('gone', { node: 'n1' }).metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    const names = (ranked: Pod[]) => ranked.map((p) => p.metadata.name);
    // no related pods: equal ranks, so the newer creation goes first
    expect(names(rankPodsForDeletion([alone, paired], []))).toEqual(['alone', 'paired']);
    // a sibling ReplicaSet's pod on n2 doubles paired up; a terminating pod on n1 does not count
    expect(names(rankPodsForDeletion([alone, paired], [alone, paired, sibling, gone]))).toEqual(['paired', 'alone']);
  });
});

describe('reconcileReplicaSet', () => {
  it.each([
    { name: 'creates the missing pods', pods: [pod('a', { node: 'n' })], want: { podsToCreate: 1, podsToDelete: [] } },
    { name: 'ignores pods another controller owns', pods: [pod('a', { owner: 'other' })], want: { podsToCreate: 2, podsToDelete: [] } },
    { name: 'deletes the most deletable extra pod', pods: [pod('a', { node: 'n' }), pod('b', { node: 'm' }), pod('c', { phase: 'Pending' })], want: { podsToCreate: 0, podsToDelete: ['c'] } },
    { name: 'nothing to do at the desired count', pods: [pod('a'), pod('b')], want: { podsToCreate: 0, podsToDelete: [] } },
  ])('$name', ({ pods, want }) => {
    expect(reconcileReplicaSet(rs, pods, { burstReplicas: 500, relatedPods: pods })).toEqual(want);
  });
  it('caps creations at burstReplicas', () => {
    expect(reconcileReplicaSet({ ...rs, spec: { ...rs.spec, replicas: 1000 } }, [], { burstReplicas: 500, relatedPods: [] }).podsToCreate).toBe(500);
  });
});
