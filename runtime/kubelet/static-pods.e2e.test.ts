// The control plane as kubeadm runs it: static pods whose mirror pods the kubelets publish in
// kube-system, their status following the component processes, and a deleted mirror pod coming back.
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../api/index.ts';
import { createCluster, type Cluster } from '../cluster/index.ts';

async function json<T>(cluster: Cluster, args: string): Promise<T> {
  const r = await cluster.kubectl(`${args} -o json`);
  if (r.exitCode !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as T;
}

const rows = async (cluster: Cluster, args: string): Promise<string[][]> =>
  (await cluster.kubectl(args)).stdout.trim().split('\n').map((line) => line.split(/\s{2,}/));

describe('static pods of the control plane', { timeout: 60_000 }, () => {
  it('single-node: four mirror pods, Running and Ready, owned by the Node, as kubeadm names them', async () => {
    const cluster = createCluster({ seed: 5, topology: 'single-node' });
    expect((await rows(cluster, 'get pods -n kube-system -l tier=control-plane')).map((r) => r.slice(0, 4))).toEqual([
      ['NAME', 'READY', 'STATUS', 'RESTARTS'],
      ['etcd-cp-1', '1/1', 'Running', '0'],
      ['kube-apiserver-cp-1', '1/1', 'Running', '0'],
      ['kube-controller-manager-cp-1', '1/1', 'Running', '0'],
      ['kube-scheduler-cp-1', '1/1', 'Running', '0'],
    ]);
    const pod = await json<Pod>(cluster, 'get pod kube-apiserver-cp-1 -n kube-system');
    const node = await json<Node>(cluster, 'get node cp-1');
    expect(pod.metadata.labels).toEqual({ component: 'kube-apiserver', tier: 'control-plane' });
    expect(pod.metadata.annotations).toMatchObject({
      'kubernetes.io/config.source': 'file',
      'kubernetes.io/config.mirror': pod.metadata.annotations?.['kubernetes.io/config.hash'],
      'kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint': '192.168.49.2:8443',
    });
    expect(pod.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'cp-1', uid: node.metadata.uid, controller: true }]);
    expect(pod.spec).toMatchObject({ nodeName: 'cp-1', hostNetwork: true, priorityClassName: 'system-node-critical', priority: 2000001000 });
    expect(pod.spec.containers[0]?.image).toBe('registry.k8s.io/kube-apiserver:v1.33.0');
    expect((await json<Pod>(cluster, 'get pod etcd-cp-1 -n kube-system')).spec.containers[0]?.image).toBe('registry.k8s.io/etcd:3.5.21-0');
    expect(pod.status).toMatchObject({ phase: 'Running', podIP: '192.168.49.2', hostIP: '192.168.49.2' });
  });

  it('a stopped component shows CrashLoopBackOff, and Running with one restart once it is back', async () => {
    const cluster = createCluster({ seed: 5, topology: 'single-node' });
    await cluster.faults.stopComponent('kube-scheduler-cp-1');
    await cluster.advance(3000);
    const down = await json<Pod>(cluster, 'get pod kube-scheduler-cp-1 -n kube-system');
    expect(down.status?.containerStatuses?.[0]).toMatchObject({ ready: false, restartCount: 0, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 137, reason: 'Error' } } });
    expect(down.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    expect((await rows(cluster, 'get pod kube-scheduler-cp-1 -n kube-system'))[1]?.slice(0, 4)).toEqual(['kube-scheduler-cp-1', '0/1', 'CrashLoopBackOff', '0']);
    await cluster.faults.startComponent('kube-scheduler-cp-1');
    await cluster.advance(3000);
    const up = await json<Pod>(cluster, 'get pod kube-scheduler-cp-1 -n kube-system');
    expect(up.status?.containerStatuses?.[0]).toMatchObject({ ready: true, restartCount: 1, state: { running: {} }, lastState: { terminated: { exitCode: 137 } } });
    expect(up.metadata.uid).toBe(down.metadata.uid);
  });

  it('kubectl delete of a mirror pod: the kubelet creates it again (a new uid), the static pod never stopped', async () => {
    const cluster = createCluster({ seed: 5, topology: 'single-node' });
    const before = await json<Pod>(cluster, 'get pod kube-apiserver-cp-1 -n kube-system');
    const r = await cluster.kubectl('delete pod kube-apiserver-cp-1 -n kube-system');
    expect(r).toMatchObject({ stdout: 'pod "kube-apiserver-cp-1" deleted\n', exitCode: 0 });
    await cluster.advance(2000);
    const after = await json<Pod>(cluster, 'get pod kube-apiserver-cp-1 -n kube-system');
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.metadata.deletionTimestamp).toBeUndefined();
    expect(after.status?.containerStatuses?.[0]).toMatchObject({ ready: true, restartCount: 0, containerID: before.status?.containerStatuses?.[0]?.containerID });
  });

  it('ha: every control-plane node is tainted NoSchedule and runs its four static pods; a managed cluster shows none', async () => {
    const ha = createCluster({ seed: 5, topology: 'ha', workers: 1 });
    for (const name of ['cp-1', 'cp-2', 'cp-3']) {
      expect((await json<Node>(ha, `get node ${name}`)).spec?.taints).toContainEqual({ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' });
    }
    const pods = (await json<{ items: Pod[] }>(ha, 'get pods -n kube-system')).items.filter((p) => p.metadata.annotations?.['kubernetes.io/config.mirror']);
    expect(pods.map((p) => `${p.metadata.name ?? ''}@${p.spec.nodeName ?? ''}`).sort()).toEqual(
      ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'].flatMap((c) => ['cp-1', 'cp-2', 'cp-3'].map((n) => `${c}-${n}@${n}`)).sort());
    const managed = createCluster({ seed: 5, topology: 'managed', workers: 1 });
    const mirrors = (await json<{ items: Pod[] }>(managed, 'get pods -A')).items.filter((p) => p.metadata.annotations?.['kubernetes.io/config.mirror']);
    expect(mirrors).toEqual([]);
  });
});
