// Cluster.requestDurations(): apiserver_request_duration_seconds by verb, read from the replicas'
// counters for the page's latency widget, equal to what /metrics exposes and never perturbing the run.
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

const total = (d: ReturnType<ReturnType<typeof createCluster>['requestDurations']>, verb: string) => d.byVerb.find((v) => v.verb === verb)?.count ?? 0;

describe('Cluster.requestDurations()', () => {
  it('sums the replicas\' histograms by verb, with the upstream buckets, cumulative counts and +Inf as count', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 5, workers: 2 });
    const d = cluster.requestDurations();
    expect(d.bucketsSeconds).toEqual([0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60]);
    expect(d.servers.map((s) => s.name)).toEqual(['kube-apiserver-cp-1', 'kube-apiserver-cp-2', 'kube-apiserver-cp-3']);
    expect(d.byVerb.map((v) => v.verb)).toEqual(expect.arrayContaining(['GET', 'LIST', 'POST']));
    expect(d.byVerb.some((v) => v.verb === 'WATCH')).toBe(false); // watches stay out of the latency histogram
    for (const v of d.byVerb) {
      for (let i = 1; i < v.buckets.length; i++) expect(v.buckets[i]).toBeGreaterThanOrEqual(v.buckets[i - 1]!);
      expect(v.buckets.at(-1)).toBeLessThanOrEqual(v.count);
      const perServer = d.servers.reduce((n, s) => n + (s.byVerb.find((x) => x.verb === v.verb)?.count ?? 0), 0);
      expect(perServer).toBe(v.count);
    }
    expect(JSON.parse(JSON.stringify(d))).toEqual(d); // serializable as it is
  });

  it('agrees with the _count series of /metrics', async () => {
    const cluster = createCluster({ seed: 5 });
    await cluster.kubectl('create configmap a');
    const d = cluster.requestDurations();
    const text = cluster.internals.controlPlane.liveServers()[0]!.metrics.expose();
    let posts = 0;
    for (const m of text.matchAll(/^apiserver_request_duration_seconds_count\{[^}]*verb="POST"[^}]*\} (\d+)$/gm)) posts += Number(m[1]);
    expect(total(d, 'POST')).toBe(posts);
  });

  it('grows with the requests a Deployment of many replicas causes', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 5, workers: 2 });
    await cluster.advance(5_000);
    const before = cluster.requestDurations();
    await cluster.kubectl('create deployment load --image=nginx:1.27 --replicas=40');
    await cluster.advance(20_000);
    const after = cluster.requestDurations();
    // the ReplicaSet controller creates 40 pods, the scheduler binds them (and annotates them), the kubelets report
    expect(total(after, 'POST') - total(before, 'POST')).toBeGreaterThanOrEqual(80);
    expect(total(after, 'PATCH') - total(before, 'PATCH')).toBeGreaterThanOrEqual(40);
    expect(total(after, 'GET')).toBeGreaterThan(total(before, 'GET'));
  });

  it('starts a stopped replica\'s counters again from zero, as a restarted kube-apiserver does', async () => {
    const cluster = createCluster({ topology: 'ha', seed: 5, workers: 1 });
    await cluster.faults.stopComponent('kube-apiserver-cp-2');
    expect(cluster.requestDurations().servers.map((s) => s.name)).toEqual(['kube-apiserver-cp-1', 'kube-apiserver-cp-3']);
    await cluster.faults.startComponent('kube-apiserver-cp-2');
    const restarted = cluster.requestDurations().servers.find((s) => s.name === 'kube-apiserver-cp-2')!;
    expect(restarted.byVerb.reduce((n, v) => n + v.count, 0)).toBeLessThan(50);
  });

  it('changes nothing: a cluster observed at every step has the same trace as one never observed', async () => {
    const run = async (observe: boolean) => {
      const cluster = createCluster({ topology: 'ha', seed: 9, workers: 2 });
      await cluster.kubectl('create deployment load --image=nginx:1.27 --replicas=10');
      for (let i = 0; i < 20; i++) {
        cluster.step(500);
        if (observe) cluster.requestDurations();
      }
      return cluster.traceHash();
    };
    expect(await run(true)).toBe(await run(false));
  });
});
