// The ReplicaSet controller's related pods (replica_set.go getIndirectlyRelatedPods), on a whole
// cluster: when a Deployment's rollout scales its old ReplicaSet down, the "doubled up" rank counts
// the pods of every ReplicaSet of the Deployment (listed by each one's selector); a ReplicaSet with
// no controller gets none (getReplicaSetsWithSameController returns nil), so no pod ranks as doubled up.
import { describe, expect, it } from 'vitest';
import { reconcileReplicaSet, type ReplicaSetReconciler } from '../controllers/index.ts';
import { createCluster } from './index.ts';

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 3
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: nginx, image: 'nginx:1.27' }] }
`;

const bareReplicaSet = `apiVersion: apps/v1
kind: ReplicaSet
metadata: { name: solo }
spec:
  replicas: 3
  selector: { matchLabels: { app: solo } }
  template:
    metadata: { labels: { app: solo } }
    spec: { containers: [{ name: nginx, image: 'nginx:1.27' }] }
`;

interface Seen {
  rs: string;
  hash: string;
  own: number;
  /** The related pods' pod-template-hash labels, sorted. */
  relatedHashes: string[];
}

describe('the ReplicaSet controller passes the related pods to its reconciler', { timeout: 120_000 }, () => {
  it('every ReplicaSet of the Deployment during a rollout; none for a ReplicaSet without a controller', async () => {
    const seen: Seen[] = [];
    const spy: ReplicaSetReconciler = (rs, pods, context) => {
      if (pods.length > (rs.spec.replicas ?? 1)) {
        seen.push({
          rs: rs.metadata.name ?? '',
          hash: rs.metadata.labels?.['pod-template-hash'] ?? '',
          own: pods.length,
          relatedHashes: context.relatedPods.map((p) => p.metadata.labels?.['pod-template-hash'] ?? '(none)').sort(),
        });
      }
      return reconcileReplicaSet(rs, pods, context);
    };
    const cluster = createCluster({ seed: 7, topology: 'single-node', workers: 2, plugins: { replicaSetReconciler: spy } });
    await cluster.kubectl('apply -f -', { stdin: deployment });
    await cluster.kubectl('apply -f -', { stdin: bareReplicaSet });
    await cluster.advance(30_000);
    await cluster.kubectl('set image deployment/web nginx=nginx:1.28');
    await cluster.kubectl('scale replicaset solo --replicas=1');
    await cluster.advance(60_000);

    const old = seen.filter((s) => s.rs.startsWith('web-'));
    expect(old.length, 'the rollout scaled the old ReplicaSet down').toBeGreaterThan(0);
    // the old ReplicaSet's scale-downs see the new ReplicaSet's pods too
    expect(old.some((s) => s.relatedHashes.some((h) => h !== s.hash) && s.relatedHashes.includes(s.hash))).toBe(true);
    const solo = seen.filter((s) => s.rs === 'solo');
    expect(solo).toEqual([{ rs: 'solo', hash: '', own: 3, relatedHashes: [] }]);
  });
});
