// Whole-cluster benchmarks. (1) The standard HA scenario: 3 control-plane machines with stacked
// etcd, 10 workers, 100 pods, one worker failure every 10 simulated minutes (back 5 minutes
// later), for 1 simulated hour: the simulated-to-wall ratio. (2) Scale: 1,000 nodes and 30,000
// pods brought to Running, with a wall-clock budget: how far it got, time and peak heap.
import { createCluster, type Cluster } from '../runtime/index.ts';

export const name = 'cluster';

const MB = 1024 * 1024;
const SCALE_WALL_BUDGET_MS = 240_000;
let peakHeap = 0;
const sampleHeap = (): void => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
};

const deployment = (name: string, replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name} }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      containers:
      - { name: app, image: 'nginx:1.27', resources: { requests: { cpu: 10m, memory: 16Mi } } }
`;

const CACHED = [{ names: ['nginx:1.27'], sizeBytes: 72_000_000 }];

function runningContainers(cluster: Cluster): number {
  let n = 0;
  for (const r of cluster.internals.components.runtimes.values()) for (const c of r.listContainers()) if (c.state === 'running') n++;
  return n;
}

async function haHour(): Promise<Record<string, number>> {
  const t0 = performance.now();
  const cluster = createCluster({ seed: 1, topology: 'ha', workers: Array.from({ length: 10 }, () => ({ images: CACHED })) });
  const bootWallMs = performance.now() - t0;
  await cluster.kubectl('apply -f -', { stdin: deployment('web', 100) });
  const start = cluster.now();
  const t1 = performance.now();
  for (let minute = 0; minute < 60; minute++) {
    if (minute % 10 === 5) await cluster.faults.stopNode(`worker-${(minute / 10 | 0) + 1}`);
    if (minute % 10 === 0 && minute > 0) await cluster.faults.startNode(`worker-${minute / 10}`);
    await cluster.advance(60_000);
    sampleHeap();
  }
  const wallMs = performance.now() - t1;
  return {
    haBootWallMs: Math.round(bootWallMs),
    haHourWallMs: Math.round(wallMs),
    haSimToWallRatio: Math.round((cluster.now() - start) / wallMs),
    haRunningAtEnd: runningContainers(cluster),
  };
}

async function scale(nodes: number, pods: number): Promise<Record<string, number>> {
  const t0 = performance.now();
  const cluster = createCluster({ seed: 2, topology: 'ha', workers: nodes, node: { pods: 110 } });
  const bootWallMs = performance.now() - t0;
  sampleHeap();
  const perDeployment = 1000;
  for (let i = 0; i < pods / perDeployment; i++) await cluster.kubectl('apply -f -', { stdin: deployment(`app-${i}`, perDeployment) });
  const start = cluster.now();
  let running = 0;
  while (running < pods && performance.now() - t0 < SCALE_WALL_BUDGET_MS) {
    await cluster.advance(5000);
    running = runningContainers(cluster);
    sampleHeap();
  }
  return {
    [`scale${nodes}BootWallMs`]: Math.round(bootWallMs),
    [`scale${nodes}WallMs`]: Math.round(performance.now() - t0),
    [`scale${nodes}SimulatedMs`]: cluster.now() - start,
    [`scale${nodes}Running`]: running,
    [`scale${nodes}Target`]: pods,
  };
}

export async function run(): Promise<Record<string, number | string>> {
  const ha = await haHour();
  const big = await scale(1000, 30_000);
  return { ...ha, ...big, peakHeapMB: Math.round(peakHeap / MB), note: `scale run stops after ${SCALE_WALL_BUDGET_MS / 1000} s of wall time` };
}
