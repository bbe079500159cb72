// kubectl wait on a live cluster: it returns when the controllers and the kubelet made the
// condition true, or at its timeout.
import { describe, expect, it } from 'vitest';
import { createCluster } from './index.ts';

describe('kubectl wait', () => {
  it('returns as soon as a Deployment is Available, and times out on a pod that cannot start', async () => {
    const cluster = createCluster({ seed: 11 });
    await cluster.kubectl('create deployment web --image=nginx:1.27 --replicas=2');
    const start = cluster.now();
    expect(await cluster.kubectl('wait --for=condition=Available deploy/web --timeout=2m')).toEqual({ stdout: 'deployment.apps/web condition met\n', stderr: '', exitCode: 0 });
    const tookMs = cluster.now() - start;
    expect(tookMs).toBeGreaterThan(0);
    expect(tookMs).toBeLessThan(30_000);
    expect((await cluster.kubectl('get deploy web -o jsonpath={.status.availableReplicas}')).stdout).toBe('2');
    await cluster.kubectl('run bad --image=nginx:no-such-tag');
    const before = cluster.now();
    const waited = await cluster.kubectl('wait --for=condition=Ready pod/bad --timeout=10s');
    expect(waited).toEqual({ stdout: '', stderr: 'error: timed out waiting for the condition on pods/bad\n', exitCode: 1 });
    expect(cluster.now() - before).toBeGreaterThanOrEqual(10_000);
  });
});
