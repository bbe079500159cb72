// client-go's SharedInformerFactory (informers/factory.go): one informer per resource for every
// caller that asks for it, so a process that runs many controllers opens one list and one watch per
// resource however many of its controllers read that resource. kube-controller-manager hands one
// factory to all its controllers (the garbage collector and the quota monitors take the same typed
// informers too: controller-manager's informerfactory.NewInformerFactory prefers the typed factory).
import type { KubeObject } from '../../api/index.ts';
import type { TimerHandle } from '../../kernel/index.ts';
import { SharedInformer } from '../cache/shared-informer.ts';
import type { QueueClock } from '../workqueue/rate-limiting-queue.ts';
import { restListerWatcher } from './lister-watcher.ts';
import type { RestClient } from './rest-client.ts';

export interface InformerFactoryOptions {
  /** The reflectors' log lines, with the resource they are about ("pods", "leases"). */
  onLog?: (resource: string, line: string) => void;
}

export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedInformer<KubeObject>>();
  private started = false;

  constructor(
    private readonly clock: QueueClock & { every(intervalMs: number, fn: () => void): TimerHandle },
    private readonly client: RestClient,
    private readonly options: InformerFactoryOptions = {},
  ) {}

  /**
   * The informer for group/resource (all namespaces), made on first request. Asked for after
   * start(), it starts at once: kube-controller-manager's late users (the garbage collector's and
   * the quota controller's monitors) call the factory's Start again for what they added.
   */
  informerFor<T extends KubeObject>(group: string, resource: string): SharedInformer<T> {
    const key = `${group}/${resource}`;
    let informer = this.informers.get(key);
    if (informer === undefined) {
      const onLog = this.options.onLog;
      informer = new SharedInformer<KubeObject>(
        this.clock,
        restListerWatcher<KubeObject>(this.client, { group, resource }),
        onLog ? { onLog: (line) => onLog(resource, line) } : {},
      );
      this.informers.set(key, informer);
      if (this.started) informer.start();
    }
    return informer as unknown as SharedInformer<T>;
  }

  /** factory.Start: starts every informer made so far (and, from now on, each new one). */
  start(): void {
    this.started = true;
    for (const informer of this.informers.values()) informer.start();
  }

  /** factory.Shutdown: stops every informer. */
  stop(): void {
    this.started = false;
    for (const informer of this.informers.values()) informer.stop();
  }

  /** "group/resource" of each informer made, in the order they were asked for (tests, the UI). */
  resources(): string[] {
    return [...this.informers.keys()];
  }
}
