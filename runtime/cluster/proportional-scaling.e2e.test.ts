// Proportional scaling, the Deployment docs' example on a whole cluster: 10 replicas, maxSurge 3,
// maxUnavailable 2, a rollout stuck on an image that cannot be pulled, then `kubectl scale` to 15:
// the 5 new replicas are shared 3 to the old ReplicaSet, 2 to the new one (sync.go scale).
import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from '../api/index.ts';
import { createCluster } from './index.ts';

const manifest = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 10
  strategy: { rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } }
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: nginx, image: 'nginx:1.27' }] }
`;

describe('proportional scaling during a rollout', { timeout: 120_000 }, () => {
  it('shares added replicas among the ReplicaSets by size, as the docs show', async () => {
    const cluster = createCluster({ seed: 11, topology: 'single-node', workers: 3 });
    await cluster.kubectl('apply -f -', { stdin: manifest });
    await cluster.advance(30_000);
    await cluster.kubectl('set image deployment/web nginx=nginx:sometag');
    await cluster.advance(30_000);
    const sizes = async (): Promise<Record<string, number>> => {
      const items = (JSON.parse((await cluster.kubectl('get rs -o json')).stdout) as { items: ReplicaSet[] }).items;
      return Object.fromEntries(items.map((rs) => [rs.spec.template?.spec?.containers[0]?.image ?? '', rs.spec.replicas ?? 0]));
    };
    // stuck: 8 old (10 - maxUnavailable), 5 new (10 + maxSurge - 8), none of the new ones available
    expect(await sizes()).toEqual({ 'nginx:1.27': 8, 'nginx:sometag': 5 });

    expect((await cluster.kubectl('scale deployment/web --replicas=15')).stdout).toBe('deployment.apps/web scaled\n');
    await cluster.advance(10_000);
    expect(await sizes()).toEqual({ 'nginx:1.27': 11, 'nginx:sometag': 7 });

    const events = (await cluster.kubectl('get events --field-selector involvedObject.kind=Deployment -o json')).stdout;
    const messages = (JSON.parse(events) as { items: { message: string }[] }).items.map((e) => e.message.replace(/web-[a-z0-9]+/, 'web-X'));
    expect(messages.filter((m) => / to (11|7) from /.test(m)).sort()).toEqual([
      'Scaled up replica set web-X to 11 from 8',
      'Scaled up replica set web-X to 7 from 5',
    ]);
  });
});
