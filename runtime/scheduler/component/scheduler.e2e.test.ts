// kube-scheduler end to end on createCluster: informers, queue, binding, events, status and the
// simulator's annotations, with the scheduler's real credentials (CN system:kube-scheduler).
import { describe, expect, it } from 'vitest';
import type { CoreEvent, Pod } from '../../api/index.ts';
import { createCluster, type Cluster } from '../../cluster/index.ts';
import { FILTER_RESULT, SELECTED_NODE, SCORE_RESULT } from '../annotations.ts';
import { startScheduler, type SchedulerHandle } from './start.ts';

const SCHEDULER_CREDENTIALS = { clientCert: { commonName: 'system:kube-scheduler' } };

function withScheduler(seed: number, config?: object): { cluster: Cluster; scheduler: SchedulerHandle } {
  const cluster = createCluster({ seed, topology: 'ha', components: { scheduler: false } });
  const { kernel, restClient } = cluster.internals;
  const scheduler = startScheduler(kernel, {
    name: 'kube-scheduler-cp-1',
    restClient: restClient('kube-scheduler-cp-1-client', { credentials: SCHEDULER_CREDENTIALS }),
    resultClient: restClient('kube-scheduler-simulator'),
    ...(config ? { config } : {}),
  });
  // the kube-proxy and kindnet DaemonSet pods wait for this scheduler: let them land first, so
  // their binding and start-up events are over before a test's own pods arrive
  cluster.internals.kernel.runFor(20_000);
  return { cluster, scheduler };
}

function podYAML(name: string, cpu = '100m'): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests:
        cpu: "${cpu}"
        memory: 64Mi
`;
}

async function getPod(cluster: Cluster, name: string): Promise<Pod> {
  const r = await cluster.kubectl(`get pod ${name} -o json`);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Pod;
}

async function events(cluster: Cluster, pod: string): Promise<CoreEvent[]> {
  const r = await cluster.kubectl(`get events -o json --field-selector involvedObject.name=${pod}`);
  return (JSON.parse(r.stdout) as { items: CoreEvent[] }).items;
}

describe('kube-scheduler on an HA cluster', () => {
  it('binds a pod to a worker, never the tainted control plane, and says why', { timeout: 120_000 }, async () => {
    const { cluster, scheduler } = withScheduler(7);
    expect((await cluster.kubectl('apply -f -', { stdin: podYAML('web') })).exitCode).toBe(0);
    await cluster.advance(20_000); // leader election (up to a retry period) and one cycle
    expect(scheduler.running()).toBeDefined();

    const pod = await getPod(cluster, 'web');
    const node = pod.spec.nodeName ?? '';
    expect(node).toMatch(/^worker-/);
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');

    const annotations = pod.metadata.annotations ?? {};
    expect(annotations[SELECTED_NODE]).toBe(node);
    const filter = JSON.parse(annotations[FILTER_RESULT] ?? '{}') as Record<string, Record<string, string>>;
    expect(filter['cp-1']?.['TaintToleration']).toBe(
      "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }",
    );
    expect(filter[node]?.['NodeResourcesFit']).toBe('passed');
    expect(Object.keys(JSON.parse(annotations[SCORE_RESULT] ?? '{}') as object).sort()).toEqual([
      'worker-1',
      'worker-2',
      'worker-3',
    ]);

    const scheduled = (await events(cluster, 'web')).filter((e) => e.reason === 'Scheduled');
    expect(scheduled).toHaveLength(1);
    // recorded through events.k8s.io/v1 (client-go tools/events), read back through core/v1
    expect(scheduled[0]).toMatchObject({
      type: 'Normal',
      message: `Successfully assigned default/web to ${node}`,
      action: 'Binding',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-cp-1',
      source: {},
      firstTimestamp: null,
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
    });
    expect(scheduled[0]?.count).toBeUndefined();
  });

  it('leaves a pod that fits nowhere Pending with the exact FailedScheduling message', { timeout: 120_000 }, async () => {
    const { cluster } = withScheduler(8);
    expect((await cluster.kubectl('apply -f -', { stdin: podYAML('huge', '64') })).exitCode).toBe(0);
    await cluster.advance(20_000);

    const pod = await getPod(cluster, 'huge');
    expect(pod.spec.nodeName).toBeUndefined();
    const message =
      '0/6 nodes are available: 3 Insufficient cpu, 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. ' +
      'preemption: 0/6 nodes are available: 3 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.';
    expect(pod.status?.phase).toBe('Pending');
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message,
      lastProbeTime: null,
    });
    const failed = (await events(cluster, 'huge')).filter((e) => e.reason === 'FailedScheduling');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ type: 'Warning', message, action: 'Scheduling', reportingComponent: 'default-scheduler', source: {} });
    const filter = JSON.parse(pod.metadata.annotations?.[FILTER_RESULT] ?? '{}') as Record<string, Record<string, string>>;
    expect(filter['worker-1']?.['NodeResourcesFit']).toBe('Insufficient cpu');

    // parked in unschedulablePods: no retry until an event may help or 5 minutes pass
    const failures = async (): Promise<CoreEvent[]> => (await events(cluster, 'huge')).filter((e) => e.reason === 'FailedScheduling');
    await cluster.advance(60_000);
    expect(await failures()).toHaveLength(1);
    // the retry is about a pod of another resourceVersion (the first failure wrote its condition and
    // the simulator's annotations), so it is not isomorphic to the first event: a second event
    await cluster.advance(300_000);
    expect((await failures()).map((e) => e.series?.count)).toStrictEqual([undefined, undefined]);
  });

  it('a node label that may help moves the pending pod, and it is scheduled there', { timeout: 120_000 }, async () => {
    const { cluster } = withScheduler(9);
    const picky = podYAML('picky').replace('spec:\n', 'spec:\n  nodeSelector:\n    disk: ssd\n');
    expect(await cluster.kubectl('apply -f -', { stdin: picky })).toMatchObject({ stderr: '', exitCode: 0 });
    await cluster.advance(20_000);
    const pending = await getPod(cluster, 'picky');
    expect(pending.spec.nodeName).toBeUndefined();
    expect(pending.status?.conditions?.[0]?.message).toBe(
      "0/6 nodes are available: 3 node(s) didn't match Pod's node affinity/selector, 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. " +
        'preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.',
    );
    await cluster.advance(60_000); // parked: nothing retries it
    expect((await getPod(cluster, 'picky')).spec.nodeName).toBeUndefined();
    expect((await cluster.kubectl('label node worker-2 disk=ssd')).exitCode).toBe(0);
    await cluster.advance(5_000);
    expect((await getPod(cluster, 'picky')).spec.nodeName).toBe('worker-2');
    // the scheduler's own events (the kubelet then adds Pulling, Pulled, Created, Started)
    const reasons = (await events(cluster, 'picky'))
      .filter((e) => e.source?.component === 'default-scheduler' || e.reportingComponent === 'default-scheduler')
      .map((e) => `${e.reason}/${e.action ?? ''}`);
    expect(reasons).toEqual(['FailedScheduling/Scheduling', 'Scheduled/Binding']);
  });

  it('chooses the same nodes for the same seed', { timeout: 180_000 }, async () => {
    const placements = async (seed: number): Promise<string[]> => {
      const { cluster } = withScheduler(seed);
      const names = ['a', 'b', 'c', 'd', 'e'];
      const yaml = names.map((n) => podYAML(n)).join('---\n');
      expect((await cluster.kubectl('apply -f -', { stdin: yaml })).exitCode).toBe(0);
      await cluster.advance(20_000);
      const list = JSON.parse((await cluster.kubectl('get pods -o json')).stdout) as { items: Pod[] };
      return list.items.map((p) => `${p.metadata.name ?? ''}=${p.spec.nodeName ?? ''}`);
    };
    const first = await placements(11);
    expect(first).toHaveLength(5);
    for (const p of first) expect(p).toMatch(/^[a-e]=worker-\d$/);
    expect(await placements(11)).toEqual(first);
  });
});
