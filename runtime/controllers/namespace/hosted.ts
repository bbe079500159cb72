// What kube-controller-manager hands each controller it hosts: a clock, the controller's own
// client and event recorder, a factory for informers (over the manager's client) and the shared
// pod informer. Each start function returns how to stop the controller and its own informers.
import type { KubeObject, Pod } from '../../api/index.ts';
import type { EventRecorder, RestClient, SharedInformer } from '../../client/index.ts';
import type { ControllerClock } from '../replicaset/controller.ts';

export interface HostedControllerDeps {
  clock: ControllerClock & { every(intervalMs: number, fn: () => void): { cancel(): void } };
  client: RestClient;
  recorder: EventRecorder;
  /** A new informer on group/resource (all namespaces) over the manager's client; not started. */
  informer: <T extends KubeObject>(group: string, resource: string) => SharedInformer<T>;
  /** The manager's shared pod informer (started by the manager). */
  pods: SharedInformer<Pod>;
  /** The manager's own client, for controllers that build their informers themselves. */
  informerClient: RestClient;
  /** False once the manager's process died: late callbacks then do nothing. */
  isLive(): boolean;
  epochMs?: number;
  log: (line: string) => void;
}

export interface HostedController {
  stop(): void;
}

/** Starts the informers a controller owns and returns a stop for them and the controller. */
export function hosted(controller: { start(): void; stop(): void }, informers: readonly { start(): void; stop(): void }[]): HostedController {
  controller.start();
  for (const i of informers) i.start();
  return {
    stop: () => {
      controller.stop();
      for (const i of informers) i.stop();
    },
  };
}
