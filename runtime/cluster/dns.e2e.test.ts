// Cluster DNS as kubeadm installs it: two CoreDNS pods behind the kube-dns Service (10.96.0.10);
// a pod's resolver walks its search list (ndots:5) with UDP queries through kube-proxy's rules to a
// CoreDNS pod, whose kubernetes plugin answers from its informers.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/index.ts';
import { createCluster } from './index.ts';

describe('cluster DNS (CoreDNS)', { timeout: 120_000 }, () => {
  it('runs CoreDNS in kube-system and resolves Service names from a pod', async () => {
    const cluster = createCluster({ seed: 21, topology: 'single-node', workers: 2 });
    await cluster.kubectl('create deployment web --image=nginx:1.27 --replicas=2 --port=80');
    await cluster.kubectl('expose deployment web');
    await cluster.kubectl('run client --image=nginx:1.27');
    await cluster.advance(30_000);

    expect((await cluster.kubectl('get deployment coredns -n kube-system')).stdout).toMatch(/^coredns\s+2\/2\s+2\s+2\s/m);
    expect((await cluster.kubectl('get service kube-dns -n kube-system')).stdout).toMatch(/kube-dns\s+ClusterIP\s+10\.96\.0\.10\s+<none>\s+53\/UDP,53\/TCP,9153\/TCP/);
    expect((await cluster.kubectl('cluster-info')).stdout).toContain(
      'CoreDNS is running at https://192.168.49.2:8443/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n',
    );

    const net = cluster.internals.components.network;
    const client = JSON.parse((await cluster.kubectl('get pod client -o json')).stdout) as Pod;
    const podIP = client.status!.podIP!;
    const web = JSON.parse((await cluster.kubectl('get service web -o json')).stdout) as { spec: { clusterIP: string } };

    const short = net.lookup(podIP, 'web');
    expect(short).toMatchObject({ ok: true, name: 'web.default.svc.cluster.local', addresses: [web.spec.clusterIP], queries: [{ name: 'web.default.svc.cluster.local', rcode: 'NOERROR' }] });
    expect(short.ok && short.server?.name).toMatch(/^coredns-/);
    // ndots:5: a name with fewer dots tries the search list first
    expect(net.lookup(podIP, 'kube-dns.kube-system')).toMatchObject({
      ok: true,
      queries: [{ name: 'kube-dns.kube-system.default.svc.cluster.local', rcode: 'NXDOMAIN' }, { name: 'kube-dns.kube-system.svc.cluster.local', rcode: 'NOERROR' }],
    });
    expect(net.lookup(podIP, 'nope')).toMatchObject({ ok: false, error: 'lookup nope on 10.96.0.10:53: no such host' });

    // a request by name: resolved, then through the Service's rules to one of its pods
    const r = net.sendPodRequest(podIP, 'web:80');
    expect(r).toMatchObject({ ok: true, targetPort: 80, dns: { name: 'web.default.svc.cluster.local' } });
    expect(r.ok && r.pod.name).toMatch(/^web-/);

    // an ExternalName Service is a CNAME: to a name in the cluster, CoreDNS follows it; to one
    // outside, the simulated world has no such host
    await cluster.kubectl('apply -f -', { stdin: [
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: alias\nspec:\n  type: ExternalName\n  externalName: web.default.svc.cluster.local',
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: search\nspec:\n  type: ExternalName\n  externalName: search.example.com',
    ].join('\n---\n') });
    await cluster.advance(2_000);
    expect(net.lookup(podIP, 'alias')).toMatchObject({ ok: true, name: 'alias.default.svc.cluster.local', cname: 'web.default.svc.cluster.local', addresses: [web.spec.clusterIP] });
    expect(net.sendPodRequest(podIP, 'alias:80')).toMatchObject({ ok: true, targetPort: 80 });
    expect(net.lookup(podIP, 'search')).toMatchObject({ ok: false, error: 'lookup search on 10.96.0.10:53: no such host' });
    // a pod's own record (kubeadm's Corefile: pods insecure)
    expect(net.lookup(podIP, `${podIP.replace(/\./g, '-')}.default.pod.cluster.local`)).toMatchObject({ ok: true, addresses: [podIP] });

    // no CoreDNS left: the Service has no endpoint, kube-proxy rejects the query
    await cluster.kubectl('scale deployment coredns -n kube-system --replicas=0');
    await cluster.advance(40_000);
    expect(net.lookup(podIP, 'web')).toEqual({
      ok: false, error: `lookup web on 10.96.0.10:53: read udp ${podIP}->10.96.0.10:53: read: connection refused`, queries: [],
    });
    expect(net.sendPodRequest(podIP, 'web:80')).toMatchObject({ ok: false, error: `dial tcp: lookup web on 10.96.0.10:53: read udp ${podIP}->10.96.0.10:53: read: connection refused` });
  });
});
