// kind's CNI (ClusterOptions.cniFromKindnet, on by default): a node is NotReady ("cni plugin not
// initialized") until the kindnet container has written /etc/cni/net.d/10-kindnet.conflist;
// hostNetwork pods (kube-proxy) run on it regardless. A worker that fits one pod (pods: 1) runs the
// kube-proxy DaemonSet's pod, created first, and kindnet's pod waits for room: the node stays
// NotReady until kube-proxy's DaemonSet is deleted. With the bootstrap off, the machine comes with
// the config written and is Ready at once.
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON printed by kubectl, probed field by field
type Json = Record<string, any>;

const NOT_READY = 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

async function json(cluster: Cluster, args: string): Promise<Json> {
  const r = await cluster.kubectl(`${args} -o json`);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Json;
}

async function ready(cluster: Cluster, node: string): Promise<Json> {
  return ((await json(cluster, `get node ${node}`)).status.conditions as Json[]).find((c) => c.type === 'Ready')!;
}

async function addonPods(cluster: Cluster, node: string): Promise<Record<string, string>> {
  const list = await json(cluster, 'get pods -n kube-system');
  const out: Record<string, string> = {};
  for (const p of list.items as Json[]) {
    const app = (p.metadata.labels?.['k8s-app'] ?? '') as string;
    if ((app === 'kube-proxy' || app === 'kindnet') && (p.spec.nodeName ?? node) === node) out[app] = p.status?.phase as string;
  }
  return out;
}

describe('kindnet writes the CNI config that makes a node Ready', { timeout: 120_000 }, () => {
  it('a node is NotReady with the runtime network message until the kindnet container runs', async () => {
    const cluster = createCluster({ seed: 3, topology: 'managed', workers: [{ pods: 1 }] });
    const { cniConfigs } = cluster.internals.components;
    expect(await addonPods(cluster, 'worker-1')).toEqual({ 'kube-proxy': 'Running', kindnet: 'Pending' });
    expect(await ready(cluster, 'worker-1')).toMatchObject({ status: 'False', reason: 'KubeletNotReady', message: NOT_READY });
    expect((await cluster.kubectl('get nodes')).stdout).toMatch(/\nworker-1 +NotReady +<none> /);
    expect(cniConfigs.files('worker-1')).toEqual([]);
    const notReadySince = (await ready(cluster, 'worker-1')).lastTransitionTime as string;

    expect((await cluster.kubectl('delete daemonset kube-proxy -n kube-system')).exitCode).toBe(0);
    const start = cluster.now();
    while ((await addonPods(cluster, 'worker-1')).kindnet !== 'Running') {
      if (cluster.now() - start > 60_000) throw new Error('kindnet did not run within 60 s');
      await cluster.advance(1000);
    }
    await cluster.advance(1000);
    expect(cniConfigs.files('worker-1')).toEqual(['10-kindnet.conflist']);
    expect(JSON.parse(cniConfigs.read('worker-1', '10-kindnet.conflist')!)).toMatchObject({ name: 'kindnet', plugins: [{ type: 'ptp', ipam: { type: 'host-local' } }, { type: 'portmap' }] });
    const now = await ready(cluster, 'worker-1');
    expect(now).toMatchObject({ status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' });
    expect(now.lastTransitionTime > notReadySince).toBe(true);
    expect(cluster.trace().some((e) => e.kind === 'kindnet.cni-config' && e.actor === 'kindnet-worker-1')).toBe(true);
  });

  it('with cniFromKindnet: false the machine comes with the config: Ready although kindnet\'s pod cannot run', async () => {
    const cluster = createCluster({ seed: 3, topology: 'managed', workers: [{ pods: 1 }], cniFromKindnet: false });
    expect(await addonPods(cluster, 'worker-1')).toEqual({ 'kube-proxy': 'Running', kindnet: 'Pending' });
    expect(await ready(cluster, 'worker-1')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(cluster.internals.components.cniConfigs.files('worker-1')).toEqual(['10-kindnet.conflist']);
  });
});
