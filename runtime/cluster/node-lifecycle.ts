// The node lifecycle controller in the cluster. Upstream it is one loop of kube-controller-manager
// and runs only in the elected leader. Our controller manager does not host it yet, so each
// control-plane machine runs it as a companion process that acts only while the controller
// manager on the same machine is up and holds kube-system/kube-controller-manager (it reads the
// Lease every retryPeriod, 2 s; RBAC lets system:kube-controller-manager get that Lease only).
// A handover can overlap by up to one poll, which the controller tolerates (its writes are
// conflict-checked updates and idempotent deletes). It writes as
// system:serviceaccount:kube-system:node-controller, as with --use-service-account-credentials.
import type { Lease } from '../api/index.ts';
import type { Kernel, ProcessContext } from '../kernel/index.ts';
import { createEventRecorder, type RestClient, type RestCredentials } from '../client/index.ts';
import { NodeLifecycleController } from '../controllers/index.ts';

const KCM_LEASE = { namespace: 'kube-system', name: 'kube-controller-manager' };
const SERVICE_ACCOUNT = 'node-controller';
/** client-go leaderelection's retryPeriod, how often the lease is looked at. */
const POLL_MS = 2000;

export interface NodeLifecycleProcessOptions {
  name: string;
  /** The controller manager process on the same machine, whose leadership this follows. */
  controllerManager: string;
  /** Informers and the Lease reads (CN system:kube-controller-manager). */
  restClient: RestClient;
  /** A client for the node-controller service account's writes. */
  serviceAccountClient(credentials: RestCredentials): RestClient;
}

export function startNodeLifecycleProcess(kernel: Kernel, o: NodeLifecycleProcessOptions): void {
  const writer = o.serviceAccountClient({ token: `sa-token:kube-system:${SERVICE_ACCOUNT}` });
  kernel.spawn(o.name, (ctx: ProcessContext) => {
    const clock = { now: ctx.now, setTimer: ctx.setTimer, every: ctx.every };
    const log = (line: string): void => ctx.trace('node-lifecycle.log', line);
    o.restClient.request({ verb: 'create', group: '', resource: 'serviceaccounts', namespace: 'kube-system',
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SERVICE_ACCOUNT, namespace: 'kube-system' } } }, () => undefined);
    let controller: NodeLifecycleController | undefined;
    const follow = (leading: boolean): void => {
      if (leading && !controller) {
        log(`${o.controllerManager} leads: starting the node lifecycle controller`);
        controller = new NodeLifecycleController({
          clock, informerClient: o.restClient, client: writer, log, isLive: ctx.isLive,
          recorder: createEventRecorder({ clock, client: writer, component: 'node-controller' }),
        });
        controller.start();
      } else if (!leading && controller) {
        log(`${o.controllerManager} does not lead: stopping the node lifecycle controller`);
        controller.stop();
        controller = undefined;
      }
    };
    ctx.every(POLL_MS, () => {
      if (kernel.process(o.controllerManager)?.up !== true) return follow(false);
      o.restClient.request({ verb: 'get', group: 'coordination.k8s.io', resource: 'leases', ...KCM_LEASE }, (res) => {
        if (!ctx.isLive()) return;
        const holder = res.code === 200 ? (res.body as Lease).spec?.holderIdentity ?? '' : '';
        follow(holder.startsWith(`${o.controllerManager}_`) && kernel.process(o.controllerManager)?.up === true);
      });
    }, 0);
  });
}
