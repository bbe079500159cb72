// One process of the HA-hour benchmark (cluster.bench.ts spawns it): runs the standard HA scenario
// HOURS times in this fresh process and prints one JSON line per run. The first run pays what a
// learner's freshly opened page pays (the JIT compiling the runtime, the heap growing); later runs
// show the same work on warm code.
import { benchDeployment } from './manifests.ts';
import { createCluster, type Cluster } from '../runtime/index.ts';

const CACHED = [{ names: ['nginx:1.27'], sizeBytes: 72_000_000 }];

function runningContainers(cluster: Cluster): number {
  let n = 0;
  for (const r of cluster.internals.components.runtimes.values()) for (const c of r.listContainers()) if (c.state === 'running') n++;
  return n;
}

/** 3 control-plane machines with stacked etcd, 10 workers, 100 pods, a worker down 5 of every 10 minutes. */
async function haHour(): Promise<Record<string, number>> {
  const t0 = performance.now();
  const cluster = createCluster({ seed: 1, topology: 'ha', workers: Array.from({ length: 10 }, () => ({ images: CACHED })) });
  const bootWallMs = performance.now() - t0;
  await cluster.kubectl('apply -f -', { stdin: benchDeployment('web', 100) });
  const start = cluster.now();
  let peakHeap = 0;
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let minute = 0; minute < 60; minute++) {
    if (minute % 10 === 5) await cluster.faults.stopNode(`worker-${((minute / 10) | 0) + 1}`);
    if (minute % 10 === 0 && minute > 0) await cluster.faults.startNode(`worker-${minute / 10}`);
    await cluster.advance(60_000);
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }
  const wallMs = performance.now() - t1;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const simMs = cluster.now() - start;
  return {
    bootWallMs: Math.round(bootWallMs),
    wallMs: Math.round(wallMs),
    simToWallRatio: Math.round(simMs / wallMs),
    cpuMs: Math.round(cpuMs),
    simToCpuRatio: Math.round(simMs / cpuMs),
    runningAtEnd: runningContainers(cluster),
    peakHeapMB: Math.round(peakHeap / (1024 * 1024)),
  };
}

/**
 * A fixed workload with nothing of the runtime in it (maps, small objects, JSON, a sort), timed
 * after the hours: this shared machine's speed swings by half from one hour to the next for the
 * same binary, and this figure shows how fast the machine was while a sample ran, so samples taken
 * at different times can be compared.
 */
function calibrationMs(): number {
  const t0 = performance.now();
  let sink = 0;
  for (let round = 0; round < 5; round++) {
    const byKey = new Map<string, { n: number; tags: string[] }>();
    for (let i = 0; i < 100_000; i++) byKey.set(`key-${i}`, { n: i, tags: [`a${i % 7}`, `b${i % 13}`] });
    const texts: string[] = [];
    for (const [k, v] of byKey) if (v.n % 4 === 0) texts.push(JSON.stringify({ k, ...v }));
    const parsed = texts.map((t) => JSON.parse(t) as { n: number });
    parsed.sort((a, b) => (b.n % 1000) - (a.n % 1000) || a.n - b.n);
    sink += parsed[0]!.n;
  }
  if (sink < 0) throw new Error('unreachable');
  return Math.round(performance.now() - t0);
}

const hours = Number(process.argv[2] ?? 2);
for (let i = 0; i < hours; i++) process.stdout.write(JSON.stringify(await haHour()) + '\n');
process.stdout.write(JSON.stringify({ calibrationMs: calibrationMs() }) + '\n');
