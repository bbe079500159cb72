// Informers over the REST client: list, watch, and what happens when the stream is lost long
// enough for the API server's watch cache to move past the informer's resourceVersion.
import { expect, it } from 'vitest';
import type { ConfigMap } from '../api/index.ts';
import { SharedInformer, restListerWatcher } from '../client/index.ts';
import { createCluster } from '../index.ts';

function configMaps(names: string[]): string {
  return names.map((n) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\ndata:\n  k: v\n`).join('---\n');
}

it('an informer cut off from the API server resumes, gets 410 Gone and relists to the truth', { timeout: 60_000 }, async () => {
  const cluster = createCluster({ seed: 5 });
  const kernel = cluster.internals.kernel;
  const client = cluster.internals.restClient('informer');
  const logs: string[] = [];
  const informer = new SharedInformer<ConfigMap>(
    { now: () => kernel.now(), setTimer: (ms, fn) => kernel.setTimer(ms, fn), every: (ms, fn) => kernel.every(ms, fn) },
    restListerWatcher<ConfigMap>(client, { group: '', resource: 'configmaps', namespace: 'default' }),
    { onLog: (m) => logs.push(m) },
  );
  const deleted: string[] = [];
  informer.addEventHandler({ onDelete: (obj) => deleted.push('metadata' in obj ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.key) });
  informer.start();
  expect((await cluster.kubectl('apply -f -', { stdin: configMaps(['before']) })).exitCode).toBe(0);
  await cluster.advance(1000);
  expect(informer.hasSynced).toBe(true);
  expect(informer.lister.list().map((c) => c.metadata.name)).toEqual(['before']);

  // cut the informer's connection; meanwhile 150 writes (more than the watch cache's 100 events)
  kernel.net.partition([['informer'], [cluster.internals.plan.serverEndpoint]]);
  const names = Array.from({ length: 150 }, (_, i) => `during-${String(i).padStart(3, '0')}`);
  expect((await cluster.kubectl('apply -f -', { stdin: configMaps(names) })).exitCode).toBe(0);
  expect((await cluster.kubectl('delete configmap before')).stdout).toBe('configmap "before" deleted\n');
  kernel.net.heal();
  await cluster.advance(120_000);

  // the ping showed the stream had lost its tail; the re-watch from the old resourceVersion was
  // refused as too old (the watch cache keeps 100 events)
  expect(logs.some((l) => /^watch failed: Get "https:\/\/192\.168\.49\.2:8443\/api\/v1\/namespaces\/default\/configmaps\?watch=true": read: connection reset by peer; retrying in 800 ms$/.test(l))).toBe(true);
  expect(logs.some((l) => l.startsWith('watch expired'))).toBe(true);
  expect(logs.filter((l) => l === 'list')).toHaveLength(2);
  const truth = (await cluster.kubectl('get configmaps -o name')).stdout.split('\n').filter((l) => l.startsWith('configmap/during'));
  expect(informer.lister.list().map((c) => `configmap/${c.metadata.name}`).filter((n) => n.startsWith('configmap/during')).sort()).toEqual(truth);
  expect(informer.lister.get('default', 'before')).toBeUndefined();
  expect(deleted).toEqual(['default/before']); // known only from the relist: a tombstone or the object itself
});
