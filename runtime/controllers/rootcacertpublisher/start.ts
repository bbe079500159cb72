import type { ConfigMap, Namespace } from '../../api/index.ts';
import { hosted, type HostedController, type HostedControllerDeps } from '../namespace/hosted.ts';
import { RootCACertPublisher } from './controller.ts';

/** The publisher as kube-controller-manager runs it ("root-ca-certificate-publisher-controller"). */
export function startRootCACertPublisher(d: HostedControllerDeps): HostedController {
  const c = new RootCACertPublisher({
    clock: d.clock, client: d.client,
    namespaces: d.informer<Namespace>('', 'namespaces'),
    configMaps: d.informer<ConfigMap>('', 'configmaps'),
    rootCA: d.rootCA ?? '',
    onLog: (m) => d.log(`root-ca-certificate-publisher-controller: ${m}`),
  });
  return hosted(c);
}
