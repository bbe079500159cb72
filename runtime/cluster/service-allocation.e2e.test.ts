// The Service allocators across the three API server replicas of an HA cluster: the IPs are
// IPAddress objects and the node ports one RangeAllocation bitmap, both in etcd, so replicas that
// create Services at the same moment never hand out the same value, and `kubectl get ipaddresses`
// / `kubectl get servicecidrs` show the allocator's state.
import { describe, expect, it } from 'vitest';
import type { KubeObject, Service } from '../api/index.ts';
import type { ApiResponse } from '../apiserver/index.ts';
import { createCluster } from './cluster.ts';
import { ADMIN_CREDENTIALS } from './control-plane.ts';

const service = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' },
  spec: { type: 'NodePort', selector: { app: name }, ports: [{ name: 'http', port: 80, protocol: 'TCP' }], ...spec },
} as KubeObject);

describe('Service allocation with three API server replicas', () => {
  it('concurrent creates through different replicas get distinct IPs and ports; a contested IP or port goes to exactly one', { timeout: 120_000 }, async () => {
    const cluster = createCluster({ seed: 41, topology: 'ha', workers: 1 });
    const { controlPlane, driveUntil } = cluster.internals;
    const servers = controlPlane.liveServers();
    expect(servers).toHaveLength(3);
    const answers: ApiResponse[] = [];
    const send = (i: number, body: KubeObject): void => servers[i % 3]!.request(
      { verb: 'create', resource: 'services', namespace: 'default', body, credentials: ADMIN_CREDENTIALS },
      (res) => answers.push(res),
    );
    // in the same instant: 9 random allocations, 3 replicas asking for one IP, 3 for one node port
    for (let i = 0; i < 9; i++) send(i, service(`random-${i}`, {}));
    for (let i = 0; i < 3; i++) send(i, service(`same-ip-${i}`, { type: 'ClusterIP', clusterIP: '10.96.0.77' }));
    for (let i = 0; i < 3; i++) send(i, service(`same-port-${i}`, { ports: [{ name: 'http', port: 80, protocol: 'TCP', nodePort: 30777 }] }));
    expect(driveUntil(() => answers.length === 15, 30_000)).toBe(true);
    expect(new Set(answers.map((a) => a.servedBy)).size).toBe(3);
    const refusals = answers.filter((a) => a.code !== 201).map((a) => (a.body as { message?: string }).message);
    expect(refusals.sort()).toEqual([
      expect.stringContaining('spec.clusterIPs: Invalid value: []string{"10.96.0.77"}: failed to allocate IP 10.96.0.77: provided IP is already allocated'),
      expect.stringContaining('spec.clusterIPs: Invalid value: []string{"10.96.0.77"}: failed to allocate IP 10.96.0.77: provided IP is already allocated'),
      expect.stringContaining('spec.ports[0].nodePort: Invalid value: 30777: provided port is already allocated'),
      expect.stringContaining('spec.ports[0].nodePort: Invalid value: 30777: provided port is already allocated'),
    ]);

    const listed = JSON.parse((await cluster.kubectl('get services -o json')).stdout) as { items: Service[] };
    const ips = listed.items.map((s) => s.spec!.clusterIP!);
    const ports = listed.items.flatMap((s) => (s.spec!.ports ?? []).map((p) => p.nodePort ?? 0)).filter((p) => p > 0);
    expect(listed.items).toHaveLength(1 + 9 + 1 + 1); // kubernetes, the random ones, one winner of each contest
    expect(new Set(ips).size).toBe(ips.length);
    expect(new Set(ports).size).toBe(ports.length);
    expect(ips).toContain('10.96.0.77');
    expect(ports).toContain(30777);
    // the IPAddress objects are exactly the Services' IPs, each pointing at its Service
    const table = (await cluster.kubectl('get ipaddresses')).stdout.trim().split('\n');
    expect(table[0]).toMatch(/^NAME\s+PARENTREF$/);
    const rows = new Map(table.slice(1).map((l) => l.split(/\s+/) as [string, string]));
    // ... and kube-system's kube-dns, at kubeadm's fixed 10.96.0.10
    expect([...rows.keys()].sort()).toEqual([...ips, '10.96.0.10'].sort());
    expect(rows.get('10.96.0.10')).toBe('services/kube-system/kube-dns');
    for (const s of listed.items) expect(rows.get(s.spec!.clusterIP!)).toBe(`services/default/${s.metadata.name}`);
    // the node port bitmap in etcd holds exactly the Services' node ports
    const stored = (await cluster.etcdctl('get /registry/ranges/servicenodeports --print-value-only')).stdout;
    expect(JSON.parse(stored)).toMatchObject({ kind: 'RangeAllocation', range: '30000-32767' });
    expect((await cluster.kubectl('get servicecidrs')).stdout).toMatch(/^NAME\s+CIDRS\s+AGE\nkubernetes\s+10\.96\.0\.0\/12\s+\S+\n$/);

    // deleting a Service gives both back: another Service can ask for them at once
    const winner = listed.items.find((s) => s.metadata.name?.startsWith('same-port-'))!;
    expect((await cluster.kubectl(`delete service ${winner.metadata.name!}`)).exitCode).toBe(0);
    expect((await cluster.kubectl('get ipaddress ' + winner.spec!.clusterIP!)).exitCode).toBe(1);
    send(0, service('reuse', { clusterIP: winner.spec!.clusterIP!, ports: [{ name: 'http', port: 80, protocol: 'TCP', nodePort: 30777 }] }));
    expect(driveUntil(() => answers.length === 16, 30_000)).toBe(true);
    expect(answers[15]!.code).toBe(201);
    // becoming ExternalName gives both back too (dropTypeDependentFields, then the releases)
    expect((await cluster.kubectl(`patch service reuse -p '{"spec":{"type":"ExternalName","externalName":"example.com"}}'`)).stdout).toBe('service/reuse patched\n');
    expect((await cluster.kubectl('get ipaddress ' + winner.spec!.clusterIP!)).exitCode).toBe(1);
    send(1, service('again', { ports: [{ name: 'http', port: 80, protocol: 'TCP', nodePort: 30777 }] }));
    expect(driveUntil(() => answers.length === 17, 30_000)).toBe(true);
    expect(answers[16]!.code).toBe(201);
  });
});
