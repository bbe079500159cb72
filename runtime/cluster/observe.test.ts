// The observation API the page's widgets stand on: snapshot(), eventsSince() and bounded step().
import { describe, expect, it } from 'vitest';
import { createCluster, RAFT_LOG_TAIL } from '../index.ts';

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

describe('Cluster.snapshot()', () => {
  it('shows nodes with roles, taints, allocatable and requested resources, and pods with phase, readiness and node', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 7, workers: 2 });
    await cluster.kubectl('apply -f -', { stdin: WEB });
    await cluster.advance(30_000);
    const snap = cluster.snapshot();
    expect(snap.apiAvailable).toBe(true);
    expect(snap.timeMs).toBe(cluster.now());
    expect(snap.nodes.map((n) => `${n.name} ${n.status} ${n.roles.join(',')}`)).toEqual([
      'cp-1 Ready control-plane', 'cp-2 Ready control-plane', 'cp-3 Ready control-plane', 'worker-1 Ready ', 'worker-2 Ready ',
    ]);
    expect(snap.nodes[0]!.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    const web = snap.pods.filter((p) => p.name.startsWith('web-'));
    expect(web).toHaveLength(3);
    for (const p of web) {
      expect(p).toMatchObject({ namespace: 'default', phase: 'Running', status: 'Running', ready: '1/1', allReady: true, restarts: 0 });
      expect(p.node).toMatch(/^worker-[12]$/);
      expect(p.owner).toMatch(/^ReplicaSet\/web-/);
    }
    // what the scheduler counts: the requests of the pods bound to the node
    for (const n of snap.nodes.filter((x) => x.name.startsWith('worker'))) {
      const mine = web.filter((p) => p.node === n.name).length;
      expect(n.requested.milliCPU).toBeGreaterThanOrEqual(mine * 100);
      expect(n.allocatable.milliCPU).toBeGreaterThan(0);
    }
    expect(snap.etcd.filter((m) => m.role === 'leader')).toHaveLength(1);
    expect(new Set(snap.etcd.map((m) => m.commit)).size).toBeLessThanOrEqual(2);
    expect(snap.components.filter((c) => c.kind === 'kube-scheduler' && c.leader)).toHaveLength(1);
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap); // serializable as it is
  });

  it('shows each etcd member\'s newest Raft log entries, the leader\'s match indexes, and a cut-off member falling behind', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 3, workers: 1 });
    await cluster.advance(20_000);
    const before = cluster.snapshot().etcd;
    const leader = before.find((m) => m.role === 'leader')!;
    expect(leader.log).toHaveLength(RAFT_LOG_TAIL);
    expect(leader.log.at(-1)!.index).toBe(leader.lastIndex);
    expect(leader.log.map((e) => e.index)).toEqual(Array.from({ length: RAFT_LOG_TAIL }, (_, i) => leader.lastIndex - RAFT_LOG_TAIL + 1 + i));
    expect(Object.keys(leader.match!).sort()).toEqual(before.map((m) => m.process).sort());
    expect(before.filter((m) => m.role !== 'leader').every((m) => m.match === undefined)).toBe(true);

    // a write shows up as a txn on the key, on every member once replicated
    await cluster.kubectl('create configmap raft-view --from-literal=a=b');
    const written = cluster.snapshot().etcd;
    for (const m of written) expect(m.log.map((e) => e.summary), m.name).toContain('txn /registry/configmaps/default/raft-view');

    // cut one follower off: the others go on appending, its log stops, and the leader's match for it stays put
    const follower = written.find((m) => m.role === 'follower')!;
    await cluster.faults.partition([[follower.process]]);
    await cluster.advance(10_000);
    const cut = cluster.snapshot().etcd;
    const lead = cut.find((m) => m.role === 'leader')!;
    const lagging = cut.find((m) => m.process === follower.process)!;
    expect(lagging.lastIndex).toBeLessThan(lead.lastIndex);
    expect(lead.match![follower.process]).toBeLessThanOrEqual(lagging.lastIndex);
    expect(lead.log.every((e) => e.term === lead.term || e.index <= lagging.lastIndex)).toBe(true);

    await cluster.faults.stopComponent(follower.process);
    const stopped = cluster.snapshot().etcd.find((m) => m.process === follower.process)!;
    expect(stopped).toMatchObject({ up: false, role: 'stopped', lastIndex: 0, log: [] });
  });

  it('changes nothing: a cluster observed at every step has the same trace as one never observed', async () => {
    const run = async (observe: boolean) => {
      const cluster = createCluster({ seed: 9 });
      await cluster.kubectl('apply -f -', { stdin: WEB });
      for (let i = 0; i < 20; i++) {
        cluster.step(500);
        if (observe) {
          cluster.snapshot();
          cluster.eventsSince(0);
        }
      }
      return cluster.traceHash();
    };
    expect(await run(true)).toBe(await run(false));
  });

  it('shows a stopped machine as down, then its Node as NotReady once the controllers notice', async () => {
    const cluster = createCluster({ seed: 8, workers: 1 });
    await cluster.faults.stopNode('worker-1');
    expect(cluster.snapshot().nodes.find((n) => n.name === 'worker-1')).toMatchObject({ machineUp: false, status: 'Ready' });
    await cluster.advance(60_000);
    expect(cluster.snapshot().nodes.find((n) => n.name === 'worker-1')).toMatchObject({ machineUp: false, status: 'NotReady' });
  });
});

describe('Cluster.eventsSince()', () => {
  it('gives a pod\'s events in the order they were written, and only those after the cursor', async () => {
    const cluster = createCluster({ seed: 7 });
    const before = cluster.eventsSince(0);
    const cursor = before.at(-1)!.resourceVersion;
    await cluster.kubectl('apply -f -', { stdin: WEB });
    await cluster.advance(30_000);
    const after = cluster.eventsSince(cursor);
    expect(after.every((e) => e.resourceVersion > cursor)).toBe(true);
    const pod = after.find((e) => e.reason === 'Scheduled')!.object;
    expect(after.filter((e) => e.object === pod).map((e) => e.reason)).toEqual(['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']);
    expect(after.find((e) => e.reason === 'Scheduled')).toMatchObject({ type: 'Normal', namespace: 'default', source: 'default-scheduler' });
    expect(cluster.eventsSince(cursor, 2)).toEqual(after.slice(-2));
  });
});

describe('Cluster.step()', () => {
  it('advances exactly the time asked, or stops early at the event budget', () => {
    const cluster = createCluster({ seed: 5 });
    const t0 = cluster.now();
    expect(cluster.step(1_234)).toBe(1_234);
    expect(cluster.now()).toBe(t0 + 1_234);
    const short = cluster.step(60_000, 1);
    expect(short).toBeGreaterThan(0);
    expect(short).toBeLessThan(60_000);
    expect(() => cluster.step(-1)).toThrow(/non-negative integer/);
  });

  it('stepping in chunks gives the same trace as advancing at once', async () => {
    const a = createCluster({ seed: 6 });
    const b = createCluster({ seed: 6 });
    await a.advance(10_000);
    for (let i = 0; i < 37; i++) b.step(270);
    b.step(10_000 - 37 * 270);
    expect(b.now()).toBe(a.now());
    expect(b.traceHash()).toBe(a.traceHash());
  });
});
