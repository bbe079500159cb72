// kube-proxy lives in its DaemonSet pod: delete the pod on one node and that node's Service rules
// go stale (the rules it wrote stay, new Services are not added) until the DaemonSet's replacement
// pod runs and its kube-proxy does a full sync. The scheduler is stopped while the pod is gone, so
// the replacement stays Pending (DaemonSet pods are bound by the default scheduler) for as long as
// the test needs to look.
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../index.ts';
import { ok } from './kubectl-ok.test-helper.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON printed by kubectl, probed field by field
type Json = Record<string, any>;

const NGINX = { names: ['nginx:1.27'], sizeBytes: 72_000_000 };
const service = (name: string): string => `apiVersion: v1
kind: Service
metadata: { name: ${name} }
spec:
  selector: { app: web }
  ports:
  - { port: 80, targetPort: 80 }
`;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - { name: web, image: 'nginx:1.27' }
`;

async function json(cluster: Cluster, args: string): Promise<Json> {
  return JSON.parse(await ok(cluster, `${args} -o json`)) as Json;
}

async function until(cluster: Cluster, check: () => Promise<boolean>, budgetMs: number): Promise<void> {
  const start = cluster.now();
  while (!(await check())) {
    if (cluster.now() - start > budgetMs) throw new Error(`condition not met within ${budgetMs / 1000} simulated seconds`);
    await cluster.advance(1000);
  }
}

/** The node's kube-proxy pod: name and phase ('' when there is none). */
async function kubeProxyPod(cluster: Cluster, node: string): Promise<{ name: string; phase: string; node: string }[]> {
  const list = await json(cluster, 'get pods -n kube-system -l k8s-app=kube-proxy');
  return (list.items as Json[])
    .filter((p) => (p.spec.nodeName ?? node) === node && !p.metadata.deletionTimestamp)
    .map((p) => ({ name: p.metadata.name as string, phase: p.status?.phase as string, node: p.spec.nodeName ?? '' }));
}

async function clusterIP(cluster: Cluster, name: string): Promise<string> {
  return (await json(cluster, `get service ${name}`)).spec.clusterIP as string;
}

/** Waits until the Service's one endpoint is ready, then a second for kube-proxies to sync. */
async function endpointsReady(cluster: Cluster, name: string): Promise<void> {
  await until(cluster, async () => {
    const slices = await json(cluster, `get endpointslices -l kubernetes.io/service-name=${name}`);
    return (slices.items as Json[]).some((s) => ((s.endpoints ?? []) as Json[]).some((e) => e.conditions?.ready === true));
  }, 30_000);
  await cluster.advance(2_000); // kube-proxy syncs at most once a second
}

describe('kube-proxy runs in its DaemonSet pod', { timeout: 120_000 }, () => {
  it('a node whose kube-proxy pod is gone keeps its old rules, misses a new Service, and catches up when the replacement runs', async () => {
    const cluster = createCluster({ seed: 7, workers: [{ images: [NGINX] }] });
    const { network } = cluster.internals.components;
    await ok(cluster, 'apply -f -', DEPLOYMENT);
    await ok(cluster, 'apply -f -', service('before'));
    await endpointsReady(cluster, 'before');
    const before = await clusterIP(cluster, 'before');
    expect(network.sendRequest('worker-1', `${before}:80`).ok).toBe(true);

    // no scheduler: the DaemonSet's replacement pod will wait, unbound
    await cluster.faults.stopComponent('kube-scheduler-cp-1');
    const [old] = await kubeProxyPod(cluster, 'worker-1');
    expect(old?.phase).toBe('Running');
    await ok(cluster, `delete pod ${old!.name} -n kube-system`);
    await until(cluster, async () => cluster.internals.kernel.process('kube-proxy-worker-1')?.up === false, 30_000);
    const crashedAtMs = cluster.now();

    await ok(cluster, 'apply -f -', service('after'));
    await endpointsReady(cluster, 'after');
    const after = await clusterIP(cluster, 'after');
    // cp-1's kube-proxy programmed the new Service; worker-1's rules are the ones it had
    expect(network.sendRequest('cp-1', `${after}:80`)).toMatchObject({ ok: true, pod: { node: 'worker-1' } });
    const stale = network.sendRequest('worker-1', `${after}:80`);
    expect(stale).toMatchObject({ ok: false, error: `dial tcp ${after}:80: connect: no route to host` });
    expect(network.iptablesSave('worker-1')).not.toContain('default/after');
    expect(network.sendRequest('worker-1', `${before}:80`).ok).toBe(true); // iptables outlived the process
    const replacement = (await json(cluster, 'get pods -n kube-system -l k8s-app=kube-proxy')).items as Json[];
    expect(replacement.filter((p) => !p.spec.nodeName)).toHaveLength(1); // Pending, not bound

    await cluster.faults.startComponent('kube-scheduler-cp-1');
    await until(cluster, async () => (await kubeProxyPod(cluster, 'worker-1')).some((p) => p.node === 'worker-1' && p.phase === 'Running'), 60_000);
    await cluster.advance(2_000);
    expect(network.sendRequest('worker-1', `${after}:80`)).toMatchObject({ ok: true, pod: { node: 'worker-1' } });
    expect(network.iptablesSave('worker-1')).toContain('default/after');

    // the trace tells it: the process died with its container and a new one started with a full sync
    const events = cluster.trace().filter((e) => e.timeMs >= crashedAtMs - 30_000);
    const crash = events.findIndex((e) => e.kind === 'process.crash' && e.actor === 'kube-proxy-worker-1');
    const restart = events.findIndex((e, i) => i > crash && e.kind === 'kube-proxy.start' && e.actor === 'kube-proxy-worker-1');
    const sync = events.findIndex((e, i) => i > restart && e.kind === 'kube-proxy.sync' && e.actor === 'kube-proxy-worker-1');
    expect([crash >= 0, restart > crash, sync > restart]).toEqual([true, true, true]);
  });

  it('a rebooted node has no Service rules (iptables lives in the kernel) until its kube-proxy syncs again', async () => {
    const cluster = createCluster({ seed: 7, workers: [{ images: [NGINX] }, { images: [NGINX] }] });
    const { network } = cluster.internals.components;
    await ok(cluster, 'apply -f -', DEPLOYMENT);
    await ok(cluster, 'apply -f -', service('web'));
    await endpointsReady(cluster, 'web');
    const ip = await clusterIP(cluster, 'web');
    const target = (await json(cluster, 'get pods -l app=web')).items[0].spec.nodeName as string;
    const rebooted = target === 'worker-1' ? 'worker-2' : 'worker-1';
    expect(network.sendRequest(rebooted, `${ip}:80`).ok).toBe(true);

    await cluster.faults.stopNode(rebooted);
    expect(network.iptablesSave(rebooted)).not.toContain('default/web');
    await cluster.faults.startNode(rebooted);
    // the kernel came back empty: nothing answers the cluster IP from this node yet
    expect(network.sendRequest(rebooted, `${ip}:80`)).toMatchObject({ ok: false, error: `dial tcp ${ip}:80: connect: no route to host` });
    await until(cluster, async () => network.sendRequest(rebooted, `${ip}:80`).ok, 120_000);
    expect(network.iptablesSave(rebooted)).toContain('default/web');
  });
});
