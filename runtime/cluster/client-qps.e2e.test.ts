// Client-side rate limiting end to end: the replicaset controller creates pods at its own
// client's pace (kube-controller-manager's --kube-api-qps 20 / --kube-api-burst 30), and a kubectl
// apply of 30 objects waits in kubectl's bucket (client-go's 5 QPS, burst 10), as on a real cluster.
import { describe, expect, it } from 'vitest';
import { parseRFC3339 } from '../api/index.ts';
import { createCluster, type Cluster, type ClusterOptions } from './index.ts';

/** Scales deployment/web from 1 to `replicas` and returns when each new pod appeared (ms after the scale began). */
async function scaleAndWatch(options: ClusterOptions, replicas: number): Promise<{ cluster: Cluster; createdMs: number[] }> {
  const cluster = createCluster({ seed: 3, topology: 'single-node', workers: 1, ...options });
  expect((await cluster.kubectl('create deployment web --image=registry.k8s.io/pause:3.10 --replicas=1')).exitCode).toBe(0);
  await cluster.advance(5_000);
  // an unlimited observer (cluster.internals clients have no bucket) sees each pod as it is written
  const seenMs: number[] = [];
  const observer = cluster.internals.restClient('observer');
  observer.watch({ verb: 'watch', resource: 'pods', namespace: 'default' }, {
    onEvent: (e) => {
      if (e.type === 'ADDED') seenMs.push(cluster.now());
    },
    onClose: () => undefined,
  });
  await cluster.advance(100);
  const startMs = cluster.now();
  expect((await cluster.kubectl(`scale deployment web --replicas=${replicas}`)).stdout).toBe('deployment.apps/web scaled\n');
  await cluster.advance(15_000);
  return { cluster, createdMs: seenMs.filter((t) => t >= startMs).map((t) => t - startMs) };
}

describe('client-side rate limiting (client-go QPS/burst)', { timeout: 120_000 }, () => {
  it('the replicaset controller creates 199 pods in a burst of 30, then 20 a second', async () => {
    const { cluster, createdMs } = await scaleAndWatch({}, 200);
    expect(createdMs).toHaveLength(199);
    // the burst: 30 tokens at once, spent by the slow-start batches (1, 2, 4, 8, 16, ...) as fast as they go
    expect(createdMs[29]! - createdMs[0]!).toBeLessThan(300);
    // then one create per token, 1/20 s apart: the last hundred arrive 50 ms apart on average
    const last = createdMs.slice(-100);
    const spacingMs = (last.at(-1)! - last[0]!) / (last.length - 1);
    expect(spacingMs).toBeGreaterThanOrEqual(50);
    expect(spacingMs).toBeLessThan(52);
    // the whole: (199 creates - 30 of burst) / 20 QPS = 8.45 s at least; the controller's
    // SuccessfulCreate events and ReplicaSet status writes take tokens from the same bucket (its
    // event recorder shares its client) until the event spam filter stops them: under 1 s more
    const spreadMs = createdMs.at(-1)! - createdMs[0]!;
    expect(spreadMs).toBeGreaterThanOrEqual(8_450);
    expect(spreadMs).toBeLessThan(9_450);
    // the pods' creationTimestamps (whole seconds) tell the same story
    const pods = JSON.parse((await cluster.kubectl('get pods -l app=web -o json')).stdout) as { items: { metadata: { creationTimestamp: string } }[] };
    const stamps = pods.items.map((p) => parseRFC3339(p.metadata.creationTimestamp)!).sort((a, b) => a - b).slice(1); // the first is the original pod
    expect((stamps.at(-1)! - stamps[0]!) / 1000).toBeGreaterThanOrEqual(8);
    expect((stamps.at(-1)! - stamps[0]!) / 1000).toBeLessThanOrEqual(10);
    // a slow-start batch of 64 waits up to 3.2 s for tokens: the controller manager logs it (client-go at -v=0)
    const waited = cluster.trace().filter((e) => e.kind === 'controller-manager.log' && e.detail.includes('"Waited before sending request"'));
    expect(waited.length).toBeGreaterThan(0);
    expect(waited[0]!.detail).toMatch(/reason="client-side throttling, not priority and fairness" verb="POST" URL="https:\/\/192\.168\.49\.2:8443\/api\/v1\/namespaces\/default\/pods"$/);
  });

  it('ClusterOptions.clientRateLimits raises the controller manager\'s limits, as scale tests raise --kube-api-qps', async () => {
    const { createdMs } = await scaleAndWatch({ clientRateLimits: { 'kube-controller-manager': { qps: 1000, burst: 1000 } } }, 100);
    expect(createdMs).toHaveLength(99);
    // at the defaults this would take (99 - 30) / 20 = 3.45 s
    expect(createdMs.at(-1)! - createdMs[0]!).toBeLessThan(500);
  });

  describe('kubectl (client-go defaults: 5 QPS, burst 10)', () => {
    const configMaps = (value: string): string =>
      Array.from({ length: 30 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  k: ${value}\n`).join('---\n');
    const THROTTLE_LINE = /^I\d{4} \d\d:\d\d:\d\d\.\d{6} {3}48213 request\.go:752\] "Waited before sending request" delay="\d+ms" reason="client-side throttling, not priority and fairness" verb="(GET|PATCH)" URL="https:\/\/192\.168\.49\.2:8443\/api\/v1\/namespaces\/default\/configmaps\/cm-\d+(\?fieldManager=kubectl-client-side-apply&fieldValidation=Strict)?"$/;

    it('an apply of 30 objects waits for tokens: 60 requests take (60 - 10) / 5 = 10 s, logged at -v=3', async () => {
      const cluster = createCluster({ seed: 4, topology: 'single-node' });
      let startMs = cluster.now();
      const created = await cluster.kubectl('apply -f -', { stdin: configMaps('a') });
      expect(created.stdout.split('\n').filter((l) => l.endsWith(' created'))).toHaveLength(30);
      const tookMs = cluster.now() - startMs;
      expect(tookMs).toBeGreaterThanOrEqual(10_000);
      expect(tookMs).toBeLessThan(10_500);
      // one at a time, each request waits about 200 ms: under the 1 s that client-go logs at -v=0
      expect(created.stderr).toBe('');

      // a new kubectl process starts with a full bucket: ten requests go at once
      startMs = cluster.now();
      expect((await cluster.kubectl('get configmap cm-0 -o name')).stdout).toBe('configmap/cm-0\n');
      expect(cluster.now() - startMs).toBeLessThan(100);

      const configured = await cluster.kubectl('apply -f - -v=3', { stdin: configMaps('b') });
      expect(configured.stdout.split('\n').filter((l) => l.endsWith(' configured'))).toHaveLength(30);
      const lines = configured.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(50); // every request after the burst of 10 waited over 50 ms
      for (const line of lines) expect(line).toMatch(THROTTLE_LINE);
    });

    it('is unlimited with clientRateLimits.kubectl.qps -1 (client-go QPS -1 disables the limiter)', async () => {
      const cluster = createCluster({ seed: 4, topology: 'single-node', clientRateLimits: { kubectl: { qps: -1 } } });
      const startMs = cluster.now();
      await cluster.kubectl('apply -f -', { stdin: configMaps('a') });
      expect(cluster.now() - startMs).toBeLessThan(2_000);
    });
  });

  it('a kubelet whose API client is starved still heartbeats: node status and Lease go through its unlimited heartbeat client', async () => {
    // one token per 20 s for the kubelet's main client (pods, their status); upstream's heartbeat client has QPS -1
    const cluster = createCluster({ seed: 3, topology: 'single-node', workers: 1, clientRateLimits: { kubelet: { qps: 0.05, burst: 1 } } });
    const renewTimes = new Set<string>();
    for (let i = 0; i < 6; i++) {
      await cluster.advance(10_000);
      const lease = JSON.parse((await cluster.kubectl('get lease worker-1 -n kube-node-lease -o json')).stdout) as { spec: { renewTime: string } };
      renewTimes.add(lease.spec.renewTime);
    }
    // renewed every 10 s (the kubelet's nodeLeaseRenewIntervalFraction of its 40 s lease): six reads, six renewals
    expect(renewTimes.size).toBe(6);
    expect((await cluster.kubectl('get node worker-1 --no-headers')).stdout).toMatch(/^worker-1\s+Ready\s/);
  });
});
