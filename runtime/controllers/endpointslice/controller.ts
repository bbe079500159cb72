// The EndpointSlice controller: informers on Services, Pods and EndpointSlices feed Service keys
// into a rate-limited queue; syncService lists the Service's pods and managed slices from the
// caches and applies reconcileEndpointSlices' changes (deletes, updates, then creates). A
// tracker of our own writes refuses to act on a cache that has not caught up with them yet
// (the same job as upstream's endpointSliceTracker.StaleSlices), so slices are never doubled.
// mirrors pkg/controller/endpointslice/endpointslice_controller.go (syncService, onPod*,
// onEndpointSlice*) and reconciler.go (finalize: delete, update, create).
import type { EndpointSlice, Pod, Service } from '../../api/index.ts';
import type { EventRecorder, RestClient, SharedInformer } from '../../client/index.ts';
import { RateLimitingQueue, isTombstone, runWorkers, type WorkerPool } from '../../client/index.ts';
import { labelsMatchSet } from '../controller-utils.ts';
import type { ControllerClock } from '../replicaset/controller.ts';
import { CONTROLLER_NAME, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, MAX_ENDPOINTS_PER_SLICE, queueServiceChanges } from './endpoints.ts';
import { reconcileEndpointSlices } from './reconcile.ts';
import { SliceWriter, type SliceChanges } from './slice-writer.ts';

export interface EndpointSliceControllerOptions {
  clock: ControllerClock;
  client: RestClient;
  services: SharedInformer<Service>;
  pods: SharedInformer<Pod>;
  endpointSlices: SharedInformer<EndpointSlice>;
  recorder: EventRecorder;
  maxEndpointsPerSlice?: number;
  /** ConcurrentServiceEndpointSyncs (default 5). */
  workers?: number;
  onLog?: (message: string) => void;
}

export class EndpointSliceController {
  readonly queue: RateLimitingQueue<string>;
  private pool: WorkerPool | undefined;
  private readonly writer: SliceWriter;

  constructor(private readonly o: EndpointSliceControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    this.writer = new SliceWriter(o.client);
    queueServiceChanges(this.queue, o.services, o.pods);
    const sliceChanged = (s: EndpointSlice): void => {
      const svc = s.metadata.labels?.[LABEL_SERVICE_NAME];
      if (svc && s.metadata.labels?.[LABEL_MANAGED_BY] === CONTROLLER_NAME) this.queue.add(`${s.metadata.namespace ?? ''}/${svc}`);
    };
    o.endpointSlices.addEventHandler({ onAdd: sliceChanged, onUpdate: (_o, s) => sliceChanged(s), onDelete: (obj) => sliceChanged(isTombstone(obj) ? obj.obj : obj) });
  }

  start(): void {
    this.pool ??= runWorkers(this.queue, this.o.clock, this.o.workers ?? 5, (key, done) => this.syncService(key, done),
      (key, error) => this.o.onLog?.(`error syncing endpoint slices for service "${key}": ${error}`));
  }

  stop(): void {
    this.pool?.stop();
    this.queue.shutDown();
  }

  syncService(key: string, done: (error?: string) => void): void {
    const [namespace = '', name = ''] = key.split('/');
    const service = this.o.services.lister.get(namespace, name);
    // a deleted Service's slices go with it: they carry its controller reference (garbage collector)
    if (!service) {
      this.writer.forget(key);
      return done();
    }
    if (service.spec.type === 'ExternalName' || !service.spec.selector || service.metadata.deletionTimestamp) return done();
    const selector = service.spec.selector;
    const pods = this.o.pods.lister.listInNamespace(namespace, (p) => labelsMatchSet(selector, p.metadata.labels));
    const slices = this.o.endpointSlices.lister.listInNamespace(namespace, (s) =>
      s.metadata.labels?.[LABEL_SERVICE_NAME] === name && s.metadata.labels[LABEL_MANAGED_BY] === CONTROLLER_NAME);
    if (this.writer.isStale(key, slices)) return done('EndpointSlice informer cache is out of date');
    const changes = reconcileEndpointSlices(service, pods, slices, this.o.maxEndpointsPerSlice ?? MAX_ENDPOINTS_PER_SLICE);
    this.apply(key, service, changes, done);
  }

  private apply(key: string, service: Service, changes: SliceChanges, done: (error?: string) => void): void {
    this.writer.apply(key, service.metadata.namespace ?? '', changes, (verb, err) => {
      this.o.recorder.eventf({ ...service, apiVersion: 'v1', kind: 'Service' }, 'Warning', 'FailedToUpdateEndpointSlices', 'Error updating Endpoint Slices for Service %s/%s: %v', service.metadata.namespace, service.metadata.name, `failed to ${verb} EndpointSlice: ${err}`);
    }, done);
  }
}
