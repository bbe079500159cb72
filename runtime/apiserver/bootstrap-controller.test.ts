// The kubernetes Service and its lease-reconciled EndpointSlice: the shapes, then end to end on
// createCluster (a replica that dies leaves the slice once its 15 s master lease runs out).
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster/index.ts';
import { kubernetesEndpointSlice, kubernetesService } from './bootstrap-controller.ts';

describe('the objects the bootstrap controller writes', () => {
  it('Service default/kubernetes: 10.96.0.1, https 443 -> the secure port, labels component=apiserver provider=kubernetes', () => {
    expect(kubernetesService(6443)).toMatchObject({
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }] },
    });
    expect((kubernetesService(6443) as unknown as { spec: { selector?: unknown } }).spec.selector).toBeUndefined();
  });
  it.each<[string[], string[]]>([
    [['192.168.49.4', '192.168.49.2', '192.168.49.3'], ['192.168.49.2', '192.168.49.3', '192.168.49.4']],
    [['10.0.0.10', '10.0.0.9'], ['10.0.0.9', '10.0.0.10']],
    [[], []],
  ])('EndpointSlice kubernetes for %j lists %j, each ready, port https 6443', (ips, sorted) => {
    const slice = kubernetesEndpointSlice(ips, 6443) as unknown as { metadata: { labels: Record<string, string> }; addressType: string; endpoints: { addresses: string[]; conditions: { ready: boolean } }[]; ports: unknown[] };
    expect(slice.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'kubernetes' });
    expect(slice.addressType).toBe('IPv4');
    expect(slice.endpoints).toEqual(sorted.map((ip) => ({ addresses: [ip], conditions: { ready: true } })));
    expect(slice.ports).toEqual([{ name: 'https', port: 6443, protocol: 'TCP' }]);
  });
});

const sliceIPs = async (cluster: Cluster): Promise<string[]> => {
  const r = await cluster.kubectl('get endpointslice kubernetes -o json');
  return (JSON.parse(r.stdout) as { endpoints?: { addresses: string[] }[] }).endpoints?.flatMap((e) => e.addresses) ?? [];
};

describe('the kubernetes Service on a cluster', { timeout: 60_000 }, () => {
  it('single-node: kubectl get svc shows it as a real cluster does, its endpoint the API server on 8443', async () => {
    const cluster = createCluster({ seed: 2, topology: 'single-node' });
    const out = (await cluster.kubectl('get svc')).stdout.split('\n');
    expect(out[0]).toBe('NAME         TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE');
    expect(out[1]).toMatch(/^kubernetes {3}ClusterIP {3}10\.96\.0\.1 {4}<none> {8}443\/TCP {3}\d+s$/);
    expect(await sliceIPs(cluster)).toEqual(['192.168.49.2']);
    expect((await cluster.kubectl('get endpointslice kubernetes -o jsonpath={.ports[0].port}')).stdout).toBe('8443');
    // 10.96.0.1 is taken: another Service cannot have it
    const svc = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: mine\nspec:\n  clusterIP: 10.96.0.1\n  ports:\n  - port: 80\n';
    const r = await cluster.kubectl('apply -f -', { stdin: svc });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('failed to allocate IP 10.96.0.1: provided IP is already allocated');
    // deleted, it is back within one 10 s round
    const uid = (await cluster.kubectl('get svc kubernetes -o jsonpath={.metadata.uid}')).stdout;
    expect((await cluster.kubectl('delete svc kubernetes')).exitCode).toBe(0);
    await cluster.advance(11_000);
    expect((await cluster.kubectl('get svc kubernetes -o jsonpath={.spec.clusterIP}')).stdout).toBe('10.96.0.1');
    expect((await cluster.kubectl('get svc kubernetes -o jsonpath={.metadata.uid}')).stdout).not.toBe(uid);
  });

  it('ha: one endpoint per live API server; a stopped one drops out when its master lease expires, and comes back', async () => {
    const cluster = createCluster({ seed: 2, topology: 'ha', workers: 0 });
    expect(await sliceIPs(cluster)).toEqual(['192.168.49.2', '192.168.49.3', '192.168.49.4']);
    expect((await cluster.etcdctl('get /registry/masterleases/ --prefix --keys-only')).stdout.split('\n').filter(Boolean)).toEqual(
      ['/registry/masterleases/192.168.49.2', '/registry/masterleases/192.168.49.3', '/registry/masterleases/192.168.49.4']);
    await cluster.faults.stopComponent('kube-apiserver-cp-2');
    await cluster.advance(8000);
    expect(await sliceIPs(cluster)).toContain('192.168.49.3'); // its lease still runs
    await cluster.advance(25_000); // 15 s TTL + a 10 s reconcile round
    expect(await sliceIPs(cluster)).toEqual(['192.168.49.2', '192.168.49.4']);
    await cluster.faults.startComponent('kube-apiserver-cp-2');
    await cluster.advance(15_000);
    expect(await sliceIPs(cluster)).toEqual(['192.168.49.2', '192.168.49.3', '192.168.49.4']);
  });
});
