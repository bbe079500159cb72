// Topology spread constraints as the plugin uses them: the selector parsed once, the node
// inclusion policies defaulted. mirrors pkg/scheduler/framework/plugins/podtopologyspread/common.go
// (topologySpreadConstraint, filterTopologySpreadConstraints, MatchNodeInclusionPolicies,
// nodeLabelsMatchSpreadConstraints, countPodsMatchSelector).
import {
  labelSelectorAsSelector,
  newRequirement,
  type Pod,
  type Selector,
  type TopologySpreadConstraint,
} from '../../../api/index.ts';
import type { SchedNode } from '../../framework/node-info.ts';
import type { SchedPodInfo } from '../../framework/pod-info.ts';
import { findMatchingUntoleratedTaint } from '../helper/taints.ts';
import { podMatchesNodeSelectorAndAffinity } from '../nodeaffinity/node-affinity.ts';

export type InclusionPolicy = 'Honor' | 'Ignore';

/** The v1 fields our api types do not declare yet (they are optional on the wire). */
type WireConstraint = TopologySpreadConstraint & {
  nodeAffinityPolicy?: InclusionPolicy;
  nodeTaintsPolicy?: InclusionPolicy;
  matchLabelKeys?: string[];
};

export interface Constraint {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  minDomains: number;
  nodeAffinityPolicy: InclusionPolicy;
  nodeTaintsPolicy: InclusionPolicy;
}

/** The pod's constraints with the given whenUnsatisfiable, or an error text for a bad selector. */
export function podConstraints(
  pod: Pod,
  action: 'DoNotSchedule' | 'ScheduleAnyway',
): { ok: true; constraints: Constraint[] } | { ok: false; error: string } {
  const out: Constraint[] = [];
  const labels = pod.metadata?.labels ?? {};
  for (const raw of (pod.spec.topologySpreadConstraints ?? []) as WireConstraint[]) {
    if (raw.whenUnsatisfiable !== action) continue;
    const parsed = labelSelectorAsSelector(raw.labelSelector);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    let selector = parsed.selector;
    for (const key of raw.matchLabelKeys ?? []) {
      const value = labels[key];
      if (value === undefined) continue;
      const r = newRequirement(key, 'in', [value]);
      if (r.ok) selector = selector.add(r.requirement);
    }
    out.push({
      maxSkew: raw.maxSkew,
      topologyKey: raw.topologyKey,
      selector,
      minDomains: raw.minDomains ?? 1,
      nodeAffinityPolicy: raw.nodeAffinityPolicy ?? 'Honor',
      nodeTaintsPolicy: raw.nodeTaintsPolicy ?? 'Ignore',
    });
  }
  return { ok: true, constraints: out };
}

export function nodeLabelsMatchSpreadConstraints(
  node: SchedNode,
  constraints: readonly Constraint[],
): boolean {
  return constraints.every((c) => Object.hasOwn(node.labels, c.topologyKey));
}

/** Whether the node counts toward this constraint's domains for this pod. */
export function matchNodeInclusionPolicies(c: Constraint, pod: Pod, node: SchedNode): boolean {
  if (c.nodeAffinityPolicy === 'Honor' && !podMatchesNodeSelectorAndAffinity(pod, node))
    return false;
  if (c.nodeTaintsPolicy === 'Honor') {
    const hard = (t: { effect: string }) => t.effect === 'NoSchedule' || t.effect === 'NoExecute';
    if (findMatchingUntoleratedTaint(node.taints, pod.spec.tolerations ?? [], hard)) return false;
  }
  return true;
}

/** Pods on a node in the same namespace whose labels match, terminating pods excluded. */
export function countPodsMatchSelector(
  pods: readonly SchedPodInfo[],
  selector: Selector,
  namespace: string,
): number {
  if (selector.isNothing()) return 0;
  let n = 0;
  for (const p of pods) {
    if (p.pod.metadata?.deletionTimestamp || p.namespace !== namespace) continue;
    if (selector.matches(p.labels)) n++;
  }
  return n;
}
