import type { ControllerRevision, DaemonSet, Node } from '../../api/index.ts';
import type { HostedController, HostedControllerDeps } from '../namespace/hosted.ts';
import { hosted } from '../namespace/hosted.ts';
import { DaemonSetController } from './controller.ts';

/** The DaemonSet controller as kube-controller-manager runs it ("daemon-set-controller"). */
export function startDaemonSetController(d: HostedControllerDeps): HostedController {
  const daemonSets = d.informer<DaemonSet>('apps', 'daemonsets');
  const revisions = d.informer<ControllerRevision>('apps', 'controllerrevisions');
  const nodes = d.informer<Node>('', 'nodes');
  const c = new DaemonSetController({
    clock: d.clock, client: d.client, daemonSets, revisions, pods: d.pods, nodes, recorder: d.recorder,
    onLog: (m) => d.log(`daemon-set-controller: ${m}`),
  });
  return hosted(c);
}
