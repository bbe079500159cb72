import type { Namespace, ServiceAccount } from '../../api/index.ts';
import { hosted, type HostedController, type HostedControllerDeps } from '../namespace/hosted.ts';
import { ServiceAccountController } from './controller.ts';

/** The ServiceAccount controller as kube-controller-manager runs it ("service-account-controller"). */
export function startServiceAccountController(d: HostedControllerDeps): HostedController {
  const namespaces = d.informer<Namespace>('', 'namespaces');
  const serviceAccounts = d.informer<ServiceAccount>('', 'serviceaccounts');
  const c = new ServiceAccountController({
    clock: d.clock,
    client: d.client,
    namespaces,
    serviceAccounts,
    onLog: (m) => d.log(`service-account-controller: ${m}`),
  });
  return hosted(c);
}
