// Kubernetes' scalability envelope through the whole simulated cluster: N worker nodes, each a
// full kubelet with its container runtime, kube-proxy and CNI (nothing is scaled down: every node
// registers, heartbeats its Lease and runs the add-on DaemonSet pods through the API servers), an
// HA control plane (3 API servers, 3 etcd members, leader-elected scheduler and controller
// manager), and Deployments of 1,000 replicas until every replica's container runs.
// Each size runs in a child process (scale-worker.ts) so a size that cannot finish inside its
// wall-clock budget is stopped and reported with how far it got, instead of hanging or failing
// the run. Figures: wall and simulated time, peak heap (heapUsed sampled by the worker after boot
// and every 10 s of wall time) and peak RSS (VmHWM, which covers the synchronous boot too).
// Budgets: SCALE_BUDGET_S (default 1800 s per size); SCALE=1000 or SCALE=5000 runs one size.
// Clients run at upstream's scale-test limits (100 qps / 100 burst for the controller manager, the
// scheduler and the kubelets; SCALE_QPS changes it, 0 = unlimited): see scale-worker.ts.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const name = 'cluster-scale';

const SIZES = [
  { nodes: 1_000, pods: 30_000 },
  { nodes: 5_000, pods: 150_000 },
];

interface Progress {
  phase: 'start' | 'booted' | 'applying' | 'applied' | 'progress' | 'done';
  deployments?: number;
  wallMs: number;
  peakHeapMB: number;
  bootSimMs?: number;
  running?: number;
  simMs?: number;
}

function peakRssMB(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

function runSize(nodes: number, pods: number, budgetMs: number): Promise<Record<string, number | string>> {
  // scripts/bench.ts bundles the worker beside this module; run from source, it is the .ts file
  const bundledWorker = resolve(import.meta.dirname, 'scale-worker.mjs');
  const worker = existsSync(bundledWorker) ? bundledWorker : resolve(import.meta.dirname, 'scale-worker.ts');
  const child = spawn(process.execPath, [...process.execArgv, worker, String(nodes), String(pods)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const started = performance.now();
  let last: Progress | undefined;
  let booted: Progress | undefined;
  let rss = 0;
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      last = JSON.parse(buffered.slice(0, nl)) as Progress;
      buffered = buffered.slice(nl + 1);
      if (last.phase === 'booted') booted = last;
      process.stderr.write(`  [cluster-scale ${nodes}] ${JSON.stringify(last)}\n`);
    }
  });
  const sampler = setInterval(() => (rss = Math.max(rss, peakRssMB(child.pid ?? 0))), 2000);
  let budgetSpent = false;
  const killer = setTimeout(() => {
    budgetSpent = true;
    child.kill('SIGKILL');
  }, budgetMs);
  return new Promise((done) => {
    child.on('exit', (code, signal) => {
      clearInterval(sampler);
      clearTimeout(killer);
      const p = `scale${nodes}`;
      const finished = last?.phase === 'done';
      const why = budgetSpent ? `stopped at the ${budgetMs / 1000} s wall budget` : `worker exited (code ${code}, signal ${signal})`;
      done({
        [`${p}Nodes`]: nodes,
        [`${p}PodsTarget`]: pods,
        [`${p}Outcome`]: finished ? 'all pods Running' : `${why} during ${booted ? (last?.phase === 'booted' || last?.phase === 'applying' ? `kubectl apply (${last.deployments ?? 0} of ${pods / 1000} Deployments applied)` : 'pod start-up') : 'boot (createCluster)'}`,
        [`${p}BootWallMs`]: booted ? booted.wallMs : `> ${Math.round(performance.now() - started)} (not finished)`,
        [`${p}BootSimulatedMs`]: booted?.bootSimMs ?? 'n/a',
        [`${p}PodsRunning`]: last?.running ?? 0,
        [`${p}SimulatedMsAfterBoot`]: last?.simMs ?? 0,
        [`${p}WallMs`]: Math.round(performance.now() - started),
        [`${p}PeakHeapMB`]: booted ? (last?.peakHeapMB ?? 0) : 'n/a (the worker samples it from the end of boot on)',
        [`${p}PeakRssMB`]: rss,
      });
    });
  });
}

export async function run(): Promise<Record<string, number | string>> {
  const only = Number(process.env.SCALE ?? 0);
  const budgetMs = Number(process.env.SCALE_BUDGET_S ?? 1800) * 1000;
  let figures: Record<string, number | string> = {
    note: 'full kubelets, nothing scaled down (the scheduler-simulator annotations are off above 100 nodes, as createCluster defaults); each size in a child process stopped at its wall budget',
  };
  for (const size of SIZES) {
    if (only && size.nodes !== only) continue;
    figures = { ...figures, ...(await runSize(size.nodes, size.pods, budgetMs)) };
  }
  return figures;
}
