// cluster.faults.restoreEtcd, the drill's steps and refusals on a small cluster (the whole drill
// with a Deployment coming back is in e2e.test.ts).
import { describe, expect, it } from 'vitest';
import { newMessage } from '../raft/index.ts';
import { createCluster } from '../index.ts';

describe('faults.restoreEtcd', { timeout: 60_000 }, () => {
  it('refuses a missing snapshot file and leaves the cluster running', async () => {
    const cluster = createCluster({ seed: 71 });
    const r = await cluster.faults.restoreEtcd('/nope.db');
    expect(r).toEqual({ stdout: '', stderr: 'Error: open /nope.db: no such file or directory\n', exitCode: 1 });
    cluster.internals.files.set('/not-a-snapshot.db', 'hello');
    expect((await cluster.faults.restoreEtcd('/not-a-snapshot.db')).stderr).toBe('Error: snapshot file is invalid: not a snapshot file\n');
    expect((await cluster.kubectl('create namespace still-up')).exitCode).toBe(0);
  });

  it('runs the documented steps in order; a second drill restores into new directories as another new cluster', async () => {
    const cluster = createCluster({ seed: 72 });
    await cluster.kubectl('create namespace saved');
    await cluster.etcdctl('snapshot save /backup.db');
    await cluster.kubectl('create namespace unsaved');
    const first = await cluster.faults.restoreEtcd('/backup.db');
    expect(first.exitCode).toBe(0);
    const steps = first.stdout.split('\n').filter((l) => l.startsWith('#') || l.startsWith('$')).map((l) => l.split(' --')[0]);
    expect(steps).toEqual([
      '# stop kube-apiserver-cp-1',
      '# stop etcd-cp-1',
      '$ etcdutl snapshot restore /backup.db',
      '$ etcd',
      '# start kube-apiserver-cp-1',
    ]);
    expect(first.stdout).toContain('--initial-cluster-token kubernetes-etcd-restore-1 --initial-advertise-peer-urls https://etcd-cp-1:2380 --data-dir /var/lib/etcd-from-backup-1/etcd-cp-1 --bump-revision 1000000000 --mark-compacted\n');
    const names = (await cluster.kubectl('get namespaces -o name')).stdout;
    expect(names).toContain('namespace/saved\n');
    expect(names).not.toContain('namespace/unsaved\n');
    const firstId = cluster.internals.controlPlane.etcd.clusterId;
    const second = await cluster.faults.restoreEtcd('/backup.db', { bumpRevision: 0 });
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toContain('--data-dir /var/lib/etcd-from-backup-2/etcd-cp-1\n'); // no bump, so no --mark-compacted
    expect(cluster.internals.controlPlane.etcd.clusterId).not.toBe(firstId);
    expect((await cluster.kubectl('get namespace saved -o name')).stdout).toBe('namespace/saved\n');
  });

  it('the restored members refuse a Raft message the old cluster still had in flight (another cluster ID)', async () => {
    const cluster = createCluster({ seed: 73, topology: 'ha', workers: 1 });
    const { etcd } = cluster.internals.controlPlane;
    await cluster.etcdctl('snapshot save /backup.db');
    const [oldA, oldB] = etcd.members;
    const oldClusterId = etcd.clusterId;
    expect((await cluster.faults.restoreEtcd('/backup.db')).exitCode).toBe(0);
    const leader = etcd.leader()!;
    const sender = etcd.members.find((m) => m.name !== leader)!.name;
    const terms = (): (number | undefined)[] => etcd.members.map((m) => etcd.raftStatus(m.name)?.term);
    const before = terms();
    // what the old leader sent just before it was stopped: a heartbeat of a later term whose commit
    // index is far beyond the new log (stepped into Raft, it would depose the leader or worse)
    const heartbeat = newMessage({ type: 'MsgHeartbeat', from: sender, to: leader, term: Math.max(...before.map((t) => t ?? 0)) + 5, commit: 100_000 });
    cluster.internals.kernel.net.send(sender, leader, { kind: 'etcd.raft', clusterId: oldClusterId, memberId: (sender === oldA!.name ? oldA : oldB)!.id, message: heartbeat });
    await cluster.advance(2_000);
    expect(terms()).toEqual(before);
    expect(etcd.leader()).toBe(leader);
    const refusal = cluster.internals.kernel.trace.events().find((e) => e.kind === 'etcd.peer.reject' && e.actor === leader);
    expect(refusal?.detail).toContain(`local-member-cluster-id=${etcd.clusterId} remote-peer-server-name=${sender}`);
    expect(refusal?.detail).toContain(`remote-peer-cluster-id=${oldClusterId}`);
    expect((await cluster.kubectl('create namespace after-the-restore')).exitCode).toBe(0);
  });
});
