import type { Endpoints, Service } from '../../api/index.ts';
import type { HostedController, HostedControllerDeps } from '../namespace/hosted.ts';
import { hosted } from '../namespace/hosted.ts';
import { EndpointsController } from './controller.ts';

/** The Endpoints controller as kube-controller-manager runs it ("endpoints-controller"). */
export function startEndpointsController(d: HostedControllerDeps): HostedController {
  const services = d.informer<Service>('', 'services');
  const endpoints = d.informer<Endpoints>('', 'endpoints');
  const c = new EndpointsController({ clock: d.clock, client: d.client, services, pods: d.pods, endpoints, recorder: d.recorder, onLog: (m) => d.log(`endpoints-controller: ${m}`) });
  return hosted(c);
}
