// Cluster.schedulerDecision() and schedulerAttempts(): the scheduler's reasoning read back from its
// kube-scheduler-simulator annotations, for the page's scheduler explainer.
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          resources: {requests: {cpu: 100m, memory: 128Mi}}
`;

const BIG = `apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers:
    - name: big
      image: nginx:1.27
      resources: {requests: {cpu: "100"}}
`;

const TAINT = 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }';

describe('Cluster.schedulerDecision()', () => {
  it('gives a scheduled pod\'s filter verdicts for every node, raw and weighted scores, and the selected node', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 7, workers: 2 });
    await cluster.kubectl('apply -f -', { stdin: WEB });
    await cluster.advance(20_000);
    const pod = cluster.snapshot().pods.find((p) => p.name.startsWith('web-'))!;
    const d = cluster.schedulerDecision('default', pod.name)!;
    expect(d.selectedNode).toBe(pod.node);
    expect(d.boundNode).toBe(pod.node);
    expect(d.condition).toMatchObject({ status: 'True' });
    expect(Object.keys(d.filter).sort()).toEqual(['cp-1', 'cp-2', 'cp-3', 'worker-1', 'worker-2']);
    for (const cp of ['cp-1', 'cp-2', 'cp-3']) expect(d.filter[cp]!['TaintToleration']).toBe(TAINT);
    for (const w of ['worker-1', 'worker-2']) expect(Object.values(d.filter[w]!).every((v) => v === 'passed')).toBe(true);
    // only the nodes that passed are scored; TaintToleration's raw 0 is normalized to 100, weight 3
    expect(Object.keys(d.score).sort()).toEqual(['worker-1', 'worker-2']);
    expect(d.score['worker-1']!['TaintToleration']).toBe(0);
    expect(d.finalScore['worker-1']!['TaintToleration']).toBe(300);
    const total = (n: string) => Object.values(d.finalScore[n]!).reduce((a, b) => a + b, 0);
    expect(total(d.selectedNode)).toBe(Math.max(total('worker-1'), total('worker-2')));
    expect(JSON.parse(JSON.stringify(d))).toEqual(d); // serializable as it is
  });

  it('gives a pod that fits nowhere every node\'s reason and the "0/N nodes are available" message', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 7, workers: 2 });
    await cluster.kubectl('apply -f -', { stdin: BIG });
    await cluster.advance(5_000);
    const d = cluster.schedulerDecision('default', 'big')!;
    expect(d.selectedNode).toBe('');
    expect(d.boundNode).toBeUndefined();
    expect(d.filter['worker-1']!['NodeResourcesFit']).toBe('Insufficient cpu');
    expect(d.filter['worker-2']!['NodeResourcesFit']).toBe('Insufficient cpu');
    for (const cp of ['cp-1', 'cp-2', 'cp-3']) expect(d.filter[cp]!['TaintToleration']).toBe(TAINT);
    expect(d.score).toEqual({});
    expect(d.condition).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: `0/5 nodes are available: 2 Insufficient cpu, 3 ${TAINT}. preemption: 0/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.`,
    });
  });

  it('is undefined for a pod that does not exist or that the scheduler never saw (a static pod)', async () => {
    const cluster = createCluster({ seed: 3 });
    expect(cluster.schedulerDecision('default', 'nope')).toBeUndefined();
    const staticPod = cluster.snapshot().pods.find((p) => p.name.startsWith('kube-apiserver-'))!;
    expect(cluster.schedulerDecision('kube-system', staticPod.name)).toBeUndefined();
  });
});

describe('Cluster.schedulerAttempts()', () => {
  it('lists Pending pods first, then scheduled ones, most recent first', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 7, workers: 2 });
    await cluster.kubectl('apply -f -', { stdin: WEB });
    await cluster.advance(5_000);
    await cluster.kubectl('apply -f -', { stdin: BIG });
    await cluster.advance(3_000);
    await cluster.kubectl('run late --image=nginx:1.27');
    await cluster.advance(3_000);
    const attempts = cluster.schedulerAttempts();
    expect(attempts[0]).toMatchObject({ namespace: 'default', name: 'big', selectedNode: '', scheduled: false });
    expect(attempts[1]).toMatchObject({ namespace: 'default', name: 'late', scheduled: true });
    expect(attempts[1]!.selectedNode).toMatch(/^worker-[12]$/);
    const scheduled = attempts.filter((a) => a.scheduled);
    expect(scheduled.map((a) => a.decidedAtMs)).toEqual([...scheduled.map((a) => a.decidedAtMs)].sort((a, b) => b - a));
    expect(attempts.filter((a) => a.name.startsWith('web-'))).toHaveLength(3);
    // static pods never went through the scheduler
    expect(attempts.some((a) => a.name.startsWith('etcd-'))).toBe(false);
  });
});

describe('observing the scheduler', () => {
  it('changes nothing: a cluster observed at every step has the same trace as one never observed', async () => {
    const run = async (observe: boolean) => {
      const cluster = createCluster({ seed: 9, workers: 2 });
      await cluster.kubectl('apply -f -', { stdin: WEB });
      await cluster.kubectl('apply -f -', { stdin: BIG });
      for (let i = 0; i < 20; i++) {
        cluster.step(500);
        if (observe) for (const a of cluster.schedulerAttempts()) cluster.schedulerDecision(a.namespace, a.name);
      }
      return cluster.traceHash();
    };
    expect(await run(true)).toBe(await run(false));
  });
});
