// Visible examples for the replicaset-reconcile lab: read them, run them, add your own.
// `npm run grade -- replicaset-reconcile --examples`
import { describe, expect, it } from 'vitest';
import type { Pod, ReplicaSet } from '../../runtime/api/index.ts';
import { reconcileReplicaSet } from '@lab/submission';

// A ReplicaSet of the Deployment web (its controller), as `kubectl apply` of a Deployment makes.
const rs: ReplicaSet = {
  metadata: {
    name: 'web',
    namespace: 'default',
    uid: 'rs-1',
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'deploy-1', controller: true }],
  },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } } },
};

// What the controller passes besides the pods: its burst, and the pods of every ReplicaSet of the
// same Deployment (here the pods themselves, all labelled app=web).
const context = (relatedPods: Pod[]) => ({ burstReplicas: 500, relatedPods });

function pod(name: string, extra: { node?: string; ready?: boolean; owner?: string } = {}): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      labels: { app: 'web' },
      creationTimestamp: '2026-01-01T00:00:00Z',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: extra.owner ?? 'rs-1', controller: true }],
    },
    spec: { containers: [{ name: 'app' }], ...(extra.node ? { nodeName: extra.node } : {}) },
    status: {
      phase: extra.node ? 'Running' : 'Pending',
      conditions: [{ type: 'Ready', status: extra.ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:01:00Z' }],
    },
  };
}

describe('examples', () => {
  it('creates the pods that are missing', () => {
    const pods = [pod('web-a', { node: 'node-1', ready: true })];
    expect(reconcileReplicaSet(rs, pods, context(pods))).toEqual({ podsToCreate: 2, podsToDelete: [] });
  });

  it('does nothing when the count is right', () => {
    const pods = ['a', 'b', 'c'].map((n) => pod(`web-${n}`, { node: 'node-1', ready: true }));
    expect(reconcileReplicaSet(rs, pods, context(pods))).toEqual({ podsToCreate: 0, podsToDelete: [] });
  });

  it('ignores pods another ReplicaSet controls', () => {
    const pods = [pod('web-a', { node: 'node-1', ready: true }), pod('other', { node: 'node-1', owner: 'rs-2' })];
    expect(reconcileReplicaSet(rs, pods, context(pods)).podsToCreate).toBe(2);
  });

  it('deletes an unscheduled pod before a running one', () => {
    const pods = [
      pod('web-a', { node: 'node-1', ready: true }),
      pod('web-b', { node: 'node-2', ready: true }),
      pod('web-c', { node: 'node-3', ready: true }),
      pod('web-pending'),
    ];
    expect(reconcileReplicaSet(rs, pods, context(pods))).toEqual({ podsToCreate: 0, podsToDelete: ['web-pending'] });
  });

  it('deletes from the node running more related pods, an older ReplicaSet\'s included', () => {
    const pods = ['a', 'b', 'c', 'd'].map((n, i) => pod(`web-${n}`, { node: `node-${i + 1}`, ready: true }));
    // a pod of the Deployment's previous ReplicaSet still runs on node-3
    const related = [...pods, pod('web-old', { node: 'node-3', ready: true, owner: 'rs-0' })];
    expect(reconcileReplicaSet(rs, pods, context(related))).toEqual({ podsToCreate: 0, podsToDelete: ['web-c'] });
  });
});
