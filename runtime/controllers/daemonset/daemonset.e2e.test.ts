// The DaemonSet controller on a whole simulated cluster: the kube-proxy and kindnet addons land on
// every node (control plane included), a node selector moves a DaemonSet's pods, a node that dies
// and comes back keeps its daemon pods, and a new image rolls out one node at a time.
import { describe, expect, it } from 'vitest';
import type { DaemonSet, Pod } from '../../api/index.ts';
import { createCluster, type Cluster } from '../../cluster/index.ts';

const NODES = ['cp-1', 'worker-1', 'worker-2', 'worker-3'];

const AGENT = `apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec:
      nodeSelector: { role: edge }
      containers: [{ name: agent, image: 'nginx:1.27' }]
`;

async function json<T>(cluster: Cluster, args: string): Promise<T> {
  const r = await cluster.kubectl(`${args} -o json`);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as T;
}

const pods = async (cluster: Cluster, args: string): Promise<Pod[]> => (await json<{ items: Pod[] }>(cluster, `get pods ${args}`)).items;
const isReady = (p: Pod): boolean => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
const live = (ps: Pod[]): Pod[] => ps.filter((p) => !p.metadata.deletionTimestamp);
const nodesOf = (ps: Pod[]): string[] => live(ps).map((p) => p.spec.nodeName ?? '<none>').sort();

/** Advances in small steps until check() holds (or the simulated budget runs out). */
async function settle(cluster: Cluster, check: () => Promise<boolean>, budgetMs = 60_000): Promise<boolean> {
  for (let waited = 0; waited <= budgetMs; waited += 1000) {
    if (await check()) return true;
    await cluster.advance(1000);
  }
  return false;
}

describe('DaemonSet controller end to end', () => {
  const cluster = createCluster({ seed: 7, topology: 'single-node', workers: 3 });

  it('boots with one Running kube-proxy and kindnet pod on every node, pinned and labelled as upstream', async () => {
    for (const app of ['k8s-app=kube-proxy', 'app=kindnet']) {
      const ps = await pods(cluster, `-n kube-system -l ${app}`);
      expect(nodesOf(ps)).toEqual(NODES);
      for (const p of ps) {
        expect(p.status?.phase).toBe('Running');
        expect(isReady(p)).toBe(true);
        expect(p.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'DaemonSet', controller: true, blockOwnerDeletion: true })]);
        expect(p.metadata.labels?.['pod-template-generation']).toBe('1');
        expect(p.metadata.labels?.['controller-revision-hash']).toMatch(/^[a-z0-9]+$/);
        expect(p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([
          { matchFields: [{ key: 'metadata.name', operator: 'In', values: [p.spec.nodeName] }] },
        ]);
        expect(p.spec.tolerations).toContainEqual({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' });
      }
    }
    const table = await cluster.kubectl('get ds -n kube-system');
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE$/);
    expect(table.stdout).toMatch(/kube-proxy\s+4\s+4\s+4\s+4\s+4\s+kubernetes.io\/os=linux/);
    expect(table.stdout).toMatch(/kindnet\s+4\s+4\s+4\s+4\s+4\s+<none>/);
    const events = await cluster.kubectl('get events -n kube-system --field-selector involvedObject.kind=DaemonSet');
    expect(events.stdout.match(/SuccessfulCreate\s+daemonset\/kube-proxy\s+Created pod: kube-proxy-[a-z0-9]{5}/g)).toHaveLength(4);
  });

  it('follows a node selector as node labels change', async () => {
    expect((await cluster.kubectl('apply -f -', { stdin: AGENT })).stdout).toBe('daemonset.apps/agent created\n');
    await cluster.kubectl('label node worker-1 worker-2 role=edge');
    expect(await settle(cluster, async () => nodesOf(await pods(cluster, '-l app=agent')).join() === 'worker-1,worker-2')).toBe(true);
    await cluster.kubectl('label node worker-1 role-');
    await cluster.kubectl('label node worker-3 role=edge');
    expect(await settle(cluster, async () => {
      const ps = await pods(cluster, '-l app=agent');
      return nodesOf(ps).join() === 'worker-2,worker-3' && ps.length === 2 && ps.every(isReady);
    })).toBe(true);
    const ds = await json<DaemonSet>(cluster, 'get ds agent');
    expect(ds.status).toMatchObject({
      desiredNumberScheduled: 2, currentNumberScheduled: 2, numberMisscheduled: 0, numberReady: 2,
      updatedNumberScheduled: 2, numberAvailable: 2, numberUnavailable: 0, observedGeneration: 1,
    });
    const events = (await cluster.kubectl('get events --field-selector involvedObject.name=agent')).stdout;
    expect(events).toMatch(/SuccessfulDelete\s+daemonset\/agent\s+Deleted pod: agent-[a-z0-9]{5}/);
  });

  it('keeps the daemon pods of a node that dies and comes back; desired drops where unreachable:NoSchedule is not tolerated', async () => {
    const before = (await pods(cluster, '-n kube-system -l k8s-app=kube-proxy')).find((p) => p.spec.nodeName === 'worker-2')!;
    await cluster.faults.stopNode('worker-2');
    await cluster.advance(120_000);
    try {
      // the daemon pods tolerate unreachable:NoExecute, so the node lifecycle controller evicts none
      const during = await pods(cluster, '-n kube-system -l k8s-app=kube-proxy --field-selector spec.nodeName=worker-2');
      expect(during.map((p) => p.metadata.name)).toEqual([before.metadata.name]);
      // kube-proxy tolerates every taint: worker-2 still counts as desired
      expect((await json<DaemonSet>(cluster, 'get ds kube-proxy -n kube-system')).status).toMatchObject({ desiredNumberScheduled: 4, currentNumberScheduled: 4 });
      // agent does not tolerate unreachable:NoSchedule: no new pod there, the old one stays (misscheduled)
      expect(nodesOf(await pods(cluster, '-l app=agent'))).toEqual(['worker-2', 'worker-3']);
      expect((await json<DaemonSet>(cluster, 'get ds agent')).status).toMatchObject({ desiredNumberScheduled: 1, currentNumberScheduled: 1, numberMisscheduled: 1 });
    } finally {
      await cluster.faults.startNode('worker-2');
    }
    expect(await settle(cluster, async () => {
      const d = await json<DaemonSet>(cluster, 'get ds agent');
      return d.status?.desiredNumberScheduled === 2 && d.status.numberReady === 2 && d.status.numberMisscheduled === 0;
    }, 120_000)).toBe(true);
    expect(await settle(cluster, async () => {
      const after = await pods(cluster, '-n kube-system -l k8s-app=kube-proxy');
      return after.every(isReady) && after.some((p) => p.metadata.name === before.metadata.name) && nodesOf(after).join() === NODES.join();
    })).toBe(true);
  });

  it('rolls a new image out one node at a time (maxUnavailable 1) and records a new revision', async () => {
    const set = await cluster.kubectl('set image ds/kube-proxy kube-proxy=registry.k8s.io/kube-proxy:v1.33.1 -n kube-system');
    expect(set.stdout).toBe('daemonset.apps/kube-proxy image updated\n');
    let maxNodesWithoutReadyPod = 0;
    const done = await settle(cluster, async () => {
      const ps = live(await pods(cluster, '-n kube-system -l k8s-app=kube-proxy'));
      const covered = new Set(ps.filter(isReady).map((p) => p.spec.nodeName));
      maxNodesWithoutReadyPod = Math.max(maxNodesWithoutReadyPod, NODES.filter((n) => !covered.has(n)).length);
      return ps.length === 4 && ps.every((p) => isReady(p) && p.spec.containers[0]?.image === 'registry.k8s.io/kube-proxy:v1.33.1');
    }, 120_000);
    expect(done).toBe(true);
    expect(maxNodesWithoutReadyPod).toBe(1);
    expect(await settle(cluster, async () => (await json<DaemonSet>(cluster, 'get ds kube-proxy -n kube-system')).status?.numberAvailable === 4)).toBe(true);
    const ds = await json<DaemonSet>(cluster, 'get ds kube-proxy -n kube-system');
    expect(ds.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('2');
    expect(ds.status).toMatchObject({ desiredNumberScheduled: 4, updatedNumberScheduled: 4, numberAvailable: 4, numberUnavailable: 0, observedGeneration: 2 });
    const ps = await pods(cluster, '-n kube-system -l k8s-app=kube-proxy');
    expect(new Set(ps.map((p) => p.metadata.labels?.['pod-template-generation']))).toEqual(new Set(['2']));
    const revisions = (await cluster.kubectl('get controllerrevisions -n kube-system')).stdout;
    expect(revisions).toMatch(/kube-proxy-[a-z0-9]+\s+daemonset.apps\/kube-proxy\s+1\s/);
    expect(revisions).toMatch(/kube-proxy-[a-z0-9]+\s+daemonset.apps\/kube-proxy\s+2\s/);
  });
});
