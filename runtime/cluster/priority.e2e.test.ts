// Pod priority end to end through cluster.kubectl(): the system classes a fresh cluster has, the
// add-ons and control-plane pods that use them, and a high-priority pod preempting a low-priority
// one on a full node (the scheduler's Preempted event, the kubelet's Killing).
import { describe, expect, it } from 'vitest';
import type { CoreEvent, List, Pod } from '../api/index.ts';
import { createCluster, type Cluster } from './index.ts';
import { ok } from './kubectl-ok.test-helper.ts';

const json = async <T>(cluster: Cluster, args: string): Promise<T> => JSON.parse(await ok(cluster, `${args} -o json`)) as T;
const rows = (out: string): string[][] => out.trim().split('\n').map((line) => line.split(/\s{2,}/));

/** Advances one simulated second at a time until check() holds. */
async function until(cluster: Cluster, check: () => Promise<boolean>, budgetMs: number): Promise<void> {
  const start = cluster.now();
  while (!(await check())) {
    if (cluster.now() - start > budgetMs) throw new Error(`condition not met within ${budgetMs / 1000} simulated seconds`);
    await cluster.advance(1000);
  }
}

const priorityClass = (name: string, value: number): string => `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: ${name}
value: ${value}
description: "${name} priority"
`;

/** A pod asking for 3 of the node's 4 CPUs, so two of them never fit together. */
const bigPod = (name: string, className: string): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  priorityClassName: ${className}
  terminationGracePeriodSeconds: 1
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests: { cpu: "3" }
`;

const phaseOf = async (cluster: Cluster, name: string): Promise<string | undefined> => {
  const r = await cluster.kubectl(`get pod ${name} -o json`);
  return r.exitCode === 0 ? (JSON.parse(r.stdout) as Pod).status?.phase : undefined;
};

describe('pod priority', { timeout: 120_000 }, () => {
  it('a fresh cluster: the system classes, and the add-ons and control plane using system-node-critical', async () => {
    const cluster = createCluster({ seed: 7, topology: 'single-node' });
    expect(rows(await ok(cluster, 'get priorityclasses')).map((r) => [r[0], r[1], r[2], r[4]])).toEqual([
      ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'PREEMPTIONPOLICY'],
      ['system-cluster-critical', '2000000000', 'false', 'PreemptLowerPriority'],
      ['system-node-critical', '2000001000', 'false', 'PreemptLowerPriority'],
    ]);
    expect(await cluster.kubectl('delete pc system-node-critical')).toMatchObject({
      stderr: 'Error from server (Forbidden): priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted\n',
      exitCode: 1,
    });
    const system = await json<List<Pod>>(cluster, 'get pods -n kube-system');
    const byName = system.items.map((p) => [p.metadata.name?.replace(/-[a-z0-9]{5}$/, ''), p.spec.priorityClassName, p.spec.priority, p.spec.preemptionPolicy]);
    expect(byName).toEqual(expect.arrayContaining([
      ['kube-proxy', 'system-node-critical', 2000001000, 'PreemptLowerPriority'],
      ['kindnet', 'system-node-critical', 2000001000, 'PreemptLowerPriority'],
      ['kube-apiserver-cp-1', 'system-node-critical', 2000001000, 'PreemptLowerPriority'],
      ['etcd-cp-1', 'system-node-critical', 2000001000, 'PreemptLowerPriority'],
    ]));
    // describe.go DescribePodTemplate: the class after the volumes, before the node selectors
    expect(await ok(cluster, 'describe ds kube-proxy -n kube-system')).toMatch(/\n {2}Priority Class Name: +system-node-critical\n {2}Node-Selectors: +kubernetes\.io\/os=linux\n/);
    const refused = await cluster.kubectl('apply -f -', { stdin: bigPod('x', 'foo') });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe('Error from server (Forbidden): error when creating "STDIN": pods "x" is forbidden: no PriorityClass with name foo was found\n');
  });

  it('a high-priority pod preempts a low-priority one on a full node', async () => {
    const cluster = createCluster({ seed: 7, topology: 'single-node' });
    await ok(cluster, 'apply -f -', priorityClass('low', 100) + '---\n' + priorityClass('high', 1_000_000));
    await ok(cluster, 'apply -f -', bigPod('low-pod', 'low'));
    await until(cluster, async () => (await phaseOf(cluster, 'low-pod')) === 'Running', 60_000);

    await ok(cluster, 'apply -f -', bigPod('high-pod', 'high'));
    await until(cluster, async () => (await phaseOf(cluster, 'high-pod')) === 'Running', 120_000);
    expect(await phaseOf(cluster, 'low-pod')).toBeUndefined();

    const events = (await json<List<CoreEvent>>(cluster, 'get events')).items;
    // who reported it, as describe's From column reads it: the scheduler records through events.k8s.io/v1 (no source)
    const about = (name: string) => events.filter((e) => e.involvedObject.name === name).map((e) => [e.source?.component || e.reportingComponent, e.reason, e.message]);
    const high = await json<Pod>(cluster, 'get pod high-pod');
    expect(about('low-pod')).toEqual(expect.arrayContaining([
      ['default-scheduler', 'Preempted', `Preempted by pod ${high.metadata.uid} on node cp-1`],
      ['kubelet', 'Killing', 'Stopping container app'],
    ]));
    // preemption.go prepareCandidate: the victim's event names the preemptor as its related object
    expect(events.find((e) => e.reason === 'Preempted')).toMatchObject({
      action: 'Preempting', related: { kind: 'Pod', name: 'high-pod', uid: high.metadata.uid },
    });
    expect(about('high-pod')).toEqual(expect.arrayContaining([
      ['default-scheduler', 'FailedScheduling', expect.stringContaining('0/1 nodes are available: 1 Insufficient cpu.')],
      ['default-scheduler', 'Scheduled', 'Successfully assigned default/high-pod to cp-1'],
    ]));
    expect(high.spec).toMatchObject({ priority: 1_000_000, priorityClassName: 'high', preemptionPolicy: 'PreemptLowerPriority', nodeName: 'cp-1' });
    const described = await ok(cluster, 'describe pod high-pod');
    expect(described).toMatch(/\nPriority:\s+1000000\nPriority Class Name:\s+high\n/);
  });

  it("the room a preemption frees is the preemptor's: neither a second preemptor nor the victim's replacement takes it", async () => {
    const cluster = createCluster({ seed: 7, topology: 'single-node' });
    await ok(cluster, 'apply -f -', priorityClass('low', 100) + '---\n' + priorityClass('high', 1_000_000));
    // the victim belongs to a Deployment, so its ReplicaSet recreates it at once
    await ok(cluster, 'apply -f -', `apiVersion: apps/v1
kind: Deployment
metadata: { name: low }
spec:
  replicas: 1
  selector: { matchLabels: { app: low } }
  template:
    metadata: { labels: { app: low } }
    spec:
      priorityClassName: low
      containers: [{ name: app, image: 'busybox:1.36', command: [sleep, '3600'], resources: { requests: { cpu: '3' } } }]
`);
    const lowPods = async (): Promise<Pod[]> => (await json<List<Pod>>(cluster, 'get pods -l app=low')).items;
    await until(cluster, async () => (await lowPods()).some((p) => p.status?.phase === 'Running'), 60_000);
    const victim = (await lowPods())[0]!.metadata.name!;

    // two preemptors at once, room for one: the second must count the first one's nomination
    // (RunFilterPluginsWithNominatedPods), so it finds no victim of its own
    await ok(cluster, 'apply -f -', bigPod('high-a', 'high') + '---\n' + bigPod('high-b', 'high'));
    await cluster.advance(90_000);
    const phases = [await phaseOf(cluster, 'high-a'), await phaseOf(cluster, 'high-b')].sort();
    expect(phases).toEqual(['Pending', 'Running']);
    const replacement = (await lowPods()).filter((p) => p.metadata.name !== victim);
    expect(replacement.map((p) => [p.status?.phase, p.spec.nodeName])).toEqual([['Pending', undefined]]);

    const events = (await json<List<CoreEvent>>(cluster, 'get events')).items;
    expect(events.filter((e) => e.reason === 'Preempted').map((e) => e.involvedObject.name)).toEqual([victim]);
    expect(events.filter((e) => e.reason === 'Scheduled' && e.involvedObject.name === replacement[0]!.metadata.name)).toEqual([]);
    // the victim was told why before it went
    const gone = events.find((e) => e.reason === 'Preempted')!;
    expect(gone.message).toMatch(/^Preempted by pod [0-9a-f-]+ on node cp-1$/);
  });
});
