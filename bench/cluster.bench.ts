// The standard HA scenario: 3 control-plane machines with stacked
// etcd, 10 workers, 100 pods, one worker failure every 10 simulated minutes (back 5 minutes
// later), for 1 simulated hour: the simulated-to-wall ratio, and the simulated-to-CPU ratio
// (user + system time of this process), which shared, loaded machines distort less.
import { benchDeployment } from './manifests.ts';
import { createCluster, type Cluster } from '../runtime/index.ts';

export const name = 'cluster';

const MB = 1024 * 1024;
let peakHeap = 0;
const sampleHeap = (): void => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
};


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
  await cluster.kubectl('apply -f -', { stdin: benchDeployment('web', 100) });
  const start = cluster.now();
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let minute = 0; minute < 60; minute++) {
    if (minute % 10 === 5) await cluster.faults.stopNode(`worker-${(minute / 10 | 0) + 1}`);
    if (minute % 10 === 0 && minute > 0) await cluster.faults.startNode(`worker-${minute / 10}`);
    await cluster.advance(60_000);
    sampleHeap();
  }
  const wallMs = performance.now() - t1;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return {
    haBootWallMs: Math.round(bootWallMs),
    haHourWallMs: Math.round(wallMs),
    haSimToWallRatio: Math.round((cluster.now() - start) / wallMs),
    haHourCpuMs: Math.round(cpuMs),
    haSimToCpuRatio: Math.round((cluster.now() - start) / cpuMs),
    haRunningAtEnd: runningContainers(cluster),
  };
}

export async function run(): Promise<Record<string, number | string>> {
  const ha = await haHour();
  return { ...ha, peakHeapMB: Math.round(peakHeap / MB), note: 'the scale runs are in cluster-scale.bench.ts' };
}
