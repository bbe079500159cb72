// The EndpointSlice mirroring controller: a Service without a selector whose Endpoints a user
// wrote gets EndpointSlices mirroring them, so kube-proxy (which reads slices only) routes to
// those addresses. Informers on Endpoints, Services and EndpointSlices feed Endpoints keys into a
// rate-limited queue; a sync applies reconcileMirrored's changes (deletes, updates, creates), and
// removes the mirrored slices once the Endpoints, or its Service, is gone, or the Service gets a
// selector. Like the EndpointSlice controller, it will not act on a slice cache older than its
// own writes (endpointSliceTracker.StaleSlices).
// mirrors pkg/controller/endpointslicemirroring/endpointslicemirroring_controller.go (syncEndpoints,
// deleteMirroredSlices, onServiceUpdate, onEndpointSlice*).
import type { EndpointSlice, Endpoints, Service } from '../../api/index.ts';
import type { EventRecorder, RestClient, SharedInformer } from '../../client/index.ts';
import { RateLimitingQueue, isTombstone, runWorkers, type WorkerPool } from '../../client/index.ts';
import { keyOf } from '../controller-utils.ts';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME, SliceWriter } from '../endpointslice/index.ts';
import type { ControllerClock } from '../replicaset/controller.ts';
import { MIRRORING_CONTROLLER_NAME, reconcileMirrored, shouldMirror } from './mirror.ts';

export interface EndpointSliceMirroringOptions {
  clock: ControllerClock;
  client: RestClient;
  endpoints: SharedInformer<Endpoints>;
  services: SharedInformer<Service>;
  endpointSlices: SharedInformer<EndpointSlice>;
  recorder: EventRecorder;
  /** --mirroring-concurrent-service-endpoint-syncs (default 5). */
  workers?: number;
  onLog?: (message: string) => void;
}

export class EndpointSliceMirroringController {
  readonly queue: RateLimitingQueue<string>;
  private pool: WorkerPool | undefined;
  private readonly writer: SliceWriter;

  constructor(private readonly o: EndpointSliceMirroringOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    this.writer = new SliceWriter(o.client);
    const enqueue = (obj: unknown): void => {
      const o2 = isTombstone(obj) ? obj.obj : obj;
      this.queue.add(keyOf(o2 as Endpoints));
    };
    o.endpoints.addEventHandler({ onAdd: enqueue, onUpdate: (_old, e) => enqueue(e), onDelete: enqueue });
    o.services.addEventHandler({ onAdd: enqueue, onUpdate: (_old, s) => enqueue(s), onDelete: enqueue });
    const sliceChanged = (obj: unknown): void => {
      const s = (isTombstone(obj) ? obj.obj : obj) as EndpointSlice;
      const svc = s.metadata.labels?.[LABEL_SERVICE_NAME];
      if (svc && s.metadata.labels?.[LABEL_MANAGED_BY] === MIRRORING_CONTROLLER_NAME) this.queue.add(`${s.metadata.namespace ?? ''}/${svc}`);
    };
    o.endpointSlices.addEventHandler({ onAdd: sliceChanged, onUpdate: (_old, s) => sliceChanged(s), onDelete: sliceChanged });
  }

  start(): void {
    this.pool ??= runWorkers(this.queue, this.o.clock, this.o.workers ?? 5, (key, done) => this.syncEndpoints(key, done),
      (key, error) => this.o.onLog?.(`error mirroring endpoints "${key}": ${error}`));
  }

  stop(): void {
    this.pool?.stop();
    this.queue.shutDown();
  }

  syncEndpoints(key: string, done: (error?: string) => void): void {
    const [namespace = '', name = ''] = key.split('/');
    const slices = this.o.endpointSlices.lister.listInNamespace(namespace, (s) =>
      s.metadata.labels?.[LABEL_SERVICE_NAME] === name && s.metadata.labels[LABEL_MANAGED_BY] === MIRRORING_CONTROLLER_NAME);
    if (this.writer.isStale(key, slices)) return done('EndpointSlice informer cache is out of date');
    const endpoints = this.o.endpoints.lister.get(namespace, name);
    const service = this.o.services.lister.get(namespace, name);
    // nothing to mirror: no Endpoints, marked skip-mirror, no Service, or a Service whose own
    // controller keeps its slices (it has a selector)
    if (!shouldMirror(endpoints) || !service || service.spec.selector !== undefined) {
      return this.writer.apply(key, namespace, { create: [], update: [], delete: [...slices] }, () => undefined, done);
    }
    this.writer.apply(key, namespace, reconcileMirrored(endpoints, slices), () => undefined, done);
  }

}
