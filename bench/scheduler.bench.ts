// kube-scheduler throughput: scheduleOne pods per wall-clock second on 5,000 nodes that already
// run 100,000 pods (20 each), the default profile, the chosen pod assumed on its node after every
// cycle (as the scheduler cache does). Three workloads: plain pods with requests, pods with a
// zone topology spread constraint (ScheduleAnyway, so PreScore counts pods cluster-wide), and pods
// that fit nowhere (every node filtered, FitError and the preemption dry run). Peak heap sampled.
import { createRng } from '../runtime/kernel/index.ts';
import type { Node, Pod } from '../runtime/api/index.ts';
import { Snapshot } from '../runtime/scheduler/framework/snapshot.ts';
import { newPodInfo } from '../runtime/scheduler/framework/pod-info.ts';
import { defaultProfile } from '../runtime/scheduler/profile.ts';
import { scheduleOne } from '../runtime/scheduler/schedule-one.ts';
import { SELECTED_NODE } from '../runtime/scheduler/annotations.ts';
import { container, makeNode, makePod } from '../runtime/scheduler/testing-builders.ts';

export const name = 'scheduler';

const NODES = 5_000;
const PODS_PER_NODE = 20;
const MB = 1024 * 1024;

let peakHeap = 0;
const sampleHeap = (): void => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
};

function cluster(): { nodes: Node[]; pods: Pod[] } {
  const nodes: Node[] = [];
  const pods: Pod[] = [];
  for (let i = 0; i < NODES; i++) {
    const nodeName = `node-${i}`;
    nodes.push(
      makeNode(nodeName, {
        cpu: '32',
        memory: '128Gi',
        pods: 110,
        labels: { 'topology.kubernetes.io/zone': `zone-${i % 3}` },
        images: i % 4 === 0 ? [{ names: ['registry.k8s.io/app:v1'], sizeBytes: 300 * MB }] : [],
      }),
    );
    for (let j = 0; j < PODS_PER_NODE; j++) {
      pods.push(
        makePod(`existing-${i}-${j}`, {
          nodeName,
          labels: { app: `app-${j % 10}` },
          containers: [container({ cpu: '250m', memory: '512Mi' })],
        }),
      );
    }
  }
  return { nodes, pods };
}

function workload(kind: 'plain' | 'spread' | 'unschedulable', i: number): Pod {
  if (kind === 'unschedulable')
    return makePod(`huge-${i}`, { containers: [container({ cpu: '64' })] });
  return makePod(`${kind}-${i}`, {
    labels: { app: 'web' },
    containers: [container({ cpu: '100m', memory: '128Mi', image: 'registry.k8s.io/app:v1' })],
    ...(kind === 'spread'
      ? {
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'topology.kubernetes.io/zone',
              whenUnsatisfiable: 'ScheduleAnyway' as const,
              labelSelector: { matchLabels: { app: 'web' } },
            },
          ],
        }
      : {}),
  });
}

function measure(
  snapshot: Snapshot,
  kind: 'plain' | 'spread' | 'unschedulable',
  count: number,
  renderAnnotations = true,
): { podsPerSec: number; scheduled: number } {
  const profile = defaultProfile();
  const rng = createRng(1);
  let next = 0;
  let scheduled = 0;
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const pod = newPodInfo(workload(kind, i));
    const out = scheduleOne({
      profile,
      snapshot,
      pod,
      intn: (n) => rng.nextInt(n),
      nextStartNodeIndex: next,
    });
    next = out.nextStartNodeIndex;
    if (renderAnnotations && out.annotations[SELECTED_NODE] === undefined)
      throw new Error('no annotations');
    if (out.kind === 'Scheduled') {
      snapshot.assume(pod, out.suggestedHost);
      scheduled++;
    }
    if (i % 50 === 0) sampleHeap();
  }
  return { podsPerSec: Math.round(count / ((performance.now() - t0) / 1000)), scheduled };
}

export async function run(): Promise<Record<string, number | string>> {
  sampleHeap();
  const t0 = performance.now();
  const { nodes, pods } = cluster();
  const snapshot = Snapshot.build(nodes, pods);
  const buildMs = Math.round(performance.now() - t0);
  sampleHeap();
  const bare = measure(snapshot, 'plain', 1_000, false);
  const plain = measure(snapshot, 'plain', 1_000);
  const spread = measure(snapshot, 'spread', 300);
  const unschedulable = measure(snapshot, 'unschedulable', 20);
  sampleHeap();
  return {
    'cluster (nodes / pods already placed)': `${NODES} / ${NODES * PODS_PER_NODE}`,
    'snapshot build, ms': buildMs,
    'scheduleOne pods/s, plain pods, annotations not rendered': bare.podsPerSec,
    'scheduleOne pods/s, plain pods + simulator annotations': plain.podsPerSec,
    'scheduleOne pods/s, zone spread ScheduleAnyway': spread.podsPerSec,
    'scheduleOne pods/s, unschedulable (all 5000 filtered + preemption)': unschedulable.podsPerSec,
    'pods scheduled (bare + plain + spread)': bare.scheduled + plain.scheduled + spread.scheduled,
    'peak heap used, MB': Math.round(peakHeap / MB),
  };
}
