// API server throughput through the whole path (REST client -> simulated network -> replica ->
// etcd on Raft -> back): requests per wall-clock second for create, get, a list of 10,000 pods and
// a watch fanned out to 100 watchers, plus the simulated latency percentiles the API server's own
// apiserver_request_duration_seconds histogram reports (histogram_quantile over its buckets).
import { createCluster, type Cluster } from '../runtime/index.ts';
import type { RestClient, RestRequest, RestResponse } from '../runtime/client/index.ts';

export const name = 'apiserver';

const PODS = 10_000;
const WINDOW = 64; // requests in flight at once (client-go's default QPS limiter is off here)

function pod(i: number): object {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: `pod-${i}`, labels: { app: 'bench' } },
    spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
  };
}

/** Runs `count` requests with at most WINDOW in flight; returns wall-clock requests per second. */
function pipeline(cluster: Cluster, client: RestClient, count: number, make: (i: number) => RestRequest): number {
  let issued = 0;
  let answered = 0;
  let failures = 0;
  const issue = (): void => {
    const i = issued++;
    client.request(make(i), (res: RestResponse) => {
      answered++;
      if (res.code >= 300) failures++;
      if (issued < count) issue();
    });
  };
  const t0 = performance.now();
  for (let i = 0; i < Math.min(WINDOW, count); i++) issue();
  cluster.internals.driveUntil(() => answered === count, 10_000_000);
  const seconds = (performance.now() - t0) / 1000;
  if (answered !== count || failures > 0) throw new Error(`bench: ${answered}/${count} answered, ${failures} failed`);
  return Math.round(count / seconds);
}

/** histogram_quantile(q) over the cumulative buckets of one series of the /metrics text. */
function quantileMs(metrics: string, verb: string, resource: string, q: number): number {
  const re = new RegExp(`^apiserver_request_duration_seconds_bucket\\{[^}]*resource="${resource}",scope="[a-z]+",subresource="",verb="${verb}",[^}]*le="([^"]+)"\\} (\\d+)$`, 'gm');
  const buckets = new Map<number, number>();
  for (const m of metrics.matchAll(re)) {
    const le = m[1] === '+Inf' ? Infinity : Number(m[1]);
    buckets.set(le, (buckets.get(le) ?? 0) + Number(m[2]));
  }
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const [le, count] of sorted) {
    if (count >= rank) {
      if (le === Infinity) return prevLe * 1000;
      return (prevLe + ((le - prevLe) * (rank - prevCount)) / Math.max(1, count - prevCount)) * 1000;
    }
    prevLe = le;
    prevCount = count;
  }
  return NaN;
}

export async function run(): Promise<Record<string, number | string>> {
  const cluster = createCluster({ seed: 1, topology: 'single-node' });
  const client = cluster.internals.restClient('bench');
  const figures: Record<string, number | string> = {};
  const simStart = cluster.now();
  const wallStart = performance.now();

  figures['create pod (requests/s, wall clock)'] = pipeline(cluster, client, PODS, (i) => ({
    verb: 'create', group: '', resource: 'pods', namespace: 'default', body: pod(i),
  }));
  figures['get pod (requests/s)'] = pipeline(cluster, client, 5_000, (i) => ({
    verb: 'get', group: '', resource: 'pods', namespace: 'default', name: `pod-${i % PODS}`,
  }));
  const lists = 5;
  const t0 = performance.now();
  pipeline(cluster, client, lists, () => ({ verb: 'list', group: '', resource: 'pods', namespace: 'default' }));
  figures[`list ${PODS} pods (ms per list, wall clock)`] = Math.round((performance.now() - t0) / lists);

  // watch fan-out: 100 watchers from the current resourceVersion, 500 more pods, each sees each
  let listRv = '';
  client.request({ verb: 'list', group: '', resource: 'pods', namespace: 'default', query: { limit: 1 } }, (res) => {
    listRv = (res.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  });
  cluster.internals.driveUntil(() => listRv !== '', 60_000);
  const watchers = 100;
  const extra = 500;
  let delivered = 0;
  for (let w = 0; w < watchers; w++) {
    const wc = cluster.internals.restClient(`watcher-${w}`);
    wc.watch({ verb: 'watch', group: '', resource: 'pods', namespace: 'default', query: { resourceVersion: listRv } }, {
      onEvent: (ev) => {
        if (ev.type === 'ADDED') delivered++;
      },
      onClose: () => {},
    });
  }
  await cluster.advance(100);
  const initial = delivered;
  const t1 = performance.now();
  pipeline(cluster, client, extra, (i) => ({ verb: 'create', group: '', resource: 'pods', namespace: 'default', body: pod(PODS + i) }));
  cluster.internals.driveUntil(() => delivered - initial >= watchers * extra, 600_000);
  const fanSeconds = (performance.now() - t1) / 1000;
  figures['watch fan-out: events delivered to 100 watchers (events/s)'] = Math.round((delivered - initial) / fanSeconds);
  figures['watch fan-out: all events delivered'] = delivered - initial === watchers * extra ? 'yes' : `no (${delivered - initial})`;

  const metrics = cluster.internals.controlPlane.liveServers()[0]!.metrics.expose();
  for (const [verb, label] of [['POST', 'create'], ['GET', 'get'], ['LIST', 'list']] as const) {
    figures[`simulated ${label} pods p50 (ms)`] = Math.round(quantileMs(metrics, verb, 'pods', 0.5) * 10) / 10;
    figures[`simulated ${label} pods p99 (ms)`] = Math.round(quantileMs(metrics, verb, 'pods', 0.99) * 10) / 10;
  }
  const simSeconds = (cluster.now() - simStart) / 1000;
  const wallSeconds = (performance.now() - wallStart) / 1000;
  figures['simulated seconds'] = Math.round(simSeconds * 10) / 10;
  figures['wall seconds'] = Math.round(wallSeconds * 10) / 10;
  figures['request-heavy run: simulated / wall time'] = Math.round((simSeconds / wallSeconds) * 1000) / 1000;

  // an idle HA cluster (etcd heartbeats, health checks, watch bookmarks) for ten simulated minutes
  const tBoot = performance.now();
  const ha = createCluster({ seed: 1, topology: 'ha' });
  figures['ha boot (ms wall clock)'] = Math.round(performance.now() - tBoot);
  const tIdle = performance.now();
  await ha.advance(600_000);
  figures['idle ha cluster: simulated / wall time'] = Math.round(600 / ((performance.now() - tIdle) / 1000));
  return figures;
}
