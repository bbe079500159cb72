// core/v1 Endpoints, deprecated in v1.33 but still served and kept up to date by
// kube-controller-manager's endpoints controller (and, for `kubernetes`, by each API server).
import { describe, expect, it } from 'vitest';
import type { Endpoints } from '../api/index.ts';
import { createCluster } from './index.ts';

const WARNING = 'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n';

describe('Endpoints', { timeout: 120_000 }, () => {
  it('follow a Service\'s pods: ready ones, not-ready ones, scaling, deletion; every request is warned about', async () => {
    const c = createCluster({ seed: 4, topology: 'single-node', workers: 2 });
    await c.kubectl('create deployment web --image=nginx:1.27 --replicas=2');
    await c.kubectl('expose deployment web --port=80');
    await c.advance(20_000);
    const get = async (): Promise<Endpoints> => JSON.parse((await c.kubectl('get endpoints web -o json')).stdout) as Endpoints;

    const listed = await c.kubectl('get endpoints web');
    expect(listed.stderr).toBe(WARNING);
    expect(listed.stdout).toMatch(/^NAME\s+ENDPOINTS\s+AGE\nweb\s+10\.244\.\d+\.\d+:80,10\.244\.\d+\.\d+:80\s+\d+s\n$/);
    const ep = await get();
    expect(ep.metadata.labels).toEqual({ app: 'web' });
    // written with the trigger time, unless the last write retried one the cache refused (then
    // nothing new triggered it and upstream clears it too): trigger-time.test.ts checks the values
    const trigger = ep.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time'];
    if (trigger !== undefined) expect(trigger).toMatch(/^2026-01-01T00:00:\d\dZ$/);
    expect(ep.subsets).toHaveLength(1);
    expect(ep.subsets![0]!.ports).toEqual([{ port: 80, protocol: 'TCP' }]);
    const pods = JSON.parse((await c.kubectl('get pods -l app=web -o json')).stdout) as { items: { metadata: { name: string }; status: { podIP: string } }[] };
    expect(ep.subsets![0]!.addresses!.map((a) => a.ip)).toEqual(pods.items.map((p) => p.status.podIP).sort());
    expect(ep.subsets![0]!.addresses!.map((a) => a.targetRef?.name).sort()).toEqual(pods.items.map((p) => p.metadata.name).sort());

    await c.kubectl('scale deployment web --replicas=5');
    await c.advance(20_000);
    expect((await get()).subsets![0]!.addresses).toHaveLength(5);
    expect((await c.kubectl('get endpoints web')).stdout).toMatch(/ \+ 2 more\.\.\.\s/);
    // no update went out on a cache that had not seen the previous write (staleEndpointsTracker);
    // a create racing the informer can still meet AlreadyExists, as upstream's can
    expect((await c.kubectl('get events -A')).stdout).not.toMatch(/FailedToUpdateEndpoint/);
    const described = (await c.kubectl('describe endpoints web')).stdout;
    expect(described).toMatch(/^Subsets:\n  Addresses:          10\.244\.[\d.,]+\n  NotReadyAddresses:  <none>\n  Ports:\n    Name     Port  Protocol\n    ----     ----  --------\n    <unset>  80    TCP\n\nEvents:  <none>\n$/m);

    // a Service without a selector: its Endpoints are the user's, the controller leaves them be
    const manual = await c.kubectl('apply -f -', { stdin: [
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: manual\nspec:\n  ports:\n  - port: 80',
      'apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: manual\nsubsets:\n- addresses:\n  - ip: 10.1.2.3\n  ports:\n  - port: 80',
    ].join('\n---\n') });
    expect(manual.stdout).toBe('service/manual created\nendpoints/manual created\n');
    await c.advance(5_000);
    expect((await c.kubectl('get endpoints manual')).stdout).toMatch(/manual\s+10\.1\.2\.3:80\s/);
    // ... which the mirroring controller copies into an EndpointSlice, the one kube-proxy reads
    const mirrored = JSON.parse((await c.kubectl('get endpointslices -l kubernetes.io/service-name=manual -o json')).stdout) as { items: { metadata: { labels: Record<string, string> }; endpoints: { addresses: string[] }[]; ports: { port: number }[] }[] };
    expect(mirrored.items.map((s) => [s.metadata.labels['endpointslice.kubernetes.io/managed-by'], s.endpoints.map((e) => e.addresses[0]), s.ports.map((p) => p.port)]))
      .toEqual([['endpointslicemirroring-controller.k8s.io', ['10.1.2.3'], [80]]]);
    // kube-proxy now has a rule for it: the request is sent on to 10.1.2.3
    const manualIP = (JSON.parse((await c.kubectl('get service manual -o json')).stdout) as { spec: { clusterIP: string } }).spec.clusterIP;
    expect(JSON.stringify(c.internals.components.network.sendRequest('worker-1', `${manualIP}:80`))).toContain('10.1.2.3:80');
    await c.kubectl('delete endpoints manual');
    await c.advance(5_000);
    expect((await c.kubectl('get endpointslices -l kubernetes.io/service-name=manual')).stderr).toBe('No resources found in default namespace.\n');

    await c.kubectl('delete service web');
    await c.advance(5_000);
    expect((await c.kubectl('get endpoints web')).stderr).toBe(`${WARNING}Error from server (NotFound): endpoints "web" not found\n`);
  });

  it('are validated like upstream', async () => {
    const c = createCluster({ seed: 4, topology: 'single-node' });
    const bad = await c.kubectl('apply -f -', { stdin: 'apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: bad\nsubsets:\n- addresses:\n  - ip: 127.0.0.1\n  ports:\n  - port: 0\n    name: a\n  - port: 80\n' });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)');
    expect(bad.stderr).toContain('subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive');
    expect(bad.stderr).toContain('subsets[0].ports[1].name: Required value');
  });

  it('kubernetes lists every API server, as the lease reconciler keeps it', async () => {
    const c = createCluster({ seed: 4, topology: 'ha' });
    await c.advance(15_000);
    expect((await c.kubectl('get endpoints kubernetes')).stdout).toMatch(/^NAME\s+ENDPOINTS\s+AGE\nkubernetes\s+192\.168\.49\.2:6443,192\.168\.49\.3:6443,192\.168\.49\.4:6443\s/);
    const ep = JSON.parse((await c.kubectl('get endpoints kubernetes -o json')).stdout) as Endpoints;
    expect(ep.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    expect(ep.subsets![0]!.ports).toEqual([{ name: 'https', port: 6443, protocol: 'TCP' }]);
  });
});
