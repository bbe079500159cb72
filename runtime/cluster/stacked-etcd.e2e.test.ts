// kubeadm's stacked etcd: each kube-apiserver talks only to its own machine's etcd member
// (--etcd-servers=https://127.0.0.1:2379). When that member stops, its API server cannot read or
// write anything: its readyz fails, the load balancer sends new connections elsewhere, the other API
// servers drop its address from the kubernetes Service once its lease runs out, and a kubelet whose
// connection was pinned to it fails two heartbeats in a row and closes its connections, so it
// reaches a healthy replica and sees its new pods. The cluster keeps working on the two others.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/index.ts';
import { createCluster } from './index.ts';

const apiServerAddresses = async (cluster: ReturnType<typeof createCluster>): Promise<string> =>
  (await cluster.kubectl('get endpointslices -n default -l kubernetes.io/service-name=kubernetes -o jsonpath={.items[0].endpoints[*].addresses[0]}')).stdout;

describe('stacked etcd: an API server uses only its own machine\'s member', () => {
  it('an etcd member stops: its API server leaves the rotation and the Service, kubelets pinned to it reconnect, new pods run', async () => {
    const cluster = createCluster({ seed: 5, topology: 'ha', workers: 3 });
    await cluster.kubectl('create deployment web --image=nginx:1.27 --replicas=3');
    await cluster.advance(30_000);
    expect(await apiServerAddresses(cluster)).toBe('192.168.49.2 192.168.49.3 192.168.49.4');
    // the kubelets whose connection the balancer pinned to kube-apiserver-cp-1 (seed 5 has some)
    const pinned = cluster.internals.controlPlane.loadBalancer!.pinnedClients('kube-apiserver-cp-1')
      .map((client) => /^kubelet-(.+)-client$/.exec(client)?.[1]).filter((node) => node !== undefined);
    expect(pinned.length).toBeGreaterThan(0);
    // each kubectl run closed its connection as it exited (the last close still in flight): the balancer holds at most that one
    const lb = cluster.internals.controlPlane.loadBalancer!;
    const kubectlPins = (): string[] => ['kube-apiserver-cp-1', 'kube-apiserver-cp-2', 'kube-apiserver-cp-3'].flatMap((b) => lb.pinnedClients(b)).filter((c) => c === 'kubectl');
    expect(kubectlPins().length).toBeLessThanOrEqual(1);

    await cluster.faults.stopComponent('etcd-cp-1');
    const stoppedAt = cluster.now();
    await cluster.advance(20_000);
    // its lease (15 s) ran out, so the others' endpoint reconciler removed cp-1's address
    expect(await apiServerAddresses(cluster)).toBe('192.168.49.3 192.168.49.4');
    const scaled = await cluster.kubectl('scale deployment web --replicas=9');
    expect(scaled.stdout).toBe('deployment.apps/web scaled\n');

    let allRunningMs: number | undefined;
    for (let i = 0; i < 120 && allRunningMs === undefined; i++) {
      await cluster.advance(1_000);
      const pods = (JSON.parse((await cluster.kubectl('get pods -l app=web -o json')).stdout) as { items: Pod[] }).items;
      if (pods.length === 9 && pods.every((p) => p.status?.phase === 'Running')) allRunningMs = cluster.now() - stoppedAt;
    }
    expect(allRunningMs).toBeDefined();
    expect(allRunningMs!).toBeLessThanOrEqual(40_000);
    const reconnects = cluster.trace().filter((e) => e.kind === 'kubelet.heartbeat-failure');
    for (const node of pinned) expect(reconnects.map((e) => e.detail)).toContain(`${node}: failed to update lease, closing all connections`);
    expect(reconnects.every((e) => e.timeMs > stoppedAt)).toBe(true);

    await cluster.faults.startComponent('etcd-cp-1');
    await cluster.advance(20_000);
    expect(await apiServerAddresses(cluster)).toBe('192.168.49.2 192.168.49.3 192.168.49.4');
    // after every kubectl run of this test, and a moment for the last one's close to arrive: none is left
    await cluster.advance(100);
    expect(kubectlPins()).toEqual([]);
  });
});
