// What kube-controller-manager hands each controller it hosts: a clock, the controller's own
// client and event recorder, and the manager's informer factory (one shared informer per resource,
// over the manager's client, started and stopped by the manager). Each start function returns how
// to stop the controller.
import type { KubeObject, Pod } from '../../api/index.ts';
import type { EventRecorder, RestClient, SharedInformer } from '../../client/index.ts';
import type { ControllerClock } from '../replicaset/controller.ts';

export interface HostedControllerDeps {
  clock: ControllerClock & { every(intervalMs: number, fn: () => void): { cancel(): void } };
  client: RestClient;
  recorder: EventRecorder;
  /** The manager's shared informer on group/resource (all namespaces): the same one for every controller. */
  informer: <T extends KubeObject>(group: string, resource: string) => SharedInformer<T>;
  /** The manager's shared pod informer (informer('', 'pods')). */
  pods: SharedInformer<Pod>;
  /** False once the manager's process died: late callbacks then do nothing. */
  isLive(): boolean;
  epochMs?: number;
  /** --root-ca-file's content: the cluster CA bundle (the root CA publisher's). */
  rootCA?: string;
  log: (line: string) => void;
}

export interface HostedController {
  stop(): void;
}

/** Starts a controller and returns its stop (its informers are the manager's to start and stop). */
export function hosted(controller: { start(): void; stop(): void }): HostedController {
  controller.start();
  return { stop: () => controller.stop() };
}
