// The pod garbage collector (kube-controller-manager's "pod-garbage-collector"). Every 20 s it:
// - gcOrphaned: deletes pods bound to a Node that no longer exists. A node missing from the cache
//   is quarantined for 40 s, then confirmed missing with a GET before its pods go (an informer can
//   lag a node's creation); the pods get the DisruptionTarget condition, then a force delete
//   (grace 0: no kubelet is left to finish a graceful one);
// - gcUnscheduledTerminating: force-deletes terminating pods that were never scheduled;
// - gcTerminated: beyond terminatedPodThreshold (12,500) finished pods, deletes the oldest.
// This is how the pods of a Node the cloud-controller-manager deleted go away, so that their
// ReplicaSet creates replacements elsewhere.
// mirrors pkg/controller/podgc/gc_controller.go (gc, gcOrphaned, discoverDeletedNodes,
// checkIfNodeExists, gcUnscheduledTerminating, gcTerminated, markFailedAndDeletePod)
import { rfc3339, type Node, type Pod } from '../../api/index.ts';
import type { RestClient, SharedInformer } from '../../client/index.ts';
import type { ControllerClock } from '../replicaset/controller.ts';

/** gcCheckPeriod */
export const GC_CHECK_PERIOD_MS = 20_000;
/** quarantineTime: how long a node must be missing before its pods count as orphaned. */
export const QUARANTINE_MS = 40_000;
/** --terminated-pod-gc-threshold default. */
export const TERMINATED_POD_GC_THRESHOLD = 12_500;

const isTerminated = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
const keyOf = (p: Pod): string => `${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`;

/** Nodes pods are bound to that the cache does not hold (discoverDeletedNodes' candidates). */
export function missingNodes(pods: readonly Pod[], existing: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const p of pods) {
    const node = p.spec?.nodeName;
    if (node && !existing.has(node)) out.add(node);
  }
  return [...out].sort();
}

/** gcTerminated: the oldest finished pods beyond the threshold (by creationTimestamp, then name). */
export function terminatedPodsToDelete(pods: readonly Pod[], threshold: number): Pod[] {
  const done = pods.filter(isTerminated);
  if (done.length <= threshold) return [];
  const sorted = [...done].sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || keyOf(a).localeCompare(keyOf(b)));
  return sorted.slice(0, done.length - threshold);
}

export interface PodGCControllerOptions {
  clock: ControllerClock;
  client: RestClient;
  pods: SharedInformer<Pod>;
  nodes: SharedInformer<Node>;
  terminatedPodThreshold?: number;
  onLog?: (message: string) => void;
}

export class PodGCController {
  /** Node name -> when it was first seen missing. */
  private readonly quarantine = new Map<string, number>();
  /** Pods with a delete in flight (not asked twice). */
  private readonly deleting = new Set<string>();
  private timer: { cancel(): void } | undefined;
  private stopped = false;

  constructor(private readonly o: PodGCControllerOptions) {}

  start(): void {
    const loop = (): void => {
      if (this.stopped) return;
      this.gc();
      this.timer = this.o.clock.setTimer(GC_CHECK_PERIOD_MS, loop);
    };
    this.timer = this.o.clock.setTimer(GC_CHECK_PERIOD_MS, loop);
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  gc(): void {
    if (!this.o.pods.hasSynced || !this.o.nodes.hasSynced) return;
    const pods = this.o.pods.lister.list();
    for (const p of terminatedPodsToDelete(pods, this.o.terminatedPodThreshold ?? TERMINATED_POD_GC_THRESHOLD)) this.deletePod(p, undefined);
    this.gcOrphaned(pods);
    for (const p of pods.filter((x) => x.metadata.deletionTimestamp && !x.spec?.nodeName)) this.deletePod(p, undefined);
  }

  private gcOrphaned(pods: readonly Pod[]): void {
    const existing = new Set(this.o.nodes.lister.list().map((n) => n.metadata.name ?? ''));
    const missing = missingNodes(pods, existing);
    for (const name of [...this.quarantine.keys()]) if (!missing.includes(name)) this.quarantine.delete(name);
    const now = this.o.clock.now();
    for (const name of missing) {
      const since = this.quarantine.get(name);
      if (since === undefined) {
        this.quarantine.set(name, now);
        continue;
      }
      if (now - since < QUARANTINE_MS) continue;
      // checkIfNodeExists: the cache may lag; ask the API server before deleting anything
      this.o.client.request({ verb: 'get', group: '', resource: 'nodes', name }, (res) => {
        if (this.stopped || res.code !== 404) return;
        for (const p of this.o.pods.lister.list((x) => x.spec?.nodeName === name)) {
          this.o.onLog?.(`Found orphaned Pod ${keyOf(p)} assigned to the Node ${name}, deleting`);
          this.deletePod(p, 'PodGC: node no longer exists');
        }
      });
    }
  }

  /** markFailedAndDeletePod: the DisruptionTarget condition first (when a reason is given), then a force delete. */
  private deletePod(p: Pod, disruption: string | undefined): void {
    const key = keyOf(p);
    if (this.deleting.has(key)) return;
    this.deleting.add(key);
    const target = { group: '', resource: 'pods', namespace: p.metadata.namespace ?? 'default', name: p.metadata.name ?? '' };
    const remove = (): void => this.o.client.request({ verb: 'delete', ...target, query: { gracePeriodSeconds: 0 } }, (res) => {
      this.deleting.delete(key);
      if (!this.stopped && res.code !== 200 && res.code !== 404) this.o.onLog?.(`failed to delete pod ${key}: ${res.code}`);
    });
    if (!disruption || isTerminated(p)) return remove();
    const condition = { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: disruption, lastTransitionTime: rfc3339(this.o.clock.now()) };
    const conditions = [...(p.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'), condition];
    this.o.client.request({ verb: 'patch', ...target, subresource: 'status', body: { status: { phase: 'Failed', conditions } }, patchType: 'application/merge-patch+json' }, () => {
      if (!this.stopped) remove();
    });
  }
}
