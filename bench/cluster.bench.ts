// The standard HA scenario of issue 5: 3 control-plane machines with stacked etcd, 10 workers,
// 100 pods, one worker failure every 10 simulated minutes (back 5 minutes later), for 1 simulated
// hour. Figures: the simulated-to-wall ratio and the simulated-to-CPU ratio (user + system time of
// the process, which shared, loaded machines distort less; above wall when GC threads help).
// Each sample is a fresh child process (ha-hour-worker.ts) running the hour twice: "cold" is the
// first hour, as a learner's freshly opened page runs it (the JIT still compiling, the heap still
// growing); "warm" is the second hour in the same process. Medians over HA_PROCESSES (default 3).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const name = 'cluster';

type Hour = Record<'bootWallMs' | 'wallMs' | 'simToWallRatio' | 'cpuMs' | 'simToCpuRatio' | 'runningAtEnd' | 'peakHeapMB', number>;

interface Sample {
  hours: Hour[];
  /** The worker's fixed reference workload, timed after its hours: how fast the machine was. */
  calibrationMs: number;
}

function runProcess(): Promise<Sample> {
  // scripts/bench.ts bundles the worker beside this module; run from source, it is the .ts file
  const bundledWorker = resolve(import.meta.dirname, 'ha-hour-worker.mjs');
  const worker = existsSync(bundledWorker) ? bundledWorker : resolve(import.meta.dirname, 'ha-hour-worker.ts');
  const child = spawn(process.execPath, [...process.execArgv, worker, '2'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return new Promise((done, fail) => {
    child.on('exit', (code) => {
      if (code !== 0) return fail(new Error(`ha-hour-worker exited with code ${code}`));
      const lines = out.trim().split('\n').map((line) => JSON.parse(line) as Record<string, number>);
      const last = lines.pop()!;
      done({ hours: lines as Hour[], calibrationMs: last.calibrationMs! });
    });
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[(s.length - 1) >> 1]!;
}

export async function run(): Promise<Record<string, number | string>> {
  const processes = Number(process.env.HA_PROCESSES ?? 3);
  const cold: Hour[] = [];
  const warm: Hour[] = [];
  const calibration: number[] = [];
  for (let i = 0; i < processes; i++) {
    const { hours: [first, second], calibrationMs } = await runProcess();
    cold.push(first!);
    warm.push(second!);
    calibration.push(calibrationMs);
    process.stderr.write(`  [cluster] process ${i + 1}: cold ${first!.simToWallRatio}x, warm ${second!.simToWallRatio}x, reference workload ${calibrationMs} ms\n`);
  }
  const m = (runs: Hour[], k: keyof Hour): number => median(runs.map((r) => r[k]));
  return {
    haProcesses: processes,
    haColdHourWallMs: m(cold, 'wallMs'),
    haColdSimToWallRatio: m(cold, 'simToWallRatio'),
    haColdSimToCpuRatio: m(cold, 'simToCpuRatio'),
    haColdBootWallMs: m(cold, 'bootWallMs'),
    haWarmHourWallMs: m(warm, 'wallMs'),
    haWarmSimToWallRatio: m(warm, 'simToWallRatio'),
    haWarmSimToCpuRatio: m(warm, 'simToCpuRatio'),
    haRunningAtEnd: Math.min(...cold.map((r) => r.runningAtEnd), ...warm.map((r) => r.runningAtEnd)),
    haPeakHeapMB: Math.max(...cold.map((r) => r.peakHeapMB)),
    haSamples: cold.map((r, i) => `${r.simToWallRatio}/${warm[i]!.simToWallRatio}`).join(' '),
    haReferenceWorkloadMs: median(calibration),
    note: 'cold = first hour in a fresh process, warm = second hour in it; samples are cold/warm ratios per process; the reference workload (no runtime code) shows how fast the machine was; the scale runs are in cluster-scale.bench.ts',
  };
}
