// The node lifecycle controller end to end on createCluster (its own controller manager turned off,
// so this controller is the only one): the kubelets renew their Leases in kube-node-lease; when a
// machine stops, its node goes Unknown after the 50 s grace period, gets the unreachable taints,
// and its pod is deleted once the 300 s DefaultTolerationSeconds run out.
import { describe, expect, it } from 'vitest';
import type { CoreEvent, Node, Pod } from '../../api/index.ts';
import { createCluster, type Cluster } from '../../cluster/index.ts';
import { startNodeLifecycleController } from './start.ts';

const KCM = { clientCert: { commonName: 'system:kube-controller-manager' } };

async function node(cluster: Cluster, name: string): Promise<Node> {
  return JSON.parse((await cluster.kubectl(`get node ${name} -o json`)).stdout) as Node;
}

async function events(cluster: Cluster, reason: string): Promise<CoreEvent[]> {
  const r = await cluster.kubectl(`get events -A -o json --field-selector reason=${reason}`);
  return (JSON.parse(r.stdout) as { items: CoreEvent[] }).items;
}

/**
 * A cluster whose only node lifecycle controller is one started here (logs collected), with a pod
 * `web` bound to worker-2; `prepare` runs before the pod and the controller.
 */
async function withOwnController(seed: number, prepare?: (cluster: Cluster) => Promise<void>): Promise<{ cluster: Cluster; logs: string[] }> {
  const cluster = createCluster({ seed, workers: 2, components: { controllerManager: false } });
  const { kernel, restClient } = cluster.internals;
  const sa = 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: node-controller\n  namespace: kube-system\n';
  expect(await cluster.kubectl('apply -f -', { stdin: sa })).toMatchObject({ exitCode: 0, stderr: '' });
  // what the (absent) controller manager's root CA publisher would put there: the pod's
  // kube-api-access volume cannot be mounted without it
  expect((await cluster.kubectl('create configmap kube-root-ca.crt --from-literal=ca.crt=stand-in')).exitCode).toBe(0);
  await prepare?.(cluster);
  const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  nodeName: worker-2\n  containers:\n  - name: app\n    image: nginx\n';
  expect((await cluster.kubectl('apply -f -', { stdin: pod })).exitCode).toBe(0);
  const logs: string[] = [];
  startNodeLifecycleController(kernel, {
    name: 'node-lifecycle-controller',
    restClient: restClient('kcm-informers', { credentials: KCM }),
    controllerClient: restClient('node-controller', { credentials: { token: 'sa-token:kube-system:node-controller' } }),
    onLog: (l) => logs.push(l),
  });
  return { cluster, logs };
}

describe('node lifecycle controller', () => {
  it('a node whose Lease stops goes Unknown, is tainted, and its pods are evicted after 300 s', { timeout: 180_000 }, async () => {
    const { cluster, logs } = await withOwnController(3);
    await cluster.advance(60_000);
    const names = JSON.parse((await cluster.kubectl('get nodes -o json')).stdout) as { items: Node[] };
    for (const n of names.items) {
      expect(n.status?.conditions?.find((c) => c.type === 'Ready')?.status, n.metadata.name).toBe('True');
    }

    await cluster.faults.stopNode('worker-2');
    const stopMs = cluster.now();
    await cluster.advance(45_000); // within the 50 s grace period (after the last renewal)
    expect((await node(cluster, 'worker-2')).status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    await cluster.advance(25_000);
    const silent = await node(cluster, 'worker-2');
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      expect(silent.status?.conditions?.find((c) => c.type === type)).toMatchObject({
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      });
    }
    expect(silent.spec?.taints?.map((t) => `${t.key}:${t.effect}`).sort()).toEqual([
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule',
    ]);
    expect(silent.spec?.taints?.find((t) => t.effect === 'NoExecute')?.timeAdded).toBeDefined();
    expect((await node(cluster, 'worker-1')).spec?.taints).toBeUndefined();
    // one event on the node, and MarkPodsNotReady's on the pod
    expect((await events(cluster, 'NodeNotReady')).map((e) => `${e.involvedObject.kind}: ${e.message}`).sort()).toEqual(['Node: Node worker-2 status is now: NodeNotReady', 'Pod: Node is not ready']);
    expect((JSON.parse((await cluster.kubectl('get pod web -o json')).stdout) as Pod).status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    const taintedMs = cluster.now() - stopMs;
    expect(taintedMs).toBeLessThan(80_000);

    // the pod tolerates unreachable:NoExecute for 300 s (DefaultTolerationSeconds)
    await cluster.advance(280_000);
    expect((await cluster.kubectl('get pod web -o name')).stdout).toBe('pod/web\n');
    await cluster.advance(30_000);
    // deleted gracefully: with no kubelet to confirm, it stays Terminating, as on a real dead node
    const evicted = JSON.parse((await cluster.kubectl('get pod web -o json')).stdout) as Pod;
    expect(evicted.metadata.deletionTimestamp).toBeDefined();
    expect(evicted.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    });
    expect((await events(cluster, 'TaintManagerEviction')).map((e) => e.message)).toEqual(['Marking for deletion Pod default/web']);
    // the first pass finds the (only, unlabelled) zone healthy, as upstream logs it; nothing else
    expect(logs).toEqual(['Controller detected that zone is now in new state zone="" newState="Normal"']);

    // the machine comes back, its kubelet posts Ready: the taints go away
    await cluster.faults.startNode('worker-2');
    await cluster.advance(30_000);
    expect((await node(cluster, 'worker-2')).status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect((await node(cluster, 'worker-2')).spec?.taints ?? []).toEqual([]);
  });

  it('master disruption mode: when every node goes silent no node is tainted NoExecute and no pod is evicted; one node back resumes it', { timeout: 180_000 }, async () => {
    // the control-plane node keeps running: leave it out of the zone's health (labelNodeDisruptionExclusion)
    let controlPlane = '';
    const { cluster, logs } = await withOwnController(5, async (c) => {
      controlPlane = (await c.kubectl('get nodes -o name')).stdout.trim().split('\n').find((n) => !n.startsWith('node/worker-'))!;
      expect((await c.kubectl(`label ${controlPlane} node.kubernetes.io/exclude-disruption=`)).exitCode).toBe(0);
    });
    await cluster.advance(30_000);
    // RecordNodeEvent for every node the controller sees for the first time
    expect((await events(cluster, 'RegisteredNode')).map((e) => e.message).sort()).toEqual(
      [controlPlane.slice('node/'.length), 'worker-1', 'worker-2'].map((n) => `Node ${n} event: Registered Node ${n} in Controller`).sort(),
    );

    await cluster.faults.stopNode('worker-1');
    await cluster.faults.stopNode('worker-2');
    await cluster.advance(75_000);
    const taints = async (name: string): Promise<string[]> => ((await node(cluster, name)).spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();
    for (const name of ['worker-1', 'worker-2']) {
      expect((await node(cluster, name)).status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('Unknown');
      expect(await taints(name)).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    }
    expect(logs).toContain('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
    await cluster.advance(400_000); // well past the pod's 300 s toleration
    expect((JSON.parse((await cluster.kubectl('get pod web -o json')).stdout) as Pod).metadata.deletionTimestamp).toBeUndefined();
    expect(await events(cluster, 'TaintManagerEviction')).toEqual([]);

    // one node back: the zone is no longer fully disrupted; the silent one gets its NoExecute taint
    await cluster.faults.startNode('worker-1');
    await cluster.advance(30_000);
    expect(logs).toContain('Controller detected that some Nodes are Ready. Exiting master disruption mode');
    expect(await taints('worker-1')).toEqual([]);
    expect(await taints('worker-2')).toEqual(['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);
    await cluster.advance(310_000);
    expect((JSON.parse((await cluster.kubectl('get pod web -o json')).stdout) as Pod).metadata.deletionTimestamp).toBeDefined();
  });

  it('MarkPodsNotReady: the pods of a stopped node turn not ready after the grace period, and their endpoints with them', { timeout: 120_000 }, async () => {
    const cluster = createCluster({ seed: 4, workers: 2 });
    const web = (node: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-${node}\n  labels:\n    app: web\nspec:\n  nodeName: ${node}\n  containers:\n  - name: app\n    image: nginx\n`;
    const svc = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n';
    for (const doc of [web('worker-1'), web('worker-2'), svc]) expect((await cluster.kubectl('apply -f -', { stdin: doc })).exitCode).toBe(0);
    await cluster.advance(15_000);
    const endpoints = async (): Promise<Record<string, boolean | undefined>> => {
      const slices = JSON.parse((await cluster.kubectl('get endpointslices -l kubernetes.io/service-name=web -o json')).stdout) as
        { items: { endpoints?: { targetRef?: { name: string }; conditions?: { ready?: boolean } }[] }[] };
      return Object.fromEntries(slices.items.flatMap((s) => s.endpoints ?? []).map((e) => [e.targetRef?.name ?? '', e.conditions?.ready]));
    };
    const ready = async (pod: string): Promise<string | undefined> =>
      (JSON.parse((await cluster.kubectl(`get pod ${pod} -o json`)).stdout) as Pod).status?.conditions?.find((c) => c.type === 'Ready')?.status;
    expect(await endpoints()).toEqual({ 'web-worker-1': true, 'web-worker-2': true });

    await cluster.faults.stopNode('worker-2');
    await cluster.advance(40_000); // inside the 50 s grace period: nothing changes yet
    expect(await ready('web-worker-2')).toBe('True');
    await cluster.advance(30_000);
    expect(await ready('web-worker-2')).toBe('False');
    expect(await ready('web-worker-1')).toBe('True');
    expect(await endpoints()).toEqual({ 'web-worker-1': true, 'web-worker-2': false });
    // (every pod on worker-2 gets one, the kube-system DaemonSet pods too; these are ours)
    const evs = (await events(cluster, 'NodeNotReady')).filter((e) => e.involvedObject.kind === 'Pod' && e.involvedObject.name?.startsWith('web-'));
    expect(evs.map((e) => `${e.type} ${e.involvedObject.name}: ${e.message}`)).toEqual(['Warning web-worker-2: Node is not ready']);
  });
});
