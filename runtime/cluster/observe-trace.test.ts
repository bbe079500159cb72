// The request trace: one kubectl write followed through the API server's stages, etcd, the
// controllers, the scheduler and the kubelet, from recorded facts (audit records, owners, Events).
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

describe('Cluster.requestTrace()', () => {
  it('follows kubectl create deployment through every stage and every component it sets to work, in time order', async () => {
    const cluster = createCluster({ seed: 21 });
    await cluster.kubectl('create deployment web --image=nginx:1.27 --replicas=2');
    await cluster.advance(20_000);
    const roots = cluster.traceRoots();
    expect(roots[0]?.label).toBe('POST deployments default/web (201)');
    const trace = cluster.requestTrace();
    expect(trace.root).toEqual(roots[0]);
    const times = trace.steps.map((s) => s.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // the root request, one id end to end through the API server's stages and the etcd write
    const mine = trace.steps.filter((s) => s.requestId === trace.root!.requestId);
    expect(mine.map((s) => (s.kind === 'stage' ? s.label : s.kind))).toEqual([
      'request', 'Authentication', 'Authorization',
      ...mine.filter((s) => s.label === 'MutatingAdmission').map(() => 'MutatingAdmission'),
      'Validation',
      ...mine.filter((s) => s.label === 'ValidatingAdmission').map(() => 'ValidatingAdmission'),
      'storage', 'response',
    ]);
    expect(mine.find((s) => s.label === 'Authorization')?.detail).toMatch(/^RBAC: allowed by ClusterRoleBinding "kubeadm:cluster-admins"/);
    expect(mine.filter((s) => s.label === 'MutatingAdmission').map((s) => s.detail)).toContain('DefaultTolerationSeconds');
    expect(mine.find((s) => s.kind === 'storage')?.detail).toMatch(/^committed by Raft at revision \d+$/);

    // what it caused, lane by lane
    const line = (s: (typeof trace.steps)[number]) => `${s.from} -> ${s.to}: ${s.label}`;
    const lines = trace.steps.map(line);
    expect(lines).toContain('ctrl:deployment -> apiserver: POST replicasets default/' + lines.find((l) => l.includes('POST replicasets'))!.split('default/')[1]);
    expect(lines.filter((l) => l.startsWith('ctrl:replicaset -> apiserver: POST pods default/web-'))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('scheduler -> apiserver: POST pods/binding default/web-'))).toHaveLength(2);
    for (const call of ['PullImage', 'CreateContainer', 'StartContainer']) {
      expect(lines.filter((l) => l === `kubelet:cp-1 -> cri:cp-1: ${call}`), call).toHaveLength(2);
    }
    const order = ['POST deployments', 'POST replicasets', 'POST pods default', 'POST pods/binding', ': PullImage', ': StartContainer'];
    const firsts = order.map((o) => lines.findIndex((l) => l.includes(o)));
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    expect(trace.lanes.map((l) => l.label)).toEqual([
      'kubectl', 'kube-apiserver', 'etcd', 'deployment controller', 'replicaset controller', 'kube-scheduler', 'kubelet (cp-1)', 'container runtime (cp-1)',
    ]);
  });

  it('follows a scale through the existing ReplicaSet to the new pods, in an HA cluster whose components use different API servers', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 22, workers: 2 });
    await cluster.kubectl('create deployment web --image=nginx:1.27 --replicas=1');
    await cluster.advance(20_000);
    await cluster.kubectl('scale deployment web --replicas=3');
    await cluster.advance(20_000);
    const trace = cluster.requestTrace();
    expect(trace.root?.label).toMatch(/^PATCH deployments\/scale default\/web \(200\)$|^PUT deployments\/scale default\/web \(200\)$|^PATCH deployments default\/web \(200\)$/);
    const lines = trace.steps.map((s) => `${s.from} -> ${s.to}: ${s.label}`);
    expect(lines.filter((l) => l.startsWith('ctrl:replicaset -> apiserver: POST pods default/web-'))).toHaveLength(2);
    expect(lines.some((l) => /^kubelet:worker-[12] -> cri:worker-[12]: StartContainer$/.test(l))).toBe(true);
  });

  it('observing changes nothing, and a cluster with no kubectl write has an empty trace', async () => {
    const run = async (observe: boolean) => {
      const cluster = createCluster({ seed: 23 });
      if (observe) expect(cluster.requestTrace().steps).toEqual([]);
      await cluster.kubectl('create deployment web --image=nginx:1.27');
      for (let i = 0; i < 10; i++) {
        cluster.step(1_000);
        if (observe) cluster.requestTrace();
      }
      return cluster.traceHash();
    };
    expect(await run(true)).toBe(await run(false));
  });
});
