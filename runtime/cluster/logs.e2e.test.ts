// kubectl logs end to end: kubectl -> API server (pods/log) -> the node's kubelet (/containerLogs)
// -> the container runtime's log, and every error on the way with the text a real cluster prints.
import { describe, expect, it } from 'vitest';
import { createCluster } from './index.ts';

describe('kubectl logs', () => {
  it("reads a container's log through the API server and its node's kubelet", async () => {
    const cluster = createCluster({ seed: 4 });
    expect((await cluster.kubectl('run web --image=nginx:1.27')).exitCode).toBe(0);
    // the kubelet knows the pod but its container is not running yet
    const early = await cluster.kubectl('logs web');
    expect(early).toMatchObject({ stdout: '', exitCode: 1 });
    expect(early.stderr).toMatch(/^Error from server \(BadRequest\): container "web" in pod "web" is waiting to start: (ContainerCreating|PodInitializing)\n$/);
    await cluster.advance(15_000);
    const all = await cluster.kubectl('logs web');
    expect(all.exitCode).toBe(0);
    const lines = all.stdout.split('\n');
    expect(lines[0]).toBe('/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration');
    expect(lines).toContain('/docker-entrypoint.sh: Configuration complete; ready for start up');
    const last = await cluster.kubectl('logs pod/web --tail=1 --timestamps');
    // the CRI's RFC3339Nano stamp, then nginx's own clock in its line, the same instant
    const m = /^2026-01-01T00:00:(\d\d)(?:\.\d+)?Z 2026\/01\/01 00:00:(\d\d) \[notice\] 1#1: start worker process 32\n$/.exec(last.stdout);
    expect(m).not.toBeNull();
    expect(m![1]).toBe(m![2]);
    expect((await cluster.kubectl('logs web --since=1s')).stdout).toBe('');
    expect((await cluster.kubectl('logs web -c nginx')).stderr).toBe('Error from server (BadRequest): container nginx is not valid for pod web\n');
    expect((await cluster.kubectl('logs web --tail=-2')).stderr).toBe('error: --tail must be greater than or equal to -1\n');
  });

  it("--previous reads the instance that crashed; a pod that never restarted has none", async () => {
    const cluster = createCluster({ seed: 5 });
    await cluster.kubectl('run crash --image=ghcr.io/inside-cp/crash-after:3s');
    await cluster.kubectl('run web --image=nginx:1.27');
    await cluster.advance(30_000);
    expect((await cluster.kubectl('get pod crash -o jsonpath={.status.containerStatuses[0].restartCount}')).stdout).not.toBe('0');
    expect((await cluster.kubectl('logs crash --previous')).stdout).toBe('starting\ncrashing after 3s on purpose\n');
    expect((await cluster.kubectl('logs web --previous')).stderr).toBe('Error from server (BadRequest): previous terminated container "web" in pod "web" not found\n');
  });

  it('reads a static control-plane pod and a workload through its first pod', async () => {
    const cluster = createCluster({ seed: 6 });
    const node = JSON.parse((await cluster.kubectl('get nodes -o json')).stdout).items[0].metadata.name as string;
    expect((await cluster.kubectl(`logs -n kube-system kube-apiserver-${node}`)).stdout).toBe('"Serving securely on [::]:6443"\n');
    await cluster.kubectl('create deployment api --image=redis:7.4 --replicas=2');
    await cluster.advance(20_000);
    const viaDeployment = await cluster.kubectl('logs deploy/api');
    expect(viaDeployment.stdout).toBe('* Ready to accept connections tcp\n');
    expect(viaDeployment.stderr).toMatch(/^Found 2 pods, using pod\/api-[a-z0-9]+-[a-z0-9]{5}\n$/);
  });
});

describe('kubectl logs when the kubelet cannot be reached', () => {
  it('a stopped kubelet refuses at once; a partitioned node times out the dial after 30 s', async () => {
    const cluster = createCluster({ seed: 9, workers: 1 });
    await cluster.kubectl('run web --image=nginx:1.27'); // the control-plane node is tainted: it lands on worker-1
    await cluster.advance(15_000);
    expect((await cluster.kubectl('logs web --tail=1')).exitCode).toBe(0);
    const ip = JSON.parse((await cluster.kubectl('get node worker-1 -o json')).stdout).status.addresses.find((a: { type: string }) => a.type === 'InternalIP').address as string;
    await cluster.faults.stopComponent('kubelet-worker-1');
    const refused = await cluster.kubectl('logs web');
    expect(refused.stderr).toBe(`Error from server: Get "https://${ip}:10250/containerLogs/default/web/web": dial tcp ${ip}:10250: connect: connection refused\n`);
    await cluster.faults.startComponent('kubelet-worker-1');
    await cluster.advance(5_000);
    const controlPlane = (JSON.parse((await cluster.kubectl('get nodes -o json')).stdout).items as { metadata: { name: string } }[]).map((n) => n.metadata.name).find((n) => n !== 'worker-1')!;
    await cluster.faults.partition([['worker-1'], [controlPlane]]);
    const start = cluster.now();
    const timedOut = await cluster.kubectl('logs web --tail=2');
    expect(timedOut.stderr).toBe(`Error from server: Get "https://${ip}:10250/containerLogs/default/web/web?tailLines=2": dial tcp ${ip}:10250: i/o timeout\n`);
    expect(cluster.now() - start).toBeGreaterThanOrEqual(30_000);
  });
});
