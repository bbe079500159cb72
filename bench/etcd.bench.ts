// npm run bench -- etcd
// Committed writes per wall-clock second through the client (1, 3, 5 members; clean network and
// 10% message loss), the simulated/wall time ratio, and peak heap for one million keys in the
// MVCC store. Speed is measured here, never asserted in tests.
import { createKernel } from '../runtime/kernel/index.ts';
import { createEtcdCluster, MvccStore, type EtcdClient } from '../runtime/etcd/index.ts';

export const name = 'etcd';

interface WriteRun {
  writes: number;
  wallMs: number;
  simulatedMs: number;
}

/** Closed-loop writers (8 clients, one write outstanding each) for `simulatedMs` of simulated time. */
function committedWrites(members: 1 | 3 | 5, lossRate: number, simulatedMs: number): WriteRun {
  const kernel = createKernel({ seed: 11, trace: { enabled: false } });
  const cluster = createEtcdCluster(kernel, { members });
  kernel.runUntil(() => cluster.leader() !== undefined, 10_000_000);
  kernel.net.configure({ lossRate });
  let writes = 0;
  const stopAt = kernel.now() + simulatedMs;
  const loop = (client: EtcdClient, id: number, n: number): void => {
    if (kernel.now() >= stopAt) return;
    client.put({ key: `bench/${id}/${n % 100}`, value: 'v'.repeat(64) }, (r) => {
      if (r.ok) writes++;
      loop(client, id, n + 1);
    }, { timeoutMs: 2000 });
  };
  for (let i = 0; i < 8; i++) loop(cluster.client({ name: `bench-${i}` }), i, 0);
  const started = performance.now();
  const simStart = kernel.now();
  kernel.runUntil(stopAt);
  return { writes, wallMs: performance.now() - started, simulatedMs: kernel.now() - simStart };
}

/** A 3-member cluster with a light load (10 writes/s simulated): how much faster than real time? */
function lightLoadRatio(): number {
  const kernel = createKernel({ seed: 5, trace: { enabled: false } });
  const cluster = createEtcdCluster(kernel, { members: 3 });
  const client = cluster.client({ name: 'light' });
  let n = 0;
  kernel.every(100, () => client.put({ key: `light/${n++ % 50}`, value: 'x' }, () => {}));
  const started = performance.now();
  kernel.runFor(300_000);
  return Math.round(300_000 / (performance.now() - started));
}

function heapForKeys(count: number): { peakHeapMB: number; wallMs: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const started = performance.now();
  const store = new MvccStore();
  for (let i = 0; i < count; i++) {
    const r = store.put({ key: `/registry/pods/ns-${i % 100}/pod-${i}`, value: `{"kind":"Pod","i":${i}}` });
    if (!r.ok) throw new Error(r.error.message);
    if (i % 100_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  const count2 = store.range({ key: '/registry/pods/ns-7/', rangeEnd: '/registry/pods/ns-70', countOnly: true });
  if (!count2.ok || count2.value.count !== count / 100) throw new Error('bench invariant: wrong count');
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { peakHeapMB: Math.round((peak - before) / 1e5) / 10, wallMs: performance.now() - started };
}

export async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  for (const members of [1, 3, 5] as const) {
    for (const loss of [0, 0.1]) {
      const r = committedWrites(members, loss, 20_000);
      const label = `${members} member(s), ${loss === 0 ? 'no faults' : '10% loss'}`;
      out[`committed writes/s (wall), ${label}`] = Math.round((r.writes / r.wallMs) * 1000);
      out[`committed writes/s (simulated), ${label}`] = Math.round((r.writes / r.simulatedMs) * 1000);
      out[`simulated/wall time ratio, ${label}`] = Math.round(r.simulatedMs / r.wallMs);
    }
  }
  out['simulated/wall time ratio, 3 members, 10 writes/s'] = lightLoadRatio();
  const heap = heapForKeys(1_000_000);
  out['MVCC 1M keys: heap growth (MB)'] = heap.peakHeapMB;
  out['MVCC 1M keys: put wall time (ms)'] = Math.round(heap.wallMs);
  out['MVCC 1M keys: puts/s'] = Math.round(1_000_000 / (heap.wallMs / 1000));
  return out;
}
