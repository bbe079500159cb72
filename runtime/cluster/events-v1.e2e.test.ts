// events.k8s.io/v1 end to end through cluster.kubectl(): kube-scheduler and kube-proxy record their
// events as client-go tools/events does (action, reportingController/Instance, eventTime, series),
// the API server keeps them in the core/v1 shape and converts, and kubectl shows them as upstream:
// `get events -o yaml` (core/v1: source {}, firstTimestamp null), `get events.events.k8s.io -o yaml`
// (regarding, note), `get events -o wide` and `describe pod`.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { CoreEvent, Event, List } from '../api/index.ts';
import { createCluster, type Cluster } from './index.ts';
import { ok } from './kubectl-ok.test-helper.ts';

const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

const yamlList = async <T>(cluster: Cluster, args: string): Promise<T[]> => (parse(await ok(cluster, `${args} -o yaml`)) as List<T>).items;

/** Advances one simulated second at a time until check() holds. */
async function until(cluster: Cluster, check: () => Promise<boolean>, budgetMs: number): Promise<void> {
  const start = cluster.now();
  while (!(await check())) {
    if (cluster.now() - start > budgetMs) throw new Error(`condition not met within ${budgetMs / 1000} simulated seconds`);
    await cluster.advance(1000);
  }
}

async function rolledOut(cluster: Cluster): Promise<Cluster> {
  await ok(cluster, 'create deployment web --image=nginx:1.27 --replicas=2');
  await until(cluster, async () => (await cluster.kubectl('rollout status deployment/web --timeout=1s')).exitCode === 0, 120_000);
  return cluster;
}

describe('events.k8s.io/v1', { timeout: 240_000 }, () => {
  it('the scheduler\'s Scheduled event, as core/v1 and as events.k8s.io/v1 see it', async () => {
    const cluster = await rolledOut(createCluster({ seed: 11 }));
    const core = (await yamlList<CoreEvent>(cluster, 'get events')).filter((e) => e.reason === 'Scheduled');
    expect(core).toHaveLength(2);
    const [scheduled] = core;
    // an events.k8s.io-born event read through core/v1: no source, no first/last timestamps, no count
    expect(scheduled).toMatchObject({
      apiVersion: 'v1', kind: 'Event', type: 'Normal', action: 'Binding',
      reportingComponent: 'default-scheduler', reportingInstance: 'default-scheduler-cp-1',
      source: {}, firstTimestamp: null, lastTimestamp: null,
      involvedObject: { kind: 'Pod', apiVersion: 'v1', namespace: 'default' },
    });
    expect(scheduled?.message).toMatch(/^Successfully assigned default\/web-[a-z0-9]+-[a-z0-9]{5} to cp-1$/);
    expect(scheduled?.eventTime).toMatch(MICRO_TIME);
    expect(scheduled).not.toHaveProperty('count');
    expect(scheduled).not.toHaveProperty('series');

    const v1 = (await yamlList<Event>(cluster, 'get events.events.k8s.io')).find((e) => e.metadata.name === scheduled?.metadata.name);
    expect(v1).toStrictEqual({
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: scheduled?.metadata,
      eventTime: scheduled?.eventTime, action: 'Binding', reason: 'Scheduled', type: 'Normal',
      reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-cp-1',
      regarding: scheduled?.involvedObject, note: scheduled?.message,
      deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null,
    });
    // a core-born event (the kubelet's) read through events.k8s.io/v1: the deprecated fields, eventTime null
    const pulled = (await yamlList<Event>(cluster, 'get events.events.k8s.io --field-selector reason=Pulled'))[0];
    expect(pulled).toMatchObject({
      eventTime: null, reportingController: 'kubelet', reportingInstance: 'cp-1',
      deprecatedSource: { component: 'kubelet', host: 'cp-1' }, deprecatedCount: 1,
    });
    expect(pulled?.deprecatedFirstTimestamp).toMatch(/Z$/);
    expect(pulled).not.toHaveProperty('action');
  });

  it('each scheduler profile reports as its own schedulerName', async () => {
    const cluster = createCluster({
      seed: 16,
      scheduler: { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', profiles: [{ schedulerName: 'default-scheduler' }, { schedulerName: 'batch-scheduler' }] },
    });
    await ok(cluster, 'apply -f -', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: job\nspec:\n  schedulerName: batch-scheduler\n  containers:\n  - name: app\n    image: nginx:1.27\n');
    await until(cluster, async () => (await cluster.kubectl('get events.events.k8s.io --field-selector regarding.name=job,reason=Scheduled -o name')).stdout !== '', 60_000);
    const [scheduled] = await yamlList<Event>(cluster, 'get events.events.k8s.io --field-selector regarding.name=job,reason=Scheduled');
    expect(scheduled).toMatchObject({ reportingController: 'batch-scheduler', reportingInstance: 'batch-scheduler-cp-1', action: 'Binding' });
  });

  it('kube-proxy\'s Starting event, selected by events.k8s.io field labels', async () => {
    const cluster = createCluster({ seed: 12 });
    await until(cluster, async () => (await cluster.kubectl('get events.events.k8s.io --field-selector reportingController=kube-proxy -o name')).stdout !== '', 60_000);
    const [starting] = await yamlList<Event>(cluster, 'get events.events.k8s.io --field-selector reportingController=kube-proxy,regarding.kind=Node');
    expect(starting).toMatchObject({
      reason: 'Starting', action: 'StartKubeProxy', type: 'Normal',
      reportingController: 'kube-proxy', reportingInstance: 'kube-proxy-cp-1',
      regarding: { kind: 'Node', name: 'cp-1', uid: 'cp-1' }, metadata: { namespace: 'default' },
    });
    expect(starting).not.toHaveProperty('note');
    // core/v1's field labels are not events.k8s.io's
    expect(await cluster.kubectl('get events.events.k8s.io --field-selector involvedObject.kind=Node')).toMatchObject({
      stderr: 'Error from server (BadRequest): field label not supported: involvedObject.kind\n', exitCode: 1,
    });
  });

  it('kubectl get events -o wide and describe pod show the reporting controller', async () => {
    const cluster = await rolledOut(createCluster({ seed: 13 }));
    const wide = (await ok(cluster, 'get events -o wide --field-selector reason=Scheduled')).trim().split('\n');
    expect(wide[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+SUBOBJECT\s+SOURCE\s+MESSAGE\s+FIRST SEEN\s+COUNT\s+NAME$/);
    expect(wide).toHaveLength(3);
    for (const row of wide.slice(1)) {
      expect(row).toMatch(/^\S+\s+Normal\s+Scheduled\s+pod\/web-\S+\s+default-scheduler, default-scheduler-cp-1\s+Successfully assigned default\/web-\S+ to cp-1\s+\S+\s+1\s+web-\S+$/);
    }
    const pod = (await ok(cluster, 'get pods -o name')).trim().split('\n')[0]!;
    expect(await ok(cluster, `describe ${pod}`)).toMatch(/\n {2}Normal {2}Scheduled +\d+s +default-scheduler +Successfully assigned default\/web-\S+ to cp-1\n/);
  });

  it('kubectl writes through events.k8s.io: validated by its rules, stored as core/v1, patched as v1', async () => {
    const cluster = createCluster({ seed: 15 });
    const event = (extra: string): string => `apiVersion: events.k8s.io/v1
kind: Event
metadata: { name: hello.1, namespace: default }
reason: Hello
note: hi there
type: Normal
regarding: { kind: Pod, name: hello, namespace: default }
${extra}`;
    expect(await cluster.kubectl('create -f -', { stdin: event('') })).toMatchObject({
      stderr: 'The Event "hello.1" is invalid: eventTime: Required value\n', exitCode: 1,
    });
    const good = 'eventTime: "2026-01-01T00:00:01.000000Z"\naction: Greet\nreportingController: example.com/greeter\nreportingInstance: greeter-1\n';
    expect(await ok(cluster, 'create -f -', event(good))).toBe('event.events.k8s.io/hello.1 created\n');
    const [core] = await yamlList<CoreEvent>(cluster, 'get events --field-selector reason=Hello');
    expect(core).toMatchObject({ message: 'hi there', involvedObject: { kind: 'Pod', name: 'hello' }, reportingComponent: 'example.com/greeter', source: {}, firstTimestamp: null });
    await ok(cluster, `patch events.events.k8s.io hello.1 --type=merge -p '{"series":{"count":3,"lastObservedTime":"2026-01-01T00:05:00.000000Z"}}'`);
    expect((await yamlList<CoreEvent>(cluster, 'get events --field-selector reason=Hello'))[0]?.series).toStrictEqual({ count: 3, lastObservedTime: '2026-01-01T00:05:00.000000Z' });
    expect(await cluster.kubectl(`patch events.events.k8s.io hello.1 --type=merge -p '{"note":"changed"}'`)).toMatchObject({
      stderr: 'The Event "hello.1" is invalid: message: Invalid value: "changed": field is immutable\n', exitCode: 1,
    });
  });

  it('a pod that cannot be scheduled gets a FailedScheduling series whose count grows', async () => {
    const cluster = createCluster({ seed: 14 });
    await ok(cluster, 'apply -f -', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: picky\nspec:\n  nodeSelector:\n    disk: ssd\n  containers:\n  - name: app\n    image: nginx:1.27\n');
    const failures = async (): Promise<CoreEvent[]> =>
      (await yamlList<CoreEvent>(cluster, 'get events --field-selector involvedObject.name=picky,reason=FailedScheduling'));
    await until(cluster, async () => (await failures()).some((e) => e.series), 20 * 60_000);
    const firstSeries = (await failures()).find((e) => e.series)!;
    expect(firstSeries).toMatchObject({ action: 'Scheduling', type: 'Warning', series: { count: 2 } });
    expect(firstSeries.series?.lastObservedTime).toMatch(MICRO_TIME);
    // later occurrences only bump the recorder's cached count: the 30-minute refresh writes it
    await cluster.advance(30 * 60_000);
    const grown = (await failures()).find((e) => e.metadata.name === firstSeries.metadata.name);
    expect(grown?.series?.count).toBeGreaterThan(2);
    expect(grown?.eventTime).toBe(firstSeries.eventTime);
    expect(await ok(cluster, 'describe pod picky')).toMatch(
      new RegExp(`\\n {2}Warning {2}FailedScheduling +\\d+m?s? \\(x${grown?.series?.count} over \\d+m\\) +default-scheduler +0/1 nodes are available`),
    );
    const wide = await ok(cluster, 'get events -o wide --field-selector involvedObject.name=picky,reason=FailedScheduling');
    expect(wide).toMatch(new RegExp(`default-scheduler, default-scheduler-cp-1 .* ${grown?.series?.count} +${firstSeries.metadata.name}\\n`));
  });
});
