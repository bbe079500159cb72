import type { Node } from '../../api/index.ts';
import { hosted, type HostedController, type HostedControllerDeps } from '../namespace/hosted.ts';
import { PodGCController } from './controller.ts';

/** The pod garbage collector as kube-controller-manager runs it ("pod-garbage-collector"). */
export function startPodGCController(d: HostedControllerDeps): HostedController {
  const nodes = d.informer<Node>('', 'nodes');
  const c = new PodGCController({ clock: d.clock, client: d.client, pods: d.pods, nodes, onLog: (m) => d.log(`pod-garbage-collector: ${m}`) });
  return hosted(c);
}
