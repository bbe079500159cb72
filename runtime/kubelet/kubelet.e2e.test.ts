// End to end on a real simulated cluster: the cluster's kubelet and kube-proxy, with their real
// credentials, driving pods through the API server.
import { describe, expect, it } from 'vitest';
import type { CoreEvent, Lease, Pod } from '../api/index.ts';
import { createCluster, type Cluster } from '../cluster/index.ts';

/**
 * A cluster whose one visible machine is a worker with `preloaded` images, run by the cluster's own
 * kubelet and kube-proxy (with their real credentials); the control plane is hidden (managed).
 */
function boot(preloaded: string[] = []) {
  const cluster = createCluster({ seed: 11, topology: 'managed', workers: [{ images: preloaded.map((name) => ({ names: [name], sizeBytes: 72_000_000 })) }] });
  const { kernel, plan, components } = cluster.internals;
  const machine = plan.machines.find((m) => m.visible)!;
  return { cluster, node: machine.name, cri: components.runtimes.get(machine.name)!, network: components.network, kernel };
}

async function json<T>(cluster: Cluster, args: string): Promise<T> {
  const r = await cluster.kubectl(`${args} -o json`);
  if (r.exitCode !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as T;
}

async function events(cluster: Cluster, pod: string): Promise<CoreEvent[]> {
  const list = await json<{ items: CoreEvent[] }>(cluster, `get events --field-selector involvedObject.name=${pod}`);
  return list.items.sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
}

const podYaml = (name: string, node: string, image: string, extra = ''): string =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels:\n    app: ${name}\nspec:\n  nodeName: ${node}\n${extra}  containers:\n  - name: app\n    image: ${image}\n`;

describe('kubelet end to end', () => {
  it('runs a pod with a cached image: Pending -> Running within 10 s, events in order', async () => {
    const { cluster, node } = boot(['nginx:1.27']);
    await cluster.advance(2000);
    expect((await cluster.kubectl('apply -f -', { stdin: podYaml('web', node, 'nginx:1.27') })).exitCode).toBe(0);
    await cluster.advance(10_000);
    const pod = await json<Pod>(cluster, 'get pod web');
    expect(pod.status?.phase).toBe('Running');
    const podCIDR = (await json<{ spec: { podCIDR: string } }>(cluster, `get node ${node}`)).spec.podCIDR;
    expect(pod.status?.podIP?.startsWith(podCIDR.replace(/0\/24$/, ''))).toBe(true);
    expect(pod.status?.containerStatuses?.[0]).toMatchObject({ name: 'app', ready: true, started: true, restartCount: 0, image: 'docker.io/library/nginx:1.27', containerID: expect.stringMatching(/^containerd:\/\/[0-9a-f]{64}$/) });
    expect(pod.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
    const evs = await events(cluster, 'web');
    expect(evs.map((e) => `${e.reason}: ${e.message}`)).toEqual([
      'Pulled: Container image "nginx:1.27" already present on machine',
      'Created: Created container: app',
      'Started: Started container app',
    ]);
    expect(evs[0]).toMatchObject({ source: { component: 'kubelet', host: node }, involvedObject: { fieldPath: 'spec.containers{app}' } });
  });

  it('gives hostNetwork pods the node IP (no CNI address), other pods one from the podCIDR', async () => {
    const { cluster, node } = boot(['nginx:1.27']);
    expect((await cluster.kubectl('apply -f -', { stdin: podYaml('web', node, 'nginx:1.27') })).exitCode).toBe(0);
    await cluster.advance(5000);
    const system = await json<{ items: Pod[] }>(cluster, 'get pods -n kube-system');
    const proxy = system.items.find((p) => p.metadata.name?.startsWith('kube-proxy-'))!;
    expect(proxy.spec.hostNetwork).toBe(true);
    expect(proxy.status?.podIP).toBe(proxy.status?.hostIP);
    const web = await json<Pod>(cluster, 'get pod web');
    expect(web.status?.podIP).toBeDefined();
    expect(web.status?.podIP).not.toBe(web.status?.hostIP);
  });

  it('pulls a missing image with the Pulling / Pulled texts', async () => {
    const { cluster, node } = boot();
    await cluster.advance(2000);
    await cluster.kubectl('apply -f -', { stdin: podYaml('web', node, 'nginx:1.27') });
    await cluster.advance(10_000);
    const msgs = (await events(cluster, 'web')).map((e) => `${e.reason}: ${e.message}`);
    expect(msgs.slice(0, 2)).toEqual([
      'Pulling: Pulling image "nginx:1.27"',
      'Pulled: Successfully pulled image "nginx:1.27" in 1.69s (1.69s including waiting). Image size: 72000000 bytes.',
    ]);
  });

  it('backs a crashing container off: restart at once, then 10 s, then 20 s (CrashLoopBackOff)', async () => {
    const image = 'ghcr.io/inside-cp/exit-1';
    const { cluster, node } = boot([image]);
    await cluster.advance(2000);
    await cluster.kubectl('apply -f -', { stdin: podYaml('crash', node, image) });
    const samples: string[] = [];
    for (let i = 0; i < 40; i++) {
      await cluster.advance(1000);
      const s = (await json<Pod>(cluster, 'get pod crash')).status?.containerStatuses?.[0];
      samples.push(`${s?.restartCount ?? 0}:${s?.state?.waiting?.reason ?? (s?.state?.running ? 'Running' : 'Terminated')}`);
    }
    const restartTimes = samples.map((x) => Number(x.split(':')[0])).reduce<number[]>((acc, n, i, all) => (i > 0 && n > all[i - 1]! ? [...acc, i] : acc), []);
    // exits 0.5 s after each start; restart 1 comes at once, restart 2 about 10 s after exit 2, restart 3 about 20 s after exit 3
    expect(restartTimes.length).toBe(3);
    expect(restartTimes[1]! - restartTimes[0]!).toBeGreaterThanOrEqual(10);
    expect(restartTimes[1]! - restartTimes[0]!).toBeLessThanOrEqual(12);
    expect(restartTimes[2]! - restartTimes[1]!).toBeGreaterThanOrEqual(20);
    expect(restartTimes[2]! - restartTimes[1]!).toBeLessThanOrEqual(22);
    expect(samples).toContain('1:CrashLoopBackOff');
    const pod = await json<Pod>(cluster, 'get pod crash');
    expect(pod.status?.phase).toBe('Running');
    const backoff = (await events(cluster, 'crash')).find((e) => e.reason === 'BackOff');
    expect(backoff?.message).toBe(`Back-off restarting failed container app in pod crash_default(${pod.metadata.uid ?? ''})`);
    expect(backoff?.type).toBe('Warning');
  });

  it('terminates gracefully on delete: SIGTERM, wait, then the pod object is gone', async () => {
    const image = 'ghcr.io/inside-cp/ignore-sigterm';
    const { cluster, node } = boot([image]);
    await cluster.advance(2000);
    await cluster.kubectl('apply -f -', { stdin: podYaml('stubborn', node, image, '  terminationGracePeriodSeconds: 5\n') });
    await cluster.advance(5000);
    const started = cluster.now();
    await cluster.kubectl('delete pod stubborn --wait=false');
    await cluster.advance(3000);
    expect((await cluster.kubectl('get pod stubborn')).exitCode).toBe(0);
    await cluster.advance(4000);
    const gone = await cluster.kubectl('get pod stubborn');
    expect(gone.stderr).toContain('pods "stubborn" not found');
    expect(cluster.now() - started).toBeGreaterThanOrEqual(5000);
    expect((await events(cluster, 'stubborn')).map((e) => e.reason)).toContain('Killing');
  });

  it('renews its Lease every 10 s, and a stopped kubelet stops renewing it', async () => {
    const { cluster, node, kernel } = boot();
    await cluster.advance(15_000);
    const a = await json<Lease>(cluster, `get lease ${node} -n kube-node-lease`);
    expect(a.spec).toMatchObject({ holderIdentity: node, leaseDurationSeconds: 40 });
    await cluster.advance(10_000);
    const b = await json<Lease>(cluster, `get lease ${node} -n kube-node-lease`);
    expect(b.spec?.renewTime).not.toBe(a.spec?.renewTime);
    kernel.crash(`kubelet-${node}`);
    await cluster.advance(500);
    const c = await json<Lease>(cluster, `get lease ${node} -n kube-node-lease`);
    await cluster.advance(30_000);
    const d = await json<Lease>(cluster, `get lease ${node} -n kube-node-lease`);
    expect(d.spec?.renewTime).toBe(c.spec?.renewTime);
  });

  it('reaches a pod through a Service cluster IP and kube-proxy rules', async () => {
    const { cluster, node, network } = boot(['nginx:1.27']);
    await cluster.advance(2000);
    await cluster.kubectl('apply -f -', { stdin: podYaml('web', node, 'nginx:1.27') });
    await cluster.advance(8000);
    const pod = await json<Pod>(cluster, 'get pod web');
    const svc = `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  clusterIP: 10.96.100.1\n  selector:\n    app: web\n  ports:\n  - name: http\n    port: 80\n    targetPort: 80\n`;
    // no EndpointSlice controller here yet: write the slice it would write
    const slice = `apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: web-abcde\n  labels:\n    kubernetes.io/service-name: web\naddressType: IPv4\nendpoints:\n- addresses: ["${pod.status?.podIP ?? ''}"]\n  conditions:\n    ready: true\nports:\n- name: http\n  port: 80\n  protocol: TCP\n`;
    expect((await cluster.kubectl('apply -f -', { stdin: `${svc}---\n${slice}` })).stderr).toBe('');
    await cluster.advance(3000);
    const r = network.sendRequest(node, '10.96.100.1:80');
    expect(r).toMatchObject({ ok: true, pod: { name: 'web', namespace: 'default' }, podIP: pod.status?.podIP });
    expect(r.chains[0]).toBe('KUBE-SERVICES');
    expect(r.chains[1]).toMatch(/^KUBE-SVC-/);
  });
});
