import type { KubeObject, ResourceQuota } from '../../api/index.ts';
import { resourceFor } from '../../api/index.ts';
import { hosted, type HostedController, type HostedControllerDeps } from '../namespace/hosted.ts';
import { ResourceQuotaController } from './controller.ts';

/** The ResourceQuota controller as kube-controller-manager runs it ("resourcequota-controller"). */
export function startResourceQuotaController(d: HostedControllerDeps): HostedController {
  const quotas = d.informer<ResourceQuota>('', 'resourcequotas');
  const c = new ResourceQuotaController({
    clock: d.clock, client: d.client, quotas, pods: d.pods,
    informerFor: (group, resource) => (resourceFor(group, resource)?.namespaced ? d.informer<KubeObject>(group, resource) : undefined),
    onLog: (m) => d.log(`resourcequota-controller: ${m}`),
  });
  return hosted(c);
}
