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
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '../endpointslice/endpoints.ts';
import { forEachSerial, responseError } from '../namespace/serial.ts';
import type { ControllerClock } from '../replicaset/controller.ts';
import { MIRRORING_CONTROLLER_NAME, reconcileMirrored, shouldMirror, type MirrorChanges } from './mirror.ts';

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
  /** What we wrote last, per Endpoints key and slice name: a resourceVersion, or "deleted". */
  private readonly written = new Map<string, Map<string, string>>();

  constructor(private readonly o: EndpointSliceMirroringOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
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
    if (this.isStale(key, slices)) return done('EndpointSlice informer cache is out of date');
    const endpoints = this.o.endpoints.lister.get(namespace, name);
    const service = this.o.services.lister.get(namespace, name);
    // nothing to mirror: no Endpoints, marked skip-mirror, no Service, or a Service whose own
    // controller keeps its slices (it has a selector)
    if (!shouldMirror(endpoints) || !service || service.spec.selector !== undefined) {
      return this.apply(key, namespace, { create: [], update: [], delete: [...slices] }, done);
    }
    this.apply(key, namespace, reconcileMirrored(endpoints, slices), done);
  }

  /** StaleSlices: a slice we wrote is missing, older than our write, or still there after our delete. */
  private isStale(key: string, slices: readonly EndpointSlice[]): boolean {
    const written = this.written.get(key);
    if (!written) return false;
    const seen = new Map(slices.map((s) => [s.metadata.name ?? '', Number(s.metadata.resourceVersion ?? 0)]));
    for (const [sliceName, rv] of written) {
      const have = seen.get(sliceName);
      const caughtUp = rv === 'deleted' ? have === undefined : have !== undefined && have >= Number(rv);
      if (!caughtUp) return true;
      written.delete(sliceName);
    }
    return false;
  }

  private apply(key: string, namespace: string, changes: MirrorChanges, done: (error?: string) => void): void {
    const written = this.written.get(key) ?? new Map<string, string>();
    this.written.set(key, written);
    let failure: string | undefined;
    const base = { group: 'discovery.k8s.io', resource: 'endpointslices', namespace };
    const steps: { verb: 'delete' | 'update' | 'create'; slice: EndpointSlice }[] = [
      ...changes.delete.map((slice) => ({ verb: 'delete' as const, slice })),
      ...changes.update.map((slice) => ({ verb: 'update' as const, slice })),
      ...changes.create.map((slice) => ({ verb: 'create' as const, slice })),
    ];
    forEachSerial(steps, ({ verb, slice }, next) => {
      const sliceName = slice.metadata.name ?? '';
      const req = verb === 'create' ? { verb, ...base, body: slice } : verb === 'update' ? { verb, ...base, name: sliceName, body: slice } : { verb, ...base, name: sliceName };
      this.o.client.request(req, (res) => {
        if (verb === 'delete' && (res.code === 200 || res.code === 404)) written.set(sliceName, 'deleted');
        else if (res.code === 200 || res.code === 201) {
          const out = res.body as EndpointSlice;
          written.set(out.metadata.name ?? '', out.metadata.resourceVersion ?? '0');
        } else failure ??= `failed to ${verb} EndpointSlice: ${responseError(res)}`;
        next();
      });
    }, () => done(failure));
  }
}
