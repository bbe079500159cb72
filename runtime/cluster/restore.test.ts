// cluster.faults.restoreEtcd, the drill's steps and refusals on a small cluster (the whole drill
// with a Deployment coming back is in e2e.test.ts), and the Service allocations coming back with
// the Services (their IPAddress objects and node port bitmap are in etcd too).
import { describe, expect, it } from 'vitest';
import { newMessage } from '../raft/index.ts';
import type { Service } from '../api/index.ts';
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
    expect(first.stdout).toContain('--initial-cluster-token kubernetes-etcd-restore-1 --initial-advertise-peer-urls https://192.168.49.2:2380 --data-dir /var/lib/etcd-from-backup-1/cp-1 --bump-revision 1000000000 --mark-compacted\n');
    const names = (await cluster.kubectl('get namespaces -o name')).stdout;
    expect(names).toContain('namespace/saved\n');
    expect(names).not.toContain('namespace/unsaved\n');
    const firstId = cluster.internals.controlPlane.etcd.clusterId;
    const second = await cluster.faults.restoreEtcd('/backup.db', { bumpRevision: 0 });
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toContain('--data-dir /var/lib/etcd-from-backup-2/cp-1\n'); // no bump, so no --mark-compacted
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

  it('brings the Service allocations back with the Services: a restored Service keeps its IP and node port, a lost one frees its own', async () => {
    const cluster = createCluster({ seed: 74 });
    const nodePortService = (name: string, extra = ''): string =>
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: { app: ${name} }${extra}\n  ports:\n  - { name: http, port: 80, nodePort: NODEPORT }\n`;
    const create = async (name: string, ip?: string, nodePort?: number) => {
      const yaml = nodePortService(name, ip ? `\n  clusterIP: ${ip}` : '').replace(', nodePort: NODEPORT', nodePort ? `, nodePort: ${nodePort}` : '');
      return cluster.kubectl('apply -f -', { stdin: yaml });
    };
    const get = async (name: string): Promise<{ ip: string; port: number }> => {
      const svc = JSON.parse((await cluster.kubectl(`get service ${name} -o json`)).stdout) as Service;
      return { ip: svc.spec!.clusterIP!, port: svc.spec!.ports![0]!.nodePort! };
    };
    expect((await create('a')).exitCode).toBe(0);
    const a = await get('a');
    await cluster.etcdctl('snapshot save /backup.db');
    // after the snapshot: A is deleted (its IP and port are given back) and B is created
    expect((await cluster.kubectl('delete service a')).exitCode).toBe(0);
    expect((await create('b')).exitCode).toBe(0);
    const b = await get('b');
    expect((await cluster.faults.restoreEtcd('/backup.db')).exitCode).toBe(0);
    expect(await get('a')).toEqual(a); // A is back, and so is what it holds:
    const ips = (await cluster.kubectl('get ipaddresses')).stdout;
    expect(ips).toMatch(new RegExp(`^${a.ip.replaceAll('.', '\\.')}\\s+services/default/a$`, 'm'));
    expect(ips).not.toContain(`${b.ip} `);
    // C cannot take A's IP or A's node port...
    expect((await create('c', a.ip)).stderr).toBe(`The Service "c" is invalid: spec.clusterIPs: Invalid value: []string{"${a.ip}"}: failed to allocate IP ${a.ip}: provided IP is already allocated\n`);
    expect((await create('c', undefined, a.port)).stderr).toBe(`The Service "c" is invalid: spec.ports[0].nodePort: Invalid value: ${a.port}: provided port is already allocated\n`);
    // ...and a random one never lands on them; B's, lost with B, are free again
    expect((await create('c')).exitCode).toBe(0);
    const c = await get('c');
    expect(c.ip).not.toBe(a.ip);
    expect(c.port).not.toBe(a.port);
    expect((await create('d', b.ip, b.port)).exitCode).toBe(0);
  });
});
