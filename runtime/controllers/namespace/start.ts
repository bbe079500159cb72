import type { Namespace } from '../../api/index.ts';
import { NamespaceController } from './controller.ts';
import { hosted, type HostedController, type HostedControllerDeps } from './hosted.ts';

/** The namespace controller as kube-controller-manager runs it ("namespace-controller"). */
export function startNamespaceController(d: HostedControllerDeps): HostedController {
  const namespaces = d.informer<Namespace>('', 'namespaces');
  const c = new NamespaceController({ clock: d.clock, client: d.client, namespaces, onLog: (m) => d.log(`namespace-controller: ${m}`), ...(d.epochMs !== undefined ? { epochMs: d.epochMs } : {}) });
  return hosted(c);
}
