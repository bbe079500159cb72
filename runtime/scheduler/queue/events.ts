// Which cluster events may make a pod rejected by a plugin schedulable.
// mirrors each plugin's EventsToRegister (pkg/scheduler/framework/plugins/*/...go), without
// the queueing hint functions: an event of a registered kind moves the pod, whatever its details.
import type { ClusterEvent } from '../framework/cycle.ts';

const node = (action: ClusterEvent['action']): ClusterEvent => ({ resource: 'Node', action });
const pod = (action: ClusterEvent['action']): ClusterEvent => ({ resource: 'Pod', action });

export const PLUGIN_EVENTS: Readonly<Record<string, readonly ClusterEvent[]>> = {
  NodeUnschedulable: [node('Add'), node('UpdateNodeTaint')],
  NodeName: [node('Add')],
  NodePorts: [pod('Delete'), node('Add')],
  NodeResourcesFit: [pod('Delete'), pod('Update'), node('Add'), node('UpdateNodeAllocatable')],
  TaintToleration: [node('Add'), node('UpdateNodeTaint'), pod('Update')],
  NodeAffinity: [node('Add'), node('UpdateNodeLabel')],
  PodTopologySpread: [
    pod('Add'),
    pod('Update'),
    pod('Delete'),
    node('Add'),
    node('Delete'),
    node('UpdateNodeLabel'),
  ],
};

function matches(registered: ClusterEvent, event: ClusterEvent): boolean {
  const resource = registered.resource === '*' || registered.resource === event.resource;
  const action = registered.action === '*' || registered.action === event.action;
  return resource && action;
}

/**
 * Whether `event` may help a pod that these plugins rejected. No recorded plugins (an error,
 * or a plugin we know nothing about, such as a learner's) means any event may help.
 */
export function eventMayHelp(
  event: ClusterEvent,
  unschedulablePlugins: ReadonlySet<string>,
): boolean {
  if (unschedulablePlugins.size === 0) return true;
  for (const plugin of unschedulablePlugins) {
    const registered = PLUGIN_EVENTS[plugin];
    if (!registered || registered.some((r) => matches(r, event))) return true;
  }
  return false;
}
