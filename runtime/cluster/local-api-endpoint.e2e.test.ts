// kubeadm points kube-scheduler's and kube-controller-manager's kubeconfigs at their own machine's
// API server (LocalAPIEndpoint, kubernetes#94398), not the load balancer. So when the API server
// under the scheduler's leader stops, that leader cannot renew its Lease: it gives up after the
// renew deadline (10 s), another replica takes the Lease once it expires (15 s), and Pending pods
// wait until then. Through the load balancer, they would not have waited at all.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/index.ts';
import { createCluster } from './index.ts';

describe('control-plane components talk to their local API server', () => {
  it('an API server stopping under the scheduler leader delays scheduling until another replica leads', async () => {
    const cluster = createCluster({ seed: 3, topology: 'ha', workers: 2 });
    await cluster.kubectl('create deployment web --image=nginx:1.27 --replicas=2');
    await cluster.advance(20_000);
    const lease = async (): Promise<string> =>
      (JSON.parse((await cluster.kubectl('get lease kube-scheduler -n kube-system -o json')).stdout) as { spec: { holderIdentity: string } }).spec.holderIdentity;
    const before = await lease();
    // the identity is the machine's hostname and a UUID (options.go: os.Hostname() + "_" + uuid)
    const leaderMachine = /^(cp-\d+)_[0-9a-f-]{36}$/.exec(before)![1]!;
    await cluster.faults.stopComponent(`kube-apiserver-${leaderMachine}`);
    await cluster.kubectl('scale deploy web --replicas=4');
    const start = cluster.now();
    let waitedMs: number | undefined;
    for (let i = 0; i < 60 && waitedMs === undefined; i++) {
      await cluster.advance(1_000);
      const pods = (JSON.parse((await cluster.kubectl('get pods -l app=web -o json')).stdout) as { items: Pod[] }).items;
      if (pods.length === 4 && pods.every((p) => p.spec.nodeName)) waitedMs = cluster.now() - start;
    }
    expect(waitedMs).toBeDefined();
    // not before the old lease expired (15 s), and soon after a new leader took it
    expect(waitedMs!).toBeGreaterThanOrEqual(10_000);
    expect(waitedMs!).toBeLessThanOrEqual(30_000);
    const after = await lease();
    expect(after).not.toBe(before);
    expect(after.startsWith(`${leaderMachine}_`)).toBe(false);
  });
});
