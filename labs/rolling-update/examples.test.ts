// Visible examples for the rolling-update lab: read them, run them, add your own.
// `npm run grade -- rolling-update --examples`
import { describe, expect, it } from 'vitest';
import type { Deployment, IntOrString, ReplicaSet } from '../../runtime/api/index.ts';
import { maxUnavailable, newRSNewReplicas, reconcileNewReplicaSet, reconcileOldReplicaSets, resolveFenceposts } from '@lab/submission';

function deployment(replicas: number, maxSurge: IntOrString, maxUnavailable: IntOrString): Deployment {
  return {
    metadata: { name: 'web' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } },
    },
  };
}

function replicaSet(name: string, replicas: number, available: number, created: string): ReplicaSet {
  return {
    metadata: { name, creationTimestamp: created },
    spec: { replicas, selector: { matchLabels: { app: 'web' } } },
    status: { replicas, availableReplicas: available },
  };
}

describe('examples', () => {
  it('25% of 10: maxSurge 2.5 rounds up to 3, maxUnavailable 2.5 rounds down to 2', () => {
    expect(resolveFenceposts('25%', '25%', 10)).toEqual({ surge: 3, unavailable: 2 });
  });

  it('both rounding to zero: one Pod may be unavailable, so the rollout can move', () => {
    expect(resolveFenceposts(0, '25%', 3)).toEqual({ surge: 0, unavailable: 1 });
    expect(maxUnavailable(deployment(3, 0, '25%'))).toBe(1);
  });

  it('first sync of a rollout of 10: the new ReplicaSet takes the whole surge', () => {
    const d = deployment(10, '25%', '25%');
    const old = replicaSet('web-old', 10, 10, '2026-01-01T00:00:00Z');
    const fresh = replicaSet('web-new', 0, 0, '2026-01-02T00:00:00Z');
    expect(newRSNewReplicas(d, [old, fresh], fresh)).toBe(3);
    expect(reconcileNewReplicaSet(d, [old, fresh], fresh)).toBe(3);
  });

  it('second sync: the old ReplicaSet gives up the whole unavailability budget', () => {
    const d = deployment(10, '25%', '25%');
    const old = replicaSet('web-old', 10, 10, '2026-01-01T00:00:00Z');
    const fresh = replicaSet('web-new', 3, 0, '2026-01-02T00:00:00Z');
    expect(reconcileOldReplicaSets(d, [old], fresh)).toEqual([{ name: 'web-old', replicas: 8 }]);
  });
});
