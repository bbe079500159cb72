// Preemption as upstream's DefaultPreemption decides it, end to end through cluster.kubectl(): on a
// node with a small and a big low-priority pod only the big one is preempted (the small one is
// reprieved), and between two nodes the one whose victim a PodDisruptionBudget protects is passed
// over even though its victim has the lower priority (fewest PDB violations is the first criterion).
import { describe, expect, it } from 'vitest';
import type { CoreEvent, List, Node, Pod } from '../api/index.ts';
import { createCluster, type Cluster } from './index.ts';
import { ok } from './kubectl-ok.test-helper.ts';

const json = async <T>(cluster: Cluster, args: string): Promise<T> => JSON.parse(await ok(cluster, `${args} -o json`)) as T;

async function until(cluster: Cluster, check: () => Promise<boolean>, budgetMs: number): Promise<void> {
  const start = cluster.now();
  while (!(await check())) {
    if (cluster.now() - start > budgetMs) throw new Error(`condition not met within ${budgetMs / 1000} simulated seconds`);
    await cluster.advance(1000);
  }
}

const classes = [['low', 100], ['mid', 500], ['high', 1_000_000]]
  .map(([name, value]) => `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: ${name}\nvalue: ${value}\n`)
  .join('---\n');

const podYaml = (name: string, o: { cls: string; cpu: string; app?: string; node?: string }): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels: { app: ${o.app ?? name} }
spec:
  priorityClassName: ${o.cls}
  terminationGracePeriodSeconds: 1
${o.node ? `  nodeSelector: { kubernetes.io/hostname: ${o.node} }\n` : ''}  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests: { cpu: "${o.cpu}" }
`;

const phaseOf = async (cluster: Cluster, name: string): Promise<string | undefined> => {
  const r = await cluster.kubectl(`get pod ${name} -o json`);
  return r.exitCode === 0 ? (JSON.parse(r.stdout) as Pod).status?.phase : undefined;
};

const running = (cluster: Cluster, names: string[]) => async (): Promise<boolean> =>
  (await Promise.all(names.map((n) => phaseOf(cluster, n)))).every((p) => p === 'Running');

const preempted = async (cluster: Cluster): Promise<string[]> =>
  (await json<List<CoreEvent>>(cluster, 'get events')).items.filter((e) => e.reason === 'Preempted').map((e) => e.involvedObject.name ?? '');

describe('preemption: reprieve and PodDisruptionBudgets', { timeout: 180_000 }, () => {
  it('of two low-priority pods on a full node, only the big one goes: the small one is reprieved', async () => {
    const cluster = createCluster({ seed: 11, topology: 'single-node' });
    await ok(cluster, 'apply -f -', classes);
    await ok(cluster, 'apply -f -', podYaml('small', { cls: 'low', cpu: '500m' }));
    await until(cluster, running(cluster, ['small']), 60_000);
    await ok(cluster, 'apply -f -', podYaml('big', { cls: 'low', cpu: '2' }));
    await until(cluster, running(cluster, ['big']), 60_000);

    await ok(cluster, 'apply -f -', podYaml('urgent', { cls: 'high', cpu: '2' }));
    await until(cluster, running(cluster, ['urgent']), 120_000);
    expect(await phaseOf(cluster, 'big')).toBeUndefined();
    expect(await phaseOf(cluster, 'small')).toBe('Running');
    expect(await preempted(cluster)).toEqual(['big']);
  });

  it('the node whose victim a PodDisruptionBudget protects is passed over', async () => {
    const cluster = createCluster({ seed: 11, topology: 'ha', workers: 2 });
    const nodes = (await json<List<Node>>(cluster, 'get nodes')).items;
    const workers = nodes.filter((n) => !(n.spec?.taints ?? []).some((t) => t.key === 'node-role.kubernetes.io/control-plane')).map((n) => n.metadata.name!);
    expect(workers).toHaveLength(2);
    const [guardedNode, freeNode] = workers as [string, string];
    await ok(cluster, 'apply -f -', classes);
    // without the budget, guarded (the lower priority) would be the victim: lowest highest-victim priority
    await ok(cluster, 'apply -f -', podYaml('guarded', { cls: 'low', cpu: '3', node: guardedNode }) + '---\n' + podYaml('unguarded', { cls: 'mid', cpu: '3', node: freeNode }));
    await ok(cluster, 'apply -f -', `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: guarded }
spec:
  minAvailable: 1
  selector: { matchLabels: { app: guarded } }
`);
    await until(cluster, running(cluster, ['guarded', 'unguarded']), 90_000);

    await ok(cluster, 'apply -f -', podYaml('urgent', { cls: 'high', cpu: '3' }));
    await until(cluster, running(cluster, ['urgent']), 120_000);
    const urgent = await json<Pod>(cluster, 'get pod urgent');
    expect(urgent.spec.nodeName).toBe(freeNode);
    expect(await phaseOf(cluster, 'guarded')).toBe('Running');
    expect(await preempted(cluster)).toEqual(['unguarded']);
  });

  it('a nomination preemption can no longer honour is cleared (NewPostFilterResultWithNominatedNode(""))', async () => {
    const cluster = createCluster({ seed: 12, topology: 'single-node', workers: 1 });
    await ok(cluster, 'apply -f -', classes);
    // asks for more CPU than any node has: no node fits, and evicting pods cannot help
    await ok(cluster, 'apply -f -', podYaml('huge', { cls: 'high', cpu: '64' }));
    await cluster.advance(5_000);
    // as if an earlier cycle had nominated it (say the node shrank since)
    const admin = cluster.internals.restClient('test-admin');
    let patched = 0;
    admin.request({
      verb: 'patch', group: '', resource: 'pods', namespace: 'default', name: 'huge', subresource: 'status',
      patchType: 'application/merge-patch+json', body: { status: { nominatedNodeName: 'worker-1' } },
    }, (r) => { patched = r.code; });
    await cluster.advance(1_000);
    expect(patched).toBe(200);
    expect((await json<Pod>(cluster, 'get pod huge')).status?.nominatedNodeName).toBe('worker-1');
    // a status-only update leaves it among the unschedulable pods (isPodUpdated); the 5-minute flush
    // retries it, preemption finds no candidate, and the nomination is cleared
    await until(cluster, async () => (await json<Pod>(cluster, 'get pod huge')).status?.nominatedNodeName === undefined, 360_000);
    const pod = await json<Pod>(cluster, 'get pod huge');
    expect(pod.spec.nodeName).toBeUndefined();
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
  });
});
