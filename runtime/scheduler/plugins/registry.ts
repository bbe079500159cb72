// The in-tree plugin registry: name -> factory(args). mirrors
// pkg/scheduler/framework/plugins/registry.go (NewInTreeRegistry), limited to the plugins this
// simulation models. UNMODELED lists upstream default plugins that are accepted in a
// configuration's disabled lists but cannot be enabled here.
import type { AnyPlugin } from '../framework/cycle.ts';
import { newDefaultBinder } from './defaultbinder/default-binder.ts';
import { newDefaultPreemption } from './defaultpreemption/default-preemption.ts';
import { newImageLocality } from './imagelocality/image-locality.ts';
import { newNodeAffinity, type NodeAffinityArgs } from './nodeaffinity/node-affinity.ts';
import { newNodeName } from './nodename/node-name.ts';
import { newNodePorts } from './nodeports/node-ports.ts';
import {
  newBalancedAllocation,
  type BalancedAllocationArgs,
} from './noderesources/balanced-allocation.ts';
import {
  DEFAULT_FIT_ARGS,
  newNodeResourcesFit,
  type NodeResourcesFitArgs,
} from './noderesources/fit.ts';
import { newNodeUnschedulable } from './nodeunschedulable/node-unschedulable.ts';
import { newPodTopologySpread } from './podtopologyspread/pod-topology-spread.ts';
import { newTaintToleration } from './tainttoleration/taint-toleration.ts';
import { NAME as PRIORITY_SORT } from './queuesort/priority-sort.ts';

/** SetDefaults_NodeResourcesFitArgs: LeastAllocated over cpu and memory, weight 1 each. */
function withFitDefaults(args: unknown): NodeResourcesFitArgs {
  const s = (args as Partial<NodeResourcesFitArgs> | undefined)?.scoringStrategy;
  if (!s) return DEFAULT_FIT_ARGS;
  return {
    scoringStrategy: {
      type: s.type ?? 'LeastAllocated',
      resources: s.resources ?? DEFAULT_FIT_ARGS.scoringStrategy.resources,
      ...(s.requestedToCapacityRatio
        ? { requestedToCapacityRatio: s.requestedToCapacityRatio }
        : {}),
    },
  };
}

/** A plugin factory; `args` were validated by the profile. */
export type PluginFactory = (args: unknown) => AnyPlugin;

export const IN_TREE_REGISTRY: Readonly<Record<string, PluginFactory>> = {
  [PRIORITY_SORT]: () => ({ name: PRIORITY_SORT }),
  NodeUnschedulable: () => newNodeUnschedulable(),
  NodeName: () => newNodeName(),
  TaintToleration: () => newTaintToleration(),
  NodeAffinity: (args) => newNodeAffinity(args as NodeAffinityArgs | undefined),
  NodePorts: () => newNodePorts(),
  NodeResourcesFit: (args) => newNodeResourcesFit(withFitDefaults(args)),
  PodTopologySpread: () => newPodTopologySpread(),
  DefaultPreemption: () => newDefaultPreemption(),
  NodeResourcesBalancedAllocation: (args) =>
    newBalancedAllocation(args as BalancedAllocationArgs | undefined),
  ImageLocality: () => newImageLocality(),
  DefaultBinder: () => newDefaultBinder(),
};

/** Upstream default-profile plugins this simulation does not model (volumes, inter-pod affinity, gates). */
export const UNMODELED = new Set([
  'SchedulingGates',
  'VolumeRestrictions',
  'NodeVolumeLimits',
  'VolumeBinding',
  'VolumeZone',
  'InterPodAffinity',
  'DynamicResources',
]);
