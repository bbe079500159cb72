import type { EndpointSlice, Endpoints, Service } from '../../api/index.ts';
import type { HostedController, HostedControllerDeps } from '../namespace/hosted.ts';
import { hosted } from '../namespace/hosted.ts';
import { EndpointSliceMirroringController } from './controller.ts';

/** The mirroring controller as kube-controller-manager runs it ("endpointslice-mirroring-controller"). */
export function startEndpointSliceMirroringController(d: HostedControllerDeps): HostedController {
  const endpoints = d.informer<Endpoints>('', 'endpoints');
  const services = d.informer<Service>('', 'services');
  const endpointSlices = d.informer<EndpointSlice>('discovery.k8s.io', 'endpointslices');
  const c = new EndpointSliceMirroringController({ clock: d.clock, client: d.client, endpoints, services, endpointSlices, recorder: d.recorder, onLog: (m) => d.log(`endpointslice-mirroring-controller: ${m}`) });
  return hosted(c);
}
