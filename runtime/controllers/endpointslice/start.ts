import type { EndpointSlice, Service } from '../../api/index.ts';
import type { HostedController, HostedControllerDeps } from '../namespace/hosted.ts';
import { hosted } from '../namespace/hosted.ts';
import { EndpointSliceController } from './controller.ts';

/** The EndpointSlice controller as kube-controller-manager runs it ("endpointslice-controller"). */
export function startEndpointSliceController(d: HostedControllerDeps): HostedController {
  const services = d.informer<Service>('', 'services');
  const endpointSlices = d.informer<EndpointSlice>('discovery.k8s.io', 'endpointslices');
  const c = new EndpointSliceController({ clock: d.clock, client: d.client, services, pods: d.pods, endpointSlices, recorder: d.recorder, onLog: (m) => d.log(`endpointslice-controller: ${m}`) });
  return hosted(c);
}
