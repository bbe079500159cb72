// The RollingUpdate step of the DaemonSet controller as a pure function, mirroring
// pkg/controller/daemon/update.go (rollingUpdate, updatedDesiredNodeCounts, findUpdatedPodsOnNode)
// and util/daemonset_util.go (UnavailableCount, SurgeCount: both percentages round UP).
// Upstream walks a Go map (random order); we walk nodes by name so a seed replays exactly.
import type { DaemonSet, Node, Pod } from '../../api/index.ts';
import { isPodAvailable } from '../controller-utils.ts';
import { getScaledValueFromIntOrPercent, type Scaled } from '../deployment/util.ts';
import { nodeShouldRunDaemonPod } from './eligibility.ts';
import { isPodUpdated, templateGeneration } from './pods.ts';

/** UnavailableCount: maxUnavailable of desired, rounded up (0 when not a RollingUpdate). */
export function unavailableCount(ds: DaemonSet, desired: number): Scaled {
  const s = ds.spec.updateStrategy;
  if (s?.type !== 'RollingUpdate' || !s.rollingUpdate) return { ok: true, value: 0 };
  return getScaledValueFromIntOrPercent(s.rollingUpdate.maxUnavailable ?? 0, desired, true);
}

/** SurgeCount: maxSurge of desired, rounded up (0 when not a RollingUpdate or unset). */
export function surgeCount(ds: DaemonSet, desired: number): Scaled {
  const s = ds.spec.updateStrategy;
  if (s?.type !== 'RollingUpdate' || s.rollingUpdate?.maxSurge === undefined) return { ok: true, value: 0 };
  return getScaledValueFromIntOrPercent(s.rollingUpdate.maxSurge, desired, true);
}

export interface DesiredCounts {
  maxSurge: number;
  maxUnavailable: number;
  desired: number;
  /** Every node with daemon pods plus every node that should have one (with no pods: []). */
  byNode: Map<string, Pod[]>;
}

/** updatedDesiredNodeCounts: an impossible 0/0 configuration falls back to maxUnavailable 1. */
export function desiredNodeCounts(ds: DaemonSet, nodes: readonly Node[], byNode: ReadonlyMap<string, Pod[]>): DesiredCounts | { error: string } {
  const all = new Map(byNode);
  let desired = 0;
  for (const node of nodes) {
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) continue;
    desired++;
    const name = node.metadata.name ?? '';
    if (!all.has(name)) all.set(name, []);
  }
  const unavailable = unavailableCount(ds, desired);
  if (!unavailable.ok) return { error: `invalid value for MaxUnavailable: ${unavailable.error}` };
  const surge = surgeCount(ds, desired);
  if (!surge.ok) return { error: `invalid value for MaxSurge: ${surge.error}` };
  const maxUnavailable = desired > 0 && unavailable.value === 0 && surge.value === 0 ? 1 : unavailable.value;
  return { maxSurge: surge.value, maxUnavailable, desired, byNode: all };
}

/** findUpdatedPodsOnNode: at most one new and one old live pod, else ok = false (manage cleans up). */
export function updatedPodsOnNode(ds: DaemonSet, pods: readonly Pod[], hash: string): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  const generation = templateGeneration(ds);
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) return { ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { ok: false };
      oldPod = pod;
    }
  }
  return { ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}), ok: true };
}

export interface RollingPlan {
  podsToDelete: string[];
  nodesToCreate: string[];
}

const byName = ([a]: [string, Pod[]], [b]: [string, Pod[]]): number => (a < b ? -1 : a > b ? 1 : 0);

/** rollingUpdate: which old pods to delete (and, when surging, where to create new ones) now. */
export function planRollingUpdate(ds: DaemonSet, nodes: readonly Node[], byNode: ReadonlyMap<string, Pod[]>, hash: string, nowMs: number): RollingPlan | { error: string } {
  const counts = desiredNodeCounts(ds, nodes, byNode);
  if ('error' in counts) return counts;
  return counts.maxSurge === 0 ? planWithoutSurge(ds, counts, hash, nowMs) : planWithSurge(ds, nodes, counts, hash, nowMs);
}

/**
 * Without surge: delete just enough old pods to stay within maxUnavailable and let manage create
 * their replacements. Unavailable old pods are replaced at once; a node with no pod, or with
 * both an old and a new pod, counts as unavailable; deleted pods do not count.
 */
function planWithoutSurge(ds: DaemonSet, counts: DesiredCounts, hash: string, nowMs: number): RollingPlan {
  const minReady = ds.spec.minReadySeconds ?? 0;
  let numUnavailable = 0;
  const replacements: string[] = [];
  const candidates: string[] = [];
  for (const [, pods] of [...counts.byNode].sort(byName)) {
    const { newPod, oldPod, ok } = updatedPodsOnNode(ds, pods, hash);
    if (!ok || (!newPod && !oldPod) || (newPod && oldPod)) {
      numUnavailable++;
    } else if (newPod) {
      if (!isPodAvailable(newPod, minReady, nowMs)) numUnavailable++;
    } else if (oldPod && !isPodAvailable(oldPod, minReady, nowMs)) {
      replacements.push(oldPod.metadata.name ?? '');
      numUnavailable++;
    } else if (oldPod && numUnavailable < counts.maxUnavailable) {
      candidates.push(oldPod.metadata.name ?? '');
    }
  }
  const remaining = Math.min(Math.max(counts.maxUnavailable - numUnavailable, 0), candidates.length);
  return { podsToDelete: [...replacements, ...candidates.slice(0, remaining)], nodesToCreate: [] };
}

/**
 * With surge: start a new pod beside an old one (at once where the old one is unavailable, else
 * up to maxSurge at a time), delete the old pod once the new one is available, and delete pods on
 * nodes that no longer qualify only while enough pods elsewhere are available.
 */
function planWithSurge(ds: DaemonSet, nodes: readonly Node[], counts: DesiredCounts, hash: string, nowMs: number): RollingPlan {
  const minReady = ds.spec.minReadySeconds ?? 0;
  const nodeByName = new Map(nodes.map((n) => [n.metadata.name ?? '', n]));
  const shouldRun = (name: string): boolean => {
    const node = nodeByName.get(name);
    return node !== undefined && nodeShouldRunDaemonPod(node, ds).shouldRun;
  };
  const oldPodsToDelete: string[] = [];
  const shouldNotRunPodsToDelete: string[] = [];
  const allowedNewNodes: string[] = [];
  const candidateNewNodes: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [nodeName, pods] of [...counts.byNode].sort(byName)) {
    const { newPod, oldPod, ok } = updatedPodsOnNode(ds, pods, hash);
    if (!ok) {
      numSurge++;
      continue;
    }
    const counted = oldPod ?? newPod;
    if (counted && isPodAvailable(counted, minReady, nowMs)) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      if (!isPodAvailable(oldPod, minReady, nowMs)) {
        if (shouldRun(nodeName)) allowedNewNodes.push(nodeName);
        else oldPodsToDelete.push(oldPod.metadata.name ?? '');
      } else if (!shouldRun(nodeName)) {
        shouldNotRunPodsToDelete.push(oldPod.metadata.name ?? '');
      } else if (numSurge < counts.maxSurge) {
        candidateNewNodes.push(nodeName);
      }
      continue;
    }
    if (!isPodAvailable(newPod, minReady, nowMs)) numSurge++;
    else oldPodsToDelete.push(oldPod.metadata.name ?? '');
  }
  const deletable = Math.min(Math.max(numAvailable - counts.desired, 0), shouldNotRunPodsToDelete.length);
  oldPodsToDelete.push(...shouldNotRunPodsToDelete.slice(0, deletable));
  const remainingSurge = Math.min(Math.max(counts.maxSurge - numSurge, 0), candidateNewNodes.length);
  return { podsToDelete: oldPodsToDelete, nodesToCreate: [...allowedNewNodes, ...candidateNewNodes.slice(0, remainingSurge)] };
}
