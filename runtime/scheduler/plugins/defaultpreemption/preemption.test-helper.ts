// Test fixtures for the preemption tests: upstream's resource sizes (default_preemption_test.go),
// and the default profile's PreFilter + Filter plugins as the dry run's filter, counting calls.
import { rfc3339, type Pod } from '../../../api/index.ts';
import type { PreFilterPlugin } from '../../framework/cycle.ts';
import type { CycleState, Status } from '../../framework/interface.ts';
import type { SchedNodeInfo } from '../../framework/node-info.ts';
import { newPodInfo, type SchedPodInfo } from '../../framework/pod-info.ts';
import { Snapshot } from '../../framework/snapshot.ts';
import { isSuccess, success } from '../../framework/status.ts';
import { defaultProfile } from '../../profile.ts';
import { container, makeNode, makePod, type PodOptions } from '../../testing-builders.ts';
import type { FilterFn } from './select-victims.ts';

export const NEG = -100;
export const LOW = 0;
export const MID = 100;
export const HIGH = 1000;
export const VERY_HIGH = 10000;

export const SMALL = { cpu: '100m', memory: '100' };
export const MEDIUM = { cpu: '200m', memory: '200' };
export const LARGE = { cpu: '300m', memory: '300' };
export const VERY_LARGE = { cpu: '500m', memory: '500' };

/** epochTimeN of upstream's tests: N simulated seconds in (metav1.Time keeps seconds on the wire). */
export const epoch = (n: number): string => rfc3339(n * 1000);

export interface PodSpecLite {
  node?: string;
  priority: number;
  res?: { cpu: string; memory: string };
  labels?: Record<string, string>;
  startTime?: string;
  namespace?: string;
}

export function pod(name: string, s: PodSpecLite): Pod {
  const o: PodOptions = { priority: s.priority, uid: name, containers: s.res ? [container(s.res)] : [] };
  if (s.node) o.nodeName = s.node;
  if (s.labels) o.labels = s.labels;
  if (s.startTime) o.startTime = s.startTime;
  if (s.namespace) o.namespace = s.namespace;
  return makePod(name, o);
}

/** Nodes of upstream's veryLargeRes capacity (500m, 500 bytes; 110 pods). */
export function snapshotOf(nodeNames: readonly string[], pods: readonly Pod[]): Snapshot {
  const nodes = nodeNames.map((n) => makeNode(n, { ...VERY_LARGE }));
  return Snapshot.build(nodes, [...pods]);
}

export interface Filtering {
  state: CycleState;
  filter: FilterFn;
  calls: () => number;
}

/** RunPreFilterPlugins then RunFilterPlugins of the default profile; counts the filter runs. */
export function profileFilter(preemptor: SchedPodInfo | Pod, allNodes: readonly SchedNodeInfo[]): Filtering {
  const p = 'requests' in preemptor ? preemptor : newPodInfo(preemptor);
  const profile = defaultProfile();
  const state: CycleState = new Map();
  const skipped = new Set<string>();
  for (const pl of profile.preFilter) {
    const [, s] = pl.preFilter(state, p, { allNodes });
    if (s.code === 'Skip') skipped.add(pl.name);
  }
  let calls = 0;
  const run = (fn: (pl: PreFilterPlugin) => Status | undefined): Status => {
    for (const pl of profile.preFilter) {
      if (skipped.has(pl.name)) continue;
      const s = fn(pl) ?? success();
      if (!isSuccess(s)) return s;
    }
    return success();
  };
  const filter: FilterFn = Object.assign(
    (st: CycleState, pd: SchedPodInfo, info: SchedNodeInfo) => {
      calls++;
      for (const pl of profile.filter) {
        if (skipped.has(pl.name)) continue;
        const s = pl.filter(st, pd, info);
        if (!isSuccess(s)) return s;
      }
      return success();
    },
    {
      // RunPreFilterExtensionAddPod / RemovePod over the plugins that did not skip
      addPod: (st: CycleState, pd: SchedPodInfo, other: SchedPodInfo, info: SchedNodeInfo) => run((pl) => pl.preFilterExtensions?.()?.addPod(st, pd, other, info)),
      removePod: (st: CycleState, pd: SchedPodInfo, other: SchedPodInfo, info: SchedNodeInfo) => run((pl) => pl.preFilterExtensions?.()?.removePod(st, pd, other, info)),
    },
  );
  return { state, filter, calls: () => calls };
}
