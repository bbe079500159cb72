// A kubelet that restarts with its machine up takes over the containers still running in the
// container runtime; a machine that reboots has lost them, and its pods start new ones.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/index.ts';
import { createCluster, type Cluster } from '../cluster/index.ts';

async function boot() {
  const cluster = createCluster({ seed: 11, topology: 'managed', workers: [{ images: [{ names: ['nginx:1.27'], sizeBytes: 72_000_000 }] }] });
  const node = cluster.internals.plan.machines.find((m) => m.visible)!.name;
  await cluster.advance(2000);
  const pod = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  nodeName: ${node}\n  containers:\n  - name: app\n    image: nginx:1.27\n`;
  expect((await cluster.kubectl('apply -f -', { stdin: pod })).exitCode).toBe(0);
  await cluster.advance(5000);
  return { cluster, node };
}

const web = async (cluster: Cluster): Promise<Pod> => JSON.parse((await cluster.kubectl('get pod web -o json')).stdout) as Pod;
/** The containers of pod web in the node's runtime, running or not. */
const containersOf = (cluster: Cluster, node: string, pod: Pod) => {
  const cri = cluster.internals.components.runtimes.get(node)!;
  const sandboxes = cri.listPodSandboxes().filter((s) => s.podUid === pod.metadata.uid).map((s) => s.id);
  return cri.listContainers().filter((c) => sandboxes.includes(c.sandboxId)).map((c) => `${c.id}:${c.state}`);
};

describe('kubelet restart', { timeout: 60_000 }, () => {
  it('with the machine up: the same containers keep running, nothing restarts, the pod keeps its IP', async () => {
    const { cluster, node } = await boot();
    const before = await web(cluster);
    const id = before.status?.containerStatuses?.[0]?.containerID ?? '';
    expect(containersOf(cluster, node, before)).toEqual([`${id.replace('containerd://', '')}:running`]);
    await cluster.faults.stopComponent(`kubelet-${node}`);
    await cluster.advance(5000);
    await cluster.faults.startComponent(`kubelet-${node}`);
    await cluster.advance(10_000);
    const after = await web(cluster);
    expect(containersOf(cluster, node, after)).toEqual(containersOf(cluster, node, before));
    expect(after.status?.containerStatuses?.[0]).toMatchObject({ containerID: id, restartCount: 0, ready: true, state: { running: before.status?.containerStatuses?.[0]?.state?.running } });
    expect(after.status).toMatchObject({ phase: 'Running', podIP: before.status?.podIP, startTime: before.status?.startTime });
    expect(cluster.trace().some((e) => e.kind === 'kubelet.adopted' && e.detail.startsWith('web_default('))).toBe(true);
  });

  it('a rebooted machine: a new sandbox and container, counted as a restart', async () => {
    const { cluster, node } = await boot();
    const before = await web(cluster);
    await cluster.faults.stopNode(node);
    await cluster.advance(5000);
    await cluster.faults.startNode(node);
    await cluster.advance(20_000);
    const after = await web(cluster);
    const cs = after.status?.containerStatuses?.[0];
    expect(cs).toMatchObject({ restartCount: 1, ready: true, state: { running: {} } });
    expect(cs?.containerID).not.toBe(before.status?.containerStatuses?.[0]?.containerID);
    expect(containersOf(cluster, node, after)).toEqual([`${(cs?.containerID ?? '').replace('containerd://', '')}:running`]);
  });
});
