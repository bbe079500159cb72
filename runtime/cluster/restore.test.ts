// cluster.faults.restoreEtcd, the drill's steps and refusals on a small cluster (the whole drill
// with a Deployment coming back is in e2e.test.ts).
import { describe, expect, it } from 'vitest';
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
});
