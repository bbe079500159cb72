// etcdctl inside kubeadm's etcd static pod, the way operators (and the CKA exam) reach etcd:
// kubectl -> API server pods/exec -> the control-plane node's kubelet -> the etcd container, whose
// etcdctl dials this machine's member on https://127.0.0.1:2379 with the mounted certificates.
import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';

const TLS = '--cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';
const inEtcd = (pod: string, command: string): string => `exec -n kube-system ${pod} -- ${command}`;

describe('etcdctl in the etcd pod', { timeout: 60_000 }, () => {
  it("lists the members under their machines' names and IPs, and answers for its own machine's member", async () => {
    const cluster = createCluster({ seed: 3, topology: 'ha', workers: 0 });
    const list = await cluster.kubectl(inEtcd('etcd-cp-1', `etcdctl ${TLS} member list`));
    expect(list.exitCode, list.stderr).toBe(0);
    const rows = list.stdout.trim().split('\n').map((r) => r.split(', ').slice(1));
    expect(rows).toEqual([
      ['started', 'cp-1', 'https://192.168.49.2:2380', 'https://192.168.49.2:2379', 'false'],
      ['started', 'cp-2', 'https://192.168.49.3:2380', 'https://192.168.49.3:2379', 'false'],
      ['started', 'cp-3', 'https://192.168.49.4:2380', 'https://192.168.49.4:2379', 'false'],
    ]);
    // the default endpoint is 127.0.0.1:2379: on cp-2 that is cp-2's member
    const ids = new Map(list.stdout.trim().split('\n').map((r) => [r.split(', ')[2]!, r.split(', ')[0]!]));
    const status = await cluster.kubectl(inEtcd('etcd-cp-2', `etcdctl ${TLS} endpoint status`));
    expect(status.stdout).toMatch(new RegExp(`^127\\.0\\.0\\.1:2379, ${ids.get('cp-2')!}, 3\\.5\\.21, `));
    expect((await cluster.kubectl(inEtcd('etcd-cp-3', `etcdctl ${TLS} endpoint health`))).stdout).toMatch(/^127\.0\.0\.1:2379 is healthy: successfully committed proposal: took = \d+ms\n$/);
    // a script of that one command, with the variable tutorials set, runs it too
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', `sh -c "ETCDCTL_API=3 etcdctl ${TLS} get /registry/namespaces/default --keys-only"`))).stdout).toBe('/registry/namespaces/default\n\n');
  });

  it("cannot connect without the client certificate kubeadm's etcd requires, and says why it cannot even try", async () => {
    const cluster = createCluster({ seed: 4, topology: 'ha', workers: 0 });
    const before = cluster.now();
    expect(await cluster.kubectl(inEtcd('etcd-cp-1', 'etcdctl member list'))).toEqual({
      stdout: '', stderr: 'Error: context deadline exceeded\ncommand terminated with exit code 1\n', exitCode: 1,
    });
    expect(cluster.now() - before).toBeGreaterThanOrEqual(5000); // etcdctl's --command-timeout
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', 'etcdctl --cacert=/etc/kubernetes/pki/etcd/ca.crt get k'))).stderr).toBe('Error: context deadline exceeded\ncommand terminated with exit code 1\n');
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', `etcdctl ${TLS} --endpoints=http://127.0.0.1:2379 get k`))).stderr).toBe('Error: context deadline exceeded\ncommand terminated with exit code 1\n');
    expect(await cluster.kubectl(inEtcd('etcd-cp-1', 'etcdctl --cacert=/etc/kubernetes/pki/ca.crt member list'))).toEqual({
      stdout: '', stderr: 'Error: open /etc/kubernetes/pki/ca.crt: no such file or directory\ncommand terminated with exit code 128\n', exitCode: 128,
    });
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', 'etcdctl --cert=/etc/kubernetes/pki/etcd/peer.crt member list'))).stderr).toBe(
      'Error: KeyFile and CertFile must both be present[key: , cert: /etc/kubernetes/pki/etcd/peer.crt]\ncommand terminated with exit code 128\n',
    );
    // any key pair the etcd CA signed will do, and commands that never dial need none
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', 'etcdctl --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/healthcheck-client.crt --key=/etc/kubernetes/pki/etcd/healthcheck-client.key endpoint health'))).exitCode).toBe(0);
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', 'etcdctl version'))).stdout).toBe('etcdctl version: 3.5.21\nAPI version: 3.5\n');
  });

  it("saves snapshots into the host's /var/lib/etcd; the container's own files go with the container", async () => {
    const cluster = createCluster({ seed: 5, topology: 'ha', workers: 0 });
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', `etcdctl ${TLS} snapshot save /var/lib/etcd/backup.db`))).stdout).toBe('Snapshot saved at /var/lib/etcd/backup.db\n');
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', `etcdctl ${TLS} snapshot save /tmp/scratch.db`))).exitCode).toBe(0);
    // the operator on the machine sees the mounted directory's file, not the container's
    const status = await cluster.etcdctl('snapshot status /var/lib/etcd/backup.db -w json');
    expect(status.exitCode, status.stderr).toBe(0);
    expect((await cluster.etcdctl('snapshot status /tmp/scratch.db')).stderr).toBe('Error: open /tmp/scratch.db: no such file or directory\n');
    const inPod = await cluster.kubectl(inEtcd('etcd-cp-1', 'etcdutl snapshot status /tmp/scratch.db -w json'));
    expect(inPod.stdout).toBe(status.stdout.replace(/"revision":\d+/, inPod.stdout.match(/"revision":\d+/)![0]).replace(/"hash":\d+/, inPod.stdout.match(/"hash":\d+/)![0]).replace(/"totalKey":\d+/, inPod.stdout.match(/"totalKey":\d+/)![0]).replace(/"totalSize":\d+/, inPod.stdout.match(/"totalSize":\d+/)![0]));
    expect(inPod.stderr).toBe(''); // etcdutl, not etcdctl's deprecated copy
    await cluster.faults.stopComponent('etcd-cp-1');
    await cluster.faults.startComponent('etcd-cp-1');
    await cluster.advance(5_000);
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', 'etcdutl snapshot status /tmp/scratch.db'))).stderr).toBe('Error: open /tmp/scratch.db: no such file or directory\ncommand terminated with exit code 1\n');
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', 'etcdutl snapshot status /var/lib/etcd/backup.db'))).exitCode).toBe(0);
  });

  it("sees a stopped peer from inside; a stopped member's pod has nothing to exec in; without quorum kubectl cannot exec at all", async () => {
    const cluster = createCluster({ seed: 6, topology: 'ha', workers: 0 });
    await cluster.faults.stopComponent('etcd-cp-3');
    await cluster.advance(5_000);
    const health = await cluster.kubectl(inEtcd('etcd-cp-1', `etcdctl ${TLS} endpoint health --cluster`));
    expect(health.exitCode).toBe(1);
    expect(health.stdout).toBe(
      'https://192.168.49.2:2379 is healthy: successfully committed proposal: took = ' + health.stdout.match(/took = (\d+ms)/)![1] + '\n' +
      'https://192.168.49.3:2379 is healthy: successfully committed proposal: took = ' + [...health.stdout.matchAll(/took = (\d+ms)/g)][1]![1] + '\n',
    );
    expect(health.stderr).toBe('https://192.168.49.4:2379 is unhealthy: failed to commit proposal: context deadline exceeded\nError: unhealthy cluster\ncommand terminated with exit code 1\n');
    // findContainer: the etcd container on cp-3 is not running
    expect((await cluster.kubectl(inEtcd('etcd-cp-3', `etcdctl ${TLS} member list`))).stderr).toBe('error: unable to upgrade connection: container not found ("etcd")\n');
    // with a second member gone the API server cannot read the pod (a quorum read), as in a real
    // cluster: an operator then uses etcdctl on the machine itself
    await cluster.faults.stopComponent('etcd-cp-2');
    await cluster.advance(5_000);
    expect((await cluster.kubectl(inEtcd('etcd-cp-1', `etcdctl ${TLS} member list`))).exitCode).toBe(1);
    expect((await cluster.etcdctl('endpoint health')).stderr).toContain('is unhealthy: failed to commit proposal: context deadline exceeded');
  });
});
