// The manage step of the DaemonSet controller as pure functions, mirroring
// pkg/controller/daemon/daemon_controller.go (getNodesToDaemonPods, podsShouldBeOnNode, manage,
// getUnscheduledPodsWithoutNode, updateDaemonSetStatus) and the failed-pod back-off
// (client-go util/flowcontrol Backoff, 1 s doubling to 15 min, no jitter).
import type { DaemonSet, DaemonSetStatus, Node, Pod } from '../../api/index.ts';
import { isPodAvailable, isPodReady } from '../controller-utils.ts';
import { nodeShouldRunDaemonPod } from './eligibility.ts';
import { surgeCount } from './rolling.ts';
import { byCreationAndPhase, isPodUpdated, REVISION_HASH_LABEL, targetNodeName, templateGeneration } from './pods.ts';

export const FAILED_POD_BACKOFF_INITIAL_MS = 1000;
export const FAILED_POD_BACKOFF_MAX_MS = 15 * 60 * 1000;

/** flowcontrol.Backoff: per-key delay that doubles on each Next, forgotten after 2x max idle. */
export class FailedPodBackoff {
  private readonly entries = new Map<string, { delayMs: number; lastUpdateMs: number }>();

  constructor(private readonly initialMs = FAILED_POD_BACKOFF_INITIAL_MS, private readonly maxMs = FAILED_POD_BACKOFF_MAX_MS) {}

  private live(key: string, nowMs: number): { delayMs: number; lastUpdateMs: number } | undefined {
    const e = this.entries.get(key);
    return e && nowMs - e.lastUpdateMs <= 2 * this.maxMs ? e : undefined;
  }

  /** IsInBackOffSinceUpdate. */
  inBackoff(key: string, nowMs: number): boolean {
    const e = this.live(key, nowMs);
    return e !== undefined && nowMs - e.lastUpdateMs < e.delayMs;
  }

  /** Get: the current delay (0 when unknown). */
  delayMs(key: string): number {
    return this.entries.get(key)?.delayMs ?? 0;
  }

  /** Next: start at the initial delay, or double it up to the maximum. */
  next(key: string, nowMs: number): void {
    const e = this.live(key, nowMs);
    const delayMs = e ? Math.min(2 * e.delayMs, this.maxMs) : this.initialMs;
    this.entries.set(key, { delayMs, lastUpdateMs: nowMs });
  }

  /** GC: forget entries idle for more than twice the maximum delay. */
  gc(nowMs: number): void {
    for (const key of [...this.entries.keys()]) if (!this.live(key, nowMs)) this.entries.delete(key);
  }
}

/** failedPodsBackoffKey: one back-off per DaemonSet and node. */
export function failedPodsBackoffKey(ds: DaemonSet, nodeName: string): string {
  return `${ds.metadata.uid ?? ''}/${ds.status?.observedGeneration ?? 0}/${nodeName}`;
}

/**
 * getNodesToDaemonPods: claimed pods grouped by target node; terminal pods already being
 * deleted are left out (the kubelet or pod GC will finish them).
 */
export function nodesToDaemonPods(pods: readonly Pod[]): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const pod of pods) {
    const terminal = pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';
    if (terminal && pod.metadata.deletionTimestamp) continue;
    const node = targetNodeName(pod);
    if (node === undefined) continue;
    out.set(node, [...(out.get(node) ?? []), pod]);
  }
  return out;
}

/** util.AllowsSurge: SurgeCount(ds, 1) is not zero. */
export function allowsSurge(ds: DaemonSet): boolean {
  const surge = surgeCount(ds, 1);
  return surge.ok && surge.value !== 0;
}

export interface ManageContext {
  nowMs: number;
  backoff: FailedPodBackoff;
  minReadySeconds: number;
}

export interface ManagePlan {
  nodesNeedingDaemonPods: string[];
  podsToDelete: string[];
  /** Failed pods about to be deleted (FailedDaemonPod events). */
  failedPods: { pod: Pod; node: string }[];
  /** Look again after this long: a failed pod is waiting out its back-off. */
  requeueAfterMs?: number;
}

/** manage: podsShouldBeOnNode for every node, plus unscheduled pods pinned to nodes that are gone. */
export function planManage(ds: DaemonSet, nodes: readonly Node[], byNode: ReadonlyMap<string, Pod[]>, hash: string, ctx: ManageContext): ManagePlan {
  const plan: ManagePlan = { nodesNeedingDaemonPods: [], podsToDelete: [], failedPods: [] };
  for (const node of nodes) podsShouldBeOnNode(node, byNode, ds, hash, ctx, plan);
  const known = new Set(nodes.map((n) => n.metadata.name ?? ''));
  for (const [nodeName, pods] of [...byNode].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (known.has(nodeName)) continue;
    for (const pod of pods) if (!pod.spec.nodeName) plan.podsToDelete.push(pod.metadata.name ?? '');
  }
  return plan;
}

function podsShouldBeOnNode(node: Node, byNode: ReadonlyMap<string, Pod[]>, ds: DaemonSet, hash: string, ctx: ManageContext, plan: ManagePlan): void {
  const nodeName = node.metadata.name ?? '';
  const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
  const daemonPods = byNode.get(nodeName);
  if (shouldRun && !daemonPods) {
    plan.nodesNeedingDaemonPods.push(nodeName);
    return;
  }
  if (!daemonPods) return;
  if (!shouldContinueRunning) {
    for (const pod of daemonPods) if (!pod.metadata.deletionTimestamp) plan.podsToDelete.push(pod.metadata.name ?? '');
    return;
  }
  const running: Pod[] = [];
  for (const pod of daemonPods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (pod.status?.phase === 'Failed') {
      // the controller often fights a kubelet that rejects the pod: back off per node
      const key = failedPodsBackoffKey(ds, nodeName);
      if (ctx.backoff.inBackoff(key, ctx.nowMs)) {
        const delay = ctx.backoff.delayMs(key);
        plan.requeueAfterMs = Math.min(plan.requeueAfterMs ?? delay, delay);
        continue;
      }
      ctx.backoff.next(key, ctx.nowMs);
      plan.failedPods.push({ pod, node: nodeName });
      plan.podsToDelete.push(pod.metadata.name ?? '');
    } else if (pod.status?.phase === 'Succeeded') {
      plan.podsToDelete.push(pod.metadata.name ?? '');
    } else {
      running.push(pod);
    }
  }
  if (running.length <= 1) {
    // surging: a node must keep at least one live pod
    if (running.length === 0 && shouldRun && allowsSurge(ds)) plan.nodesNeedingDaemonPods.push(nodeName);
    return;
  }
  running.sort(byCreationAndPhase);
  if (!allowsSurge(ds)) {
    // more than one pod on a node: keep the oldest
    for (const pod of running.slice(1)) plan.podsToDelete.push(pod.metadata.name ?? '');
    return;
  }
  pruneSurgePods(running, hash, ctx, plan);
}

/**
 * With surge, two pods may share a node only while the oldest new one is not yet available and
 * the oldest old one is still ready; every other pod goes.
 */
function pruneSurgePods(running: readonly Pod[], hash: string, ctx: ManageContext, plan: ManagePlan): void {
  let oldestNew: Pod | undefined;
  let oldestOld: Pod | undefined;
  for (const pod of running) {
    const isNew = pod.metadata.labels?.[REVISION_HASH_LABEL] === hash;
    if (isNew && !oldestNew) oldestNew = pod;
    else if (!isNew && !oldestOld) oldestOld = pod;
    else plan.podsToDelete.push(pod.metadata.name ?? '');
  }
  if (!oldestNew || !oldestOld) return;
  if (!isPodReady(oldestOld) || isPodAvailable(oldestNew, ctx.minReadySeconds, ctx.nowMs)) {
    plan.podsToDelete.push(oldestOld.metadata.name ?? '');
  }
}

/** updateDaemonSetStatus's counting (the oldest pod on each node speaks for it). */
export function calculateDaemonSetStatus(ds: DaemonSet, nodes: readonly Node[], byNode: ReadonlyMap<string, Pod[]>, hash: string, nowMs: number): Required<Pick<DaemonSetStatus,
  'desiredNumberScheduled' | 'currentNumberScheduled' | 'numberMisscheduled' | 'numberReady' | 'updatedNumberScheduled' | 'numberAvailable' | 'numberUnavailable'>> {
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let updated = 0;
  let available = 0;
  const generation = templateGeneration(ds);
  const minReady = ds.spec.minReadySeconds ?? 0;
  for (const node of nodes) {
    const pods = byNode.get(node.metadata.name ?? '') ?? [];
    const { shouldRun } = nodeShouldRunDaemonPod(node, ds);
    if (!shouldRun) {
      if (pods.length > 0) misscheduled++;
      continue;
    }
    desired++;
    if (pods.length === 0) continue;
    current++;
    const pod = [...pods].sort(byCreationAndPhase)[0]!;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, nowMs)) available++;
    }
    if (isPodUpdated(pod, hash, generation)) updated++;
  }
  return {
    desiredNumberScheduled: desired, currentNumberScheduled: current, numberMisscheduled: misscheduled,
    numberReady: ready, updatedNumberScheduled: updated, numberAvailable: available, numberUnavailable: desired - available,
  };
}
