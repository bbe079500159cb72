import type { KubeObject } from '../../api/index.ts';
import type { HostedController, HostedControllerDeps } from '../namespace/hosted.ts';
import { hosted } from '../namespace/hosted.ts';
import { GarbageCollector, monitoredResources } from './controller.ts';

/**
 * The garbage collector as kube-controller-manager runs it ("generic-garbage-collector"). Its
 * monitors are the manager's shared informers (ObjectOrMetadataInformerFactory hands out the typed
 * informer every controller shares when there is one, and every resource served here has one).
 */
export function startGarbageCollector(d: HostedControllerDeps): HostedController {
  const monitors = monitoredResources().map((resource) => ({ resource, informer: d.informer<KubeObject>(resource.group, resource.resource) }));
  const gc = new GarbageCollector({ clock: d.clock, client: d.client, monitors, onLog: (m) => d.log(`garbage-collector: ${m}`) });
  return hosted(gc);
}
