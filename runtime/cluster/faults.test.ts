// High availability through the front door: replicas and etcd members die under load, and no
// write the API server acknowledged is lost; etcd without quorum refuses writes, then recovers.
import { describe, expect, it } from 'vitest';
import { decodeDataDir } from '../etcd/index.ts';
import { createCluster, type Cluster } from '../index.ts';

/**
 * Fires `count` ConfigMap creates 20 ms apart through the load balancer, each from a client of its own
 * (its own connection, so the balancer spreads them over the replicas); runs `fault` after `faultAtMs`.
 */
function writeStream(cluster: Cluster, count: number, faultAtMs: number, fault: () => void) {
  const { kernel } = cluster.internals;
  const client = cluster.internals.restClient('writer');
  const acked: string[] = [];
  const failed: string[] = [];
  const servedBy = new Set<string>();
  for (let i = 0; i < count; i++) {
    const name = `cm-${String(i).padStart(3, '0')}`;
    kernel.setTimer(i * 20, () => client.withOwnConnection().request(
      { verb: 'create', group: '', resource: 'configmaps', namespace: 'default', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } } },
      (res) => {
        if (res.code === 201) {
          acked.push(name);
          if (res.servedBy) servedBy.add(res.servedBy);
        } else failed.push(`${name}: ${res.code} ${(res.body as { message?: string }).message ?? ''}`);
      },
    ));
  }
  kernel.setTimer(faultAtMs, fault);
  const done = cluster.internals.driveUntil(() => acked.length + failed.length === count, 300_000);
  expect(done).toBe(true);
  return { acked, failed, servedBy };
}

async function storedConfigMaps(cluster: Cluster): Promise<string[]> {
  const r = await cluster.kubectl('get configmaps -o name');
  expect(r.exitCode).toBe(0);
  return r.stdout.split('\n').filter((l) => l.startsWith('configmap/cm-')).map((l) => l.slice('configmap/'.length));
}

describe('ha: faults under a stream of writes', { timeout: 60_000 }, () => {
  it('killing an API server replica loses no acknowledged write', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 11, workers: 0 });
    const { acked, failed, servedBy } = writeStream(cluster, 60, 410, () => void cluster.faults.stopComponent('kube-apiserver-cp-1'));
    expect(servedBy).toEqual(new Set(['kube-apiserver-cp-1', 'kube-apiserver-cp-2', 'kube-apiserver-cp-3']));
    expect(acked).toContain('cm-059'); // the writes after the kill went to the other replicas
    for (const f of failed) expect(f).toMatch(/connection reset by peer|EOF/); // a write in flight on the dead replica
    const stored = await storedConfigMaps(cluster);
    for (const name of acked) expect(stored).toContain(name);
    await cluster.advance(10_000);
    expect(cluster.internals.controlPlane.loadBalancer?.healthyBackends()).toEqual(['kube-apiserver-cp-2', 'kube-apiserver-cp-3']);
    await cluster.faults.startComponent('kube-apiserver-cp-1');
    await cluster.advance(10_000);
    expect(cluster.internals.controlPlane.loadBalancer?.healthyBackends()).toHaveLength(3);
  });

  it('killing the etcd leader loses no acknowledged write', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 12, workers: 0 });
    const leader = cluster.internals.controlPlane.etcd.leader();
    expect(leader).toMatch(/^etcd-cp-[123]$/);
    // 200 writes over 4 s: the kill at 410 ms, a new leader about 1-2 s later (election timeout)
    const { acked, failed } = writeStream(cluster, 200, 410, () => void cluster.faults.stopComponent(leader!));
    // writes proposed while the old leader was gone time out inside the API server, as in etcd
    for (const f of failed) expect(f).toMatch(/: 500 (context deadline exceeded|etcdserver: request timed out)$/);
    expect(acked).toContain('cm-199'); // the new leader takes writes again
    const stored = await storedConfigMaps(cluster);
    for (const name of acked) expect(stored).toContain(name);
    const newLeader = cluster.internals.controlPlane.etcd.leader();
    expect(newLeader).toBeDefined();
    expect(newLeader).not.toBe(leader);
  });

  it('stopping a whole control-plane node keeps the API up; kubectl still works', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 13, workers: 0 });
    await cluster.faults.stopNode('cp-2');
    await cluster.advance(10_000);
    expect((await cluster.kubectl('create namespace after-node-loss')).stdout).toBe('namespace/after-node-loss created\n');
    // cp-2's member went down with its machine; cp-1's answers (members advertise their machine's IP)
    const cp2 = await cluster.etcdctl('endpoint health --endpoints=https://192.168.49.3:2379');
    expect(cp2.exitCode).not.toBe(0);
    expect(cp2.stderr).toContain('https://192.168.49.3:2379 is unhealthy');
    expect((await cluster.etcdctl('endpoint health --endpoints=https://192.168.49.2:2379')).stdout).toMatch(/^https:\/\/192\.168\.49\.2:2379 is healthy/);
  });
});

describe('etcd quorum', { timeout: 60_000 }, () => {
  it('without quorum writes fail with etcd\'s error; with it back they succeed and nothing is lost', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 21, workers: 0 });
    expect((await cluster.kubectl('create namespace before')).exitCode).toBe(0);
    await cluster.faults.stopComponent('etcd-cp-2');
    await cluster.faults.stopComponent('etcd-cp-3');
    const refused = await cluster.kubectl('create namespace during');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^Error from server: (etcdserver: request timed out|context deadline exceeded)\n$/);
    await cluster.faults.startComponent('etcd-cp-2');
    await cluster.faults.startComponent('etcd-cp-3');
    await cluster.advance(5_000);
    expect((await cluster.kubectl('create namespace after')).stdout).toBe('namespace/after created\n');
    const names = (await cluster.kubectl('get namespaces -o name')).stdout;
    expect(names).toContain('namespace/before\n');
    expect(names).toContain('namespace/after\n');
  });

  it('a partition that isolates the etcd leader\'s node does not lose writes acknowledged on either side', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 22, workers: 0 });
    const leader = cluster.internals.controlPlane.etcd.leader()!;
    const leaderNode = leader.replace('etcd-', '');
    // 400 writes over 8 s: the load balancer needs two failed /readyz checks 2 s apart (HAProxy
    // `fall 2`) to stop sending to the cut-off replica; the writes sent to it before then time out
    const { acked } = writeStream(cluster, 400, 410, () => void cluster.faults.partition([[leaderNode]]));
    // (the rest of the cluster, the other machines and the load balancer, is the implicit other side)
    await cluster.faults.heal();
    await cluster.advance(5_000);
    const stored = await storedConfigMaps(cluster);
    for (const name of acked) expect(stored).toContain(name);
    // the majority side elected a leader and took writes to the end: the load balancer stopped
    // sending requests to the cut-off replica once its /readyz etcd check failed
    expect(acked).toContain('cm-399');
  });
});

describe('etcdctl through the cluster', { timeout: 60_000 }, () => {
  it('snapshot save, status and restore of the cluster state', async () => {
    const cluster = createCluster({ seed: 31 });
    await cluster.kubectl('create namespace backed-up');
    const keys = await cluster.etcdctl('get /registry/namespaces/ --prefix --keys-only');
    expect(keys.stdout.split('\n').filter((l) => l !== '')).toEqual([
      '/registry/namespaces/backed-up', '/registry/namespaces/default', '/registry/namespaces/kube-node-lease',
      '/registry/namespaces/kube-public', '/registry/namespaces/kube-system',
    ]);
    const saved = await cluster.etcdctl('snapshot save backup.db');
    expect(saved.exitCode).toBe(0);
    expect(saved.stdout).toContain('Snapshot saved at backup.db');
    const status = await cluster.etcdctl('snapshot status backup.db -w table');
    expect(status.stdout).toMatch(/\| +HASH +\| +REVISION +\| +TOTAL KEYS +\| +TOTAL SIZE +\|/);
    const restored = await cluster.etcdctl('snapshot restore backup.db --data-dir restored.etcd');
    expect(restored.exitCode).toBe(0);
    const dir = decodeDataDir(cluster.internals.files.get('restored.etcd')!);
    expect(dir.ok && dir.value.snapshot).toBe(cluster.internals.files.get('backup.db'));
  });
});

describe('determinism', { timeout: 60_000 }, () => {
  async function scenario(seed: number): Promise<string> {
    const cluster = createCluster({ topology: 'ha', seed, workers: 1 });
    await cluster.kubectl('create namespace demo');
    await cluster.kubectl('create deployment web --image=nginx:1.14.2 -n demo');
    await cluster.faults.stopComponent('kube-apiserver-cp-2');
    await cluster.advance(3_000);
    await cluster.kubectl('get deployments -A -o json');
    await cluster.etcdctl('endpoint status -w table');
    return cluster.traceHash();
  }

  it('the same seed and inputs give the same trace hash; another seed does not', async () => {
    const a = await scenario(41);
    expect(await scenario(41)).toBe(a);
    expect(await scenario(42)).not.toBe(a);
  });
});

describe('partition semantics: a named group is cut off from the rest of the cluster', { timeout: 60_000 }, () => {
  it('cutting off one etcd member of three keeps writes working; cutting off two stops them; heal recovers', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 3, workers: 1 });
    const etcd = cluster.internals.controlPlane.etcd;
    await cluster.faults.partition([['etcd-cp-3']]);
    await cluster.advance(5_000);
    // the lone member hears no leader: no unnamed endpoint (its peers, its API server) reaches it
    expect(etcd.raftStatus('etcd-cp-3')?.lead).toBe('');
    expect(etcd.leader()).not.toBe('etcd-cp-3');
    expect((await cluster.kubectl('create configmap one')).exitCode).toBe(0);

    await cluster.faults.partition([['etcd-cp-2'], ['etcd-cp-3']]);
    await cluster.advance(5_000);
    const refused = await cluster.kubectl('create configmap two');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^error: failed to create configmap: /); // create_configmap.go wraps the error

    await cluster.faults.heal();
    await cluster.advance(10_000);
    expect((await cluster.kubectl('create configmap three')).exitCode).toBe(0);
    const names = (await cluster.kubectl('get configmaps -o name')).stdout;
    expect(names).toContain('configmap/one');
    expect(names).toContain('configmap/three');
    expect(names).not.toContain('configmap/two');
  });

  it('a partitioned worker stops reaching the API server while the reader\'s kubectl, outside the cluster, still does', async () => {
    const cluster = createCluster({ seed: 4, workers: 1 });
    await cluster.faults.partition([['worker-1']]);
    await cluster.advance(60_000);
    const nodes = await cluster.kubectl('get nodes');
    expect(nodes.exitCode).toBe(0);
    expect(nodes.stdout).toMatch(/worker-1\s+NotReady/);
  });

  it('refuses a name that is in no cluster, and one named twice', async () => {
    const cluster = createCluster({ seed: 5 });
    await expect(cluster.faults.partition([['nodeA']])).rejects.toThrow(/"nodeA" is neither a node nor a component/);
    await expect(cluster.faults.partition([['cp-1'], ['cp-1']])).rejects.toThrow(/named in two groups/);
  });
});
