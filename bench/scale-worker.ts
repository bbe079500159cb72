// Child process of cluster-scale.bench.ts: boots one cluster size and brings its pods to Running,
// printing one JSON line per stage so the parent can stop it at its wall-clock budget and still
// report how far it got. Usage: scale-worker.ts <nodes> <pods>
import { benchDeployment } from './manifests.ts';
import { createCluster, type Cluster } from '../runtime/index.ts';

const MB = 1024 * 1024;
const STEP_MS = 5_000;
const PER_DEPLOYMENT = 1_000;
const REPORT_EVERY_WALL_MS = 10_000;

const nodes = Number(process.argv[2]);
const pods = Number(process.argv[3]);


/** Containers of the benchmark's Deployments that run (add-on DaemonSet pods are not counted). */
function runningAppContainers(cluster: Cluster): number {
  let n = 0;
  for (const r of cluster.internals.components.runtimes.values()) {
    for (const c of r.listContainers()) if (c.state === 'running' && c.name === 'app') n++;
  }
  return n;
}

let peakHeap = 0;
const t0 = performance.now();
const report = (phase: string, extra: Record<string, number | string> = {}): void => {
  const heap = process.memoryUsage().heapUsed;
  peakHeap = Math.max(peakHeap, heap);
  process.stdout.write(`${JSON.stringify({ phase, wallMs: Math.round(performance.now() - t0), heapMB: Math.round(heap / MB), peakHeapMB: Math.round(peakHeap / MB), ...extra })}\n`);
};

report('start');
// Upstream's 5,000-node scale jobs raise the components' client limits (kubernetes/test-infra and
// perf-tests job configs: CONTROLLER_MANAGER_TEST_ARGS / SCHEDULER_TEST_ARGS / KUBELET_TEST_ARGS
// "--kube-api-qps=100 --kube-api-burst=100"); the defaults (20/30, 50/100, 50/100) would spread
// 150,000 pod creations over hours. SCALE_QPS overrides (0 or less: unlimited clients).
const qps = Number(process.env.SCALE_QPS ?? 100);
const limits = { qps, burst: Math.max(1, qps) };
const cluster = createCluster({
  seed: 2, topology: 'ha', workers: nodes, node: { pods: 110 },
  clientRateLimits: { 'kube-controller-manager': limits, 'kube-scheduler': limits, kubelet: limits },
});
const bootSimMs = cluster.now();
report('booted', { bootSimMs });
const start = cluster.now();
let lastReport = performance.now();
for (let i = 0; i < pods / PER_DEPLOYMENT; i++) {
  await cluster.kubectl('apply -f -', { stdin: benchDeployment(`app-${i}`, PER_DEPLOYMENT) });
  // the cluster runs while kubectl waits: report how far the pods got, so a run stopped at its
  // budget during the applies still says how many ran
  if (performance.now() - lastReport > REPORT_EVERY_WALL_MS) {
    lastReport = performance.now();
    report('applying', { deployments: i + 1, running: runningAppContainers(cluster), simMs: cluster.now() - start });
  }
}
report('applied', { simMs: cluster.now() - start });
let running = 0;
while (running < pods) {
  await cluster.advance(STEP_MS);
  running = runningAppContainers(cluster);
  if (performance.now() - lastReport > REPORT_EVERY_WALL_MS) {
    lastReport = performance.now();
    report('progress', { running, simMs: cluster.now() - start });
  }
}
report('done', { running, simMs: cluster.now() - start });
