// Informers over the REST client: list, watch, and what happens when the stream is lost long
// enough for the API server's watch cache to move past the informer's resourceVersion.
import { expect, it } from 'vitest';
import type { ConfigMap } from '../api/index.ts';
import { SharedInformer, restListerWatcher } from '../client/index.ts';
import { createCluster } from '../index.ts';

function configMaps(names: string[]): string {
  return names.map((n) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\ndata:\n  k: v\n`).join('---\n');
}

/** A cluster and an informer of default's ConfigMaps on its own REST client endpoint, logging to `logs`. */
function configMapInformer() {
  const cluster = createCluster({ seed: 5 });
  const kernel = cluster.internals.kernel;
  const client = cluster.internals.restClient('informer');
  const logs: string[] = [];
  const informer = new SharedInformer<ConfigMap>(
    { now: () => kernel.now(), setTimer: (ms, fn) => kernel.setTimer(ms, fn), every: (ms, fn) => kernel.every(ms, fn) },
    restListerWatcher<ConfigMap>(client, { group: '', resource: 'configmaps', namespace: 'default' }),
    { onLog: (m) => logs.push(m) },
  );
  return { cluster, kernel, logs, informer };
}

it('an informer cut off from the API server resumes, gets 410 Gone and relists to the truth', { timeout: 60_000 }, async () => {
  const { cluster, kernel, logs, informer } = configMapInformer();
  const deleted: string[] = [];
  informer.addEventHandler({ onDelete: (obj) => deleted.push('metadata' in obj ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.key) });
  informer.start();
  expect((await cluster.kubectl('apply -f -', { stdin: configMaps(['before']) })).exitCode).toBe(0);
  await cluster.advance(1000);
  expect(informer.hasSynced).toBe(true);
  // and the CA bundle the root CA publisher puts in every namespace
  expect(informer.lister.list().map((c) => c.metadata.name).sort()).toEqual(['before', 'kube-root-ca.crt']);

  // cut the informer's connection for longer than the watch cache keeps history: 100 writes (the
  // window doubles to 200 events, as they are fresh), then 80 s (upstream's window keeps ~75 s of
  // events: watch_cache.go eventFreshDuration), then 160 more writes, which fill it and push the
  // stale events, the informer's resourceVersion among them, out instead of growing it
  kernel.net.partition([['informer'], [cluster.internals.plan.serverEndpoint]]);
  const names = Array.from({ length: 260 }, (_, i) => `during-${String(i).padStart(3, '0')}`);
  expect((await cluster.kubectl('apply -f -', { stdin: configMaps(names.slice(0, 100)) })).exitCode).toBe(0);
  await cluster.advance(80_000);
  expect((await cluster.kubectl('apply -f -', { stdin: configMaps(names.slice(100)) })).exitCode).toBe(0);
  expect((await cluster.kubectl('delete configmap before')).stdout).toBe('configmap "before" deleted\n');
  kernel.net.heal();
  await cluster.advance(120_000);

  // the unanswered pings showed the connection was gone; the re-watch from the old resourceVersion
  // was refused as too old
  expect(logs.some((l) => /^watch failed: Get "https:\/\/192\.168\.49\.2:8443\/api\/v1\/namespaces\/default\/configmaps\?watch=true": http2: client connection lost; retrying in 800 ms$/.test(l))).toBe(true);
  expect(logs.some((l) => l.startsWith('watch expired'))).toBe(true);
  expect(logs.filter((l) => l === 'list')).toHaveLength(2);
  const truth = (await cluster.kubectl('get configmaps -o name')).stdout.split('\n').filter((l) => l.startsWith('configmap/during'));
  expect(informer.lister.list().map((c) => `configmap/${c.metadata.name}`).filter((n) => n.startsWith('configmap/during')).sort()).toEqual(truth);
  expect(informer.lister.get('default', 'before')).toBeUndefined();
  expect(deleted).toEqual(['default/before']); // known only from the relist: a tombstone or the object itself
});

it('an informer cut off during a burst of writes resumes without relisting: the watch cache window grew', { timeout: 60_000 }, async () => {
  const { cluster, kernel, logs, informer } = configMapInformer();
  informer.start();
  await cluster.advance(1000);
  // 150 writes within a few simulated ms: more than the window's first 100 events, all fresh, so it
  // doubles (watch_cache.go resizeCacheLocked) and still holds the informer's resourceVersion
  kernel.net.partition([['informer'], [cluster.internals.plan.serverEndpoint]]);
  const names = Array.from({ length: 150 }, (_, i) => `burst-${String(i).padStart(3, '0')}`);
  expect((await cluster.kubectl('apply -f -', { stdin: configMaps(names) })).exitCode).toBe(0);
  kernel.net.heal();
  await cluster.advance(120_000);
  expect(logs.some((l) => l.startsWith('watch failed'))).toBe(true);
  expect(logs.some((l) => l.startsWith('watch expired'))).toBe(false);
  expect(logs.filter((l) => l === 'list')).toHaveLength(1);
  expect(informer.lister.list().filter((c) => c.metadata.name?.startsWith('burst-'))).toHaveLength(150);
});
