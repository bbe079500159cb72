import type { KubeObject } from '../../api/index.ts';
import type { HostedController, HostedControllerDeps } from '../namespace/hosted.ts';
import { hosted } from '../namespace/hosted.ts';
import { GarbageCollector, monitoredResources } from './controller.ts';

/** The garbage collector as kube-controller-manager runs it ("generic-garbage-collector"). */
export function startGarbageCollector(d: HostedControllerDeps): HostedController {
  const monitors = monitoredResources().map((resource) => ({
    resource,
    informer: resource.group === '' && resource.resource === 'pods' ? d.pods as unknown as ReturnType<typeof d.informer<KubeObject>> : d.informer<KubeObject>(resource.group, resource.resource),
  }));
  const gc = new GarbageCollector({ clock: d.clock, client: d.client, monitors, onLog: (m) => d.log(`garbage-collector: ${m}`) });
  return hosted(gc, monitors.filter((m) => m.informer !== (d.pods as unknown)).map((m) => m.informer));
}
