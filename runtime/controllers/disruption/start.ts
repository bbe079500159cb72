import type { Deployment, PodDisruptionBudget, ReplicaSet } from '../../api/index.ts';
import { createEventRecorder, type SharedInformer } from '../../client/index.ts';
import { hosted, type HostedController, type HostedControllerDeps } from '../namespace/hosted.ts';
import { DisruptionController } from './controller.ts';

/** The manager's shared informers the disruption controller reads besides pods (started by the manager). */
export interface DisruptionInformers {
  replicaSets: SharedInformer<ReplicaSet>;
  deployments: SharedInformer<Deployment>;
}

/** The disruption controller as kube-controller-manager runs it ("disruption-controller"). */
export function startDisruptionController(d: HostedControllerDeps, shared: DisruptionInformers): HostedController {
  const pdbs = d.informer<PodDisruptionBudget>('policy', 'poddisruptionbudgets');
  // NewDisruptionControllerInternal records as EventSource{Component: "controllermanager"}, not as its service account
  const recorder = createEventRecorder({ clock: d.clock, client: d.client, component: 'controllermanager', ...(d.epochMs !== undefined ? { epochMs: d.epochMs } : {}) });
  const c = new DisruptionController({
    clock: d.clock, client: d.client, recorder, pdbs, pods: d.pods, ...shared,
    ...(d.epochMs !== undefined ? { epochMs: d.epochMs } : {}),
    onLog: (m) => d.log(`disruption-controller: ${m}`),
  });
  return hosted(c);
}
