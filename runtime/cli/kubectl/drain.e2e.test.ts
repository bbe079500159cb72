// kubectl drain on a whole simulated cluster: the eviction API, PodDisruptionBudgets, and the
// drain loop (retry every 5 s on 429, wait for each pod to go), with kubectl v1.33's texts.
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../api/index.ts';
import { createCluster, type Cluster } from '../../cluster/index.ts';

async function boot(replicas: number, pdb?: string): Promise<Cluster> {
  const cluster = createCluster({ seed: 1, topology: 'single-node', workers: 2 });
  await cluster.kubectl(`create deployment web --image=nginx:1.27 --replicas=${replicas}`);
  if (pdb) await cluster.kubectl('apply -f -', { stdin: pdb });
  await cluster.advance(30_000);
  return cluster;
}

const budget = (spec: string): string => `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  ${spec}
  selector: {matchLabels: {app: web}}
`;

const podsOn = async (cluster: Cluster, node: string): Promise<Pod[]> =>
  (JSON.parse((await cluster.kubectl(`get pods -A --field-selector spec.nodeName=${node} -o json`)).stdout) as { items: Pod[] }).items;
const webPods = async (cluster: Cluster, node: string): Promise<string[]> =>
  (await podsOn(cluster, node)).filter((p) => p.metadata.labels?.app === 'web').map((p) => p.metadata.name!);

describe('kubectl drain', () => {
  it('refuses DaemonSet pods without --ignore-daemonsets, naming them, and leaves the node cordoned', async () => {
    const cluster = await boot(2);
    const r = await cluster.kubectl('drain worker-1');
    const ds = (await podsOn(cluster, 'worker-1')).filter((p) => p.metadata.ownerReferences?.[0]?.kind === 'DaemonSet').map((p) => `kube-system/${p.metadata.name}`).sort();
    const cause = `cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ${ds.join(', ')}`;
    expect(r).toEqual({
      stdout: 'node/worker-1 cordoned\n',
      stderr: `error: unable to drain node "worker-1" due to error: ${cause}, continuing command...\nThere are pending nodes to be drained:\n worker-1\n${cause}\n`,
      exitCode: 1,
    });
    const node = JSON.parse((await cluster.kubectl('get node worker-1 -o json')).stdout) as Node;
    expect(node.spec?.unschedulable).toBe(true);
  });

  it('evicts every pod, waits until each is gone, and the Deployment replaces them elsewhere', async () => {
    const cluster = await boot(3);
    const before = await webPods(cluster, 'worker-1');
    expect(before.length).toBeGreaterThan(0);
    const r = await cluster.kubectl('drain worker-1 --ignore-daemonsets');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^Warning: ignoring DaemonSet-managed Pods: kube-system\/kindnet-\w+, kube-system\/kube-proxy-\w+\n$/);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('node/worker-1 cordoned');
    expect(lines.at(-1)).toBe('node/worker-1 drained');
    for (const name of before) {
      const evicting = lines.indexOf(`evicting pod default/${name}`);
      const evicted = lines.indexOf(`pod/${name} evicted`);
      expect(evicting).toBeGreaterThan(0);
      expect(evicted).toBeGreaterThan(evicting);
    }
    expect(await webPods(cluster, 'worker-1')).toEqual([]);
    await cluster.advance(20_000);
    expect((await cluster.kubectl('get deploy web')).stdout).toMatch(/web\s+3\/3\s+3\s+3/);
    expect((await cluster.kubectl('get nodes worker-1')).stdout).toMatch(/worker-1\s+Ready,SchedulingDisabled/);
  });

  it('--dry-run=client names the pods and changes nothing but prints the cordon as a dry run', async () => {
    const cluster = await boot(2);
    const before = await webPods(cluster, 'worker-1');
    const r = await cluster.kubectl('drain worker-1 --ignore-daemonsets --dry-run=client');
    expect(r.exitCode).toBe(0);
    for (const name of before) expect(r.stdout).toContain(`evicting pod default/${name} (dry run)\n`);
    expect(r.stdout.endsWith('node/worker-1 drained (dry run)\n')).toBe(true);
    expect(await webPods(cluster, 'worker-1')).toEqual(before);
  });

  it('a PodDisruptionBudget that allows no disruption keeps the pods: 429 retried every 5 s until --timeout', async () => {
    const cluster = await boot(3, budget('minAvailable: 3'));
    const blocked = (await webPods(cluster, 'worker-1')).sort();
    expect(blocked.length).toBeGreaterThan(0);
    const t0 = cluster.now();
    const r = await cluster.kubectl('drain worker-1 --ignore-daemonsets --timeout=20s');
    expect(r.exitCode).toBe(1);
    expect(cluster.now() - t0).toBeGreaterThanOrEqual(20_000);
    const retry = (name: string): string =>
      `error when evicting pods/"${name}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`;
    for (const name of blocked) {
      // attempts at 0, 5, 10, 15 s are refused; the one at 20 s meets the global timeout
      expect(r.stderr.split('\n').filter((l) => l === retry(name))).toHaveLength(4);
      expect(r.stdout.split('\n').filter((l) => l === `evicting pod default/${name}`)).toHaveLength(5);
    }
    const timedOut = blocked.map((name) => `error when evicting pods/"${name}" -n "default": global timeout reached: 20s`);
    const cause = timedOut.length === 1 ? timedOut[0]! : `[${timedOut.join(', ')}]`;
    expect(r.stderr).toContain(`There are pending pods in node "worker-1" when an error occurred: ${cause}\n${blocked.map((n) => `pod/${n}\n`).join('')}`);
    expect(r.stderr.endsWith(`error: unable to drain node "worker-1" due to error: ${cause}, continuing command...\nThere are pending nodes to be drained:\n worker-1\n${timedOut.join('\n')}\n`)).toBe(true);
    expect((await webPods(cluster, 'worker-1')).sort()).toEqual(blocked);
    expect((await cluster.kubectl('get pdb web')).stdout).toMatch(/web\s+3\s+N\/A\s+0\s+/);
  });

  it('a budget with room evicts one pod at a time, waiting for the replacement to be Ready', async () => {
    const cluster = await boot(3, budget('minAvailable: 2'));
    // 3 replicas on 2 workers: drain the one holding two of them
    const node = (await webPods(cluster, 'worker-1')).length >= 2 ? 'worker-1' : 'worker-2';
    const before = await webPods(cluster, node);
    expect(before.length).toBe(2);
    const r = await cluster.kubectl(`drain ${node} --ignore-daemonsets`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.endsWith(`node/${node} drained\n`)).toBe(true);
    // the second pod is refused once (the first eviction spent the budget), then goes
    expect(r.stderr.match(/\(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./g)?.length).toBeGreaterThanOrEqual(1);
    for (const name of before) expect(r.stdout).toContain(`pod/${name} evicted\n`);
    expect(await webPods(cluster, node)).toEqual([]);
  });

  it('a bad --timeout is a flag error (pflag parses DurationVar flags: usage hint included)', async () => {
    const cluster = await boot(1);
    expect(await cluster.kubectl('drain worker-1 --timeout=soon')).toEqual({
      stdout: '', stderr: 'error: invalid argument "soon" for "--timeout" flag: time: invalid duration "soon"\nSee \'kubectl drain --help\' for usage.\n', exitCode: 1,
    });
  });
});
