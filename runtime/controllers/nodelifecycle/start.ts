// The node lifecycle controller as kube-controller-manager hosts it (startHostedNodeLifecycleController,
// one of the leader's loops, acting as system:serviceaccount:kube-system:node-controller), or as its
// own kernel process for tests that need it alone (startNodeLifecycleController).
// A crash loses the health records, so a restarted controller grants every node a fresh grace
// period, as the real one does after a restart.
import { SharedInformerFactory, createEventRecorder, type RestClient } from '../../client/index.ts';
import type { Kernel, ProcessContext, SimProcess } from '../../kernel/index.ts';
import type { HostedController, HostedControllerDeps } from '../namespace/hosted.ts';
import { NodeLifecycleController } from './controller.ts';

/** kube-controller-manager's "nodelifecycle" controller (cmd/kube-controller-manager/app/core.go startNodeLifecycleController). */
export function startHostedNodeLifecycleController(d: HostedControllerDeps): HostedController {
  const controller = new NodeLifecycleController({
    clock: d.clock, informer: d.informer, client: d.client, recorder: d.recorder, isLive: d.isLive,
    log: (line) => d.log(`node-lifecycle-controller: ${line}`),
  });
  controller.start();
  return { stop: () => controller.stop() };
}

export interface NodeLifecycleOptions {
  /** Process name, e.g. "node-lifecycle-controller". */
  name: string;
  /** Informers' client (CN system:kube-controller-manager: list and watch everything). */
  restClient: RestClient;
  /** Writes' client (token of system:serviceaccount:kube-system:node-controller); default restClient. */
  controllerClient?: RestClient;
  onLog?: (line: string) => void;
}

export interface NodeLifecycleHandle {
  readonly process: SimProcess;
  /** The controller of the live incarnation (tests, UI). */
  controller(): NodeLifecycleController | undefined;
}

export function startNodeLifecycleController(kernel: Kernel, o: NodeLifecycleOptions): NodeLifecycleHandle {
  let current: NodeLifecycleController | undefined;
  let informers: SharedInformerFactory | undefined;
  const main = (ctx: ProcessContext): void => {
    current?.stop();
    informers?.stop();
    const client = o.controllerClient ?? o.restClient;
    const clock = { now: ctx.now, setTimer: ctx.setTimer, every: ctx.every };
    // a fresh factory per incarnation: a crash loses every cache
    const factory = new SharedInformerFactory(clock, o.restClient);
    informers = factory;
    current = new NodeLifecycleController({
      clock,
      informer: (group, resource) => factory.informerFor(group, resource),
      client,
      recorder: createEventRecorder({ clock, client, component: 'node-controller' }),
      log: (line) => {
        ctx.trace('node-lifecycle.log', line);
        o.onLog?.(line);
      },
      isLive: ctx.isLive,
    });
    current.start();
    factory.start();
  };
  const process = kernel.spawn(o.name, main);
  return { process, controller: () => current };
}
