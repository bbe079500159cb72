// The Endpoints controller: keeps one core/v1 Endpoints per Service with a selector, listing the
// ready (and not ready) addresses of the pods it selects. Informers on Services, Pods and
// Endpoints feed Service keys into a rate-limited queue; syncService computes the subsets from
// the caches and writes the Endpoints only when they, its labels or its capacity annotation
// changed, and never on a cached copy older than its own last write (staleEndpointsTracker); a
// failed write is a FailedToCreateEndpoint / FailedToUpdateEndpoint event on the Endpoints. A
// Service that is gone takes its Endpoints with it (deleted here: Endpoints carry no owner reference). kube-proxy reads EndpointSlices; Endpoints are for the clients that still
// read them (deprecated since v1.33, still maintained).
// mirrors pkg/controller/endpoint/endpoints_controller.go (syncService, onServiceUpdate,
// updatePod via GetPodServiceMemberships, checkLeftoverEndpoints is not modeled).
import { rfc3339, type Endpoints, type Pod, type Service } from '../../api/index.ts';
import type { EventRecorder, RestClient, SharedInformer } from '../../client/index.ts';
import { RateLimitingQueue, isTombstone, runWorkers, type WorkerPool } from '../../client/index.ts';
import { keyOf, labelsMatchSet } from '../controller-utils.ts';
import { LABEL_HEADLESS, queueServiceChanges } from '../endpointslice/index.ts';
import { responseError } from '../namespace/serial.ts';
import type { ControllerClock } from '../replicaset/controller.ts';
import {
  LAST_CHANGE_TRIGGER_TIME_ANNOTATION, OVER_CAPACITY_ANNOTATION, computeSubsets, truncateSubsets,
} from './subsets.ts';
import { TriggerTimeTracker } from './trigger-time.ts';

export const ENDPOINTS_CONTROLLER_NAME = 'endpoint-controller';

export interface EndpointsControllerOptions {
  clock: ControllerClock;
  client: RestClient;
  services: SharedInformer<Service>;
  pods: SharedInformer<Pod>;
  endpoints: SharedInformer<Endpoints>;
  recorder: EventRecorder;
  /** ConcurrentEndpointSyncs (default 5). */
  workers?: number;
  onLog?: (message: string) => void;
}

export class EndpointsController {
  readonly queue: RateLimitingQueue<string>;
  private pool: WorkerPool | undefined;
  private readonly triggerTimes = new TriggerTimeTracker();
  /**
   * staleEndpointsTracker: the resourceVersion each Endpoints had before our last write to it. The
   * cache showing that version again has not caught up with our write, so nothing is decided on it.
   */
  private readonly staleVersions = new Map<string, string>();

  constructor(private readonly o: EndpointsControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    queueServiceChanges(this.queue, o.services, o.pods);
    // an Endpoints changed or deleted by someone else is put right (onEndpointsDelete)
    o.endpoints.addEventHandler({ onDelete: (obj) => this.queue.add(keyOf(isTombstone(obj) ? obj.obj : obj)) });
  }

  start(): void {
    this.pool ??= runWorkers(this.queue, this.o.clock, this.o.workers ?? 5, (key, done) => this.syncService(key, done),
      (key, error) => this.o.onLog?.(`error syncing endpoints for service "${key}": ${error}`));
  }

  stop(): void {
    this.pool?.stop();
    this.queue.shutDown();
  }

  syncService(key: string, done: (error?: string) => void): void {
    const [namespace = '', name = ''] = key.split('/');
    const service = this.o.services.lister.get(namespace, name);
    const base = { group: '', resource: 'endpoints', namespace };
    if (!service) {
      // the Service is gone: so are its Endpoints (a missing one is fine)
      this.triggerTimes.forget(namespace, name);
      this.staleVersions.delete(key);
      this.o.client.request({ verb: 'delete', ...base, name }, (res) => done(res.code === 200 || res.code === 404 ? undefined : responseError(res)));
      return;
    }
    // ExternalName Services have no pods; a Service without a selector has Endpoints its user manages
    if (service.spec.type === 'ExternalName' || !service.spec.selector) return done();
    const selector = service.spec.selector;
    const pods = this.o.pods.lister.listInNamespace(namespace, (p) => labelsMatchSet(selector, p.metadata.labels));
    const triggerMs = this.triggerTimes.compute(namespace, service, pods);
    const subsets = computeSubsets(service, pods);
    const truncated = truncateSubsets(subsets);
    const current = this.o.endpoints.lister.get(namespace, name);
    if (current && this.staleVersions.get(key) === (current.metadata.resourceVersion ?? '')) {
      return done(`endpoints informer cache is out of date, resource version ${current.metadata.resourceVersion ?? ''} already processed for endpoints ${key}`);
    }
    const create = current === undefined;
    const headless = !service.spec.clusterIP || service.spec.clusterIP === 'None';
    const labels: Record<string, string> = { ...(service.metadata.labels ?? {}) };
    if (headless) labels[LABEL_HEADLESS] = '';
    if (!create && sameJSON(current.subsets ?? [], subsets) && sameJSON(withoutHeadless(current.metadata.labels), service.metadata.labels ?? {})
      && (current.metadata.annotations?.[OVER_CAPACITY_ANNOTATION] === 'truncated') === truncated) {
      return done();
    }
    const annotations: Record<string, string> = { ...(current?.metadata.annotations ?? {}) };
    if (triggerMs !== 0) annotations[LAST_CHANGE_TRIGGER_TIME_ANNOTATION] = rfc3339Nano(triggerMs);
    else delete annotations[LAST_CHANGE_TRIGGER_TIME_ANNOTATION];
    if (truncated) annotations[OVER_CAPACITY_ANNOTATION] = 'truncated';
    else delete annotations[OVER_CAPACITY_ANNOTATION];
    const metadata: Endpoints['metadata'] = { ...(current?.metadata ?? {}), name, namespace };
    // an empty map is left out, as Go's omitempty does
    if (Object.keys(labels).length > 0) metadata.labels = labels;
    else delete metadata.labels;
    if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
    else delete metadata.annotations;
    const body: Endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata, subsets };
    const req = create ? { verb: 'create' as const, ...base, body } : { verb: 'update' as const, ...base, name, body };
    this.o.client.request(req, (res) => {
      if (res.code === 200 || res.code === 201) {
        const written = res.body as Endpoints;
        if (written.metadata.resourceVersion !== (current?.metadata.resourceVersion ?? '')) this.staleVersions.set(key, current?.metadata.resourceVersion ?? '');
        return done();
      }
      // the namespace is going away: nothing to do (syncService ignores that Forbidden)
      if (create && res.code === 403 && /because it is being terminated/.test(responseError(res))) return done();
      // recorded on the Endpoints, not the Service (newEndpoints in syncService)
      const [reason, verb] = create ? ['FailedToCreateEndpoint', 'create endpoint for service'] : ['FailedToUpdateEndpoint', 'update endpoint'];
      this.o.recorder.eventf(body, 'Warning', reason, `Failed to ${verb} %s/%s: %v`, namespace, name, responseError(res));
      done(responseError(res));
    });
  }
}

function withoutHeadless(labels: Record<string, string> | undefined): Record<string, string> {
  const out = { ...(labels ?? {}) };
  delete out[LABEL_HEADLESS];
  return out;
}

function sameJSON(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** time.RFC3339Nano: whole seconds print none, else the fraction without trailing zeros. */
function rfc3339Nano(ms: number): string {
  const text = rfc3339(ms);
  const fraction = ms % 1000;
  if (fraction === 0) return text;
  return `${text.slice(0, -1)}.${String(fraction).padStart(3, '0').replace(/0+$/, '')}Z`;
}
