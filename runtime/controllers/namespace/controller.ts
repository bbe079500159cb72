// The namespace controller: a namespace with deletionTimestamp (phase Terminating) has every
// namespaced object deleted, its status conditions kept up to date, and, once nothing is left,
// the "kubernetes" finalizer removed through the finalize subresource, which lets the API server
// delete it.
// mirrors pkg/controller/namespace/namespace_controller.go (worker, syncNamespaceFromKey: requeue
// after estimate/2+1 s while content remains) and deletion/namespaced_resources_deleter.go (Delete,
// deleteAllContent, deleteAllContentForGroupVersionResource, estimateGracefulTerminationForPods).
import type { KubeObject, Namespace, Pod, ResourceInfo } from '../../api/index.ts';
import { RESOURCES, parseRFC3339, rfc3339, SIMULATION_EPOCH_MS } from '../../api/index.ts';
import type { RestClient, SharedInformer } from '../../client/index.ts';
import { RateLimitingQueue, isTombstone, runWorkers, type WorkerPool } from '../../client/index.ts';
import type { ControllerClock } from '../replicaset/controller.ts';
import { forEachSerial, responseError } from './serial.ts';
import { failureConditions, updateConditions, type ContentTotals } from './conditions.ts';

/** The finalizer token this controller owns (v1.FinalizerKubernetes). */
export const FINALIZER_KUBERNETES = 'kubernetes';
/** Requeue delay when remaining content only waits for finalizers (finalizerEstimateSeconds). */
export const FINALIZER_ESTIMATE_SECONDS = 5;

export interface NamespaceControllerOptions {
  clock: ControllerClock;
  client: RestClient;
  namespaces: SharedInformer<Namespace>;
  /** ConcurrentNamespaceSyncs (default 10). */
  workers?: number;
  epochMs?: number;
  onLog?: (message: string) => void;
}

/** Namespaced resources that support delete: what discovery would hand the deleter. */
export function deletableNamespacedResources(): ResourceInfo[] {
  return RESOURCES.filter((r) => r.namespaced && r.verbs.includes('delete'));
}

export class NamespaceController {
  readonly queue: RateLimitingQueue<string>;
  private pool: WorkerPool | undefined;

  constructor(private readonly o: NamespaceControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    const enqueue = (ns: Namespace): void => this.queue.add(ns.metadata.name ?? '');
    o.namespaces.addEventHandler({
      onAdd: enqueue,
      onUpdate: (_old, ns) => enqueue(ns),
      onDelete: (obj) => enqueue(isTombstone(obj) ? obj.obj : obj),
    });
  }

  start(): void {
    this.pool ??= runWorkers(this.queue, this.o.clock, this.o.workers ?? 10, (key, done) => this.syncNamespace(key, done),
      (key, error) => this.o.onLog?.(`deletion of namespace ${key} failed: ${error}`));
  }

  stop(): void {
    this.pool?.stop();
    this.queue.shutDown();
  }

  private now(): string {
    return rfc3339(this.o.clock.now(), this.o.epochMs ?? SIMULATION_EPOCH_MS);
  }

  /** namespacedResourcesDeleter.Delete for one namespace, read live (not from the cache). */
  syncNamespace(name: string, done: (error?: string) => void): void {
    this.o.client.request({ verb: 'get', group: '', resource: 'namespaces', name }, (res) => {
      if (res.code === 404) return done();
      if (res.code !== 200) return done(responseError(res));
      const ns = res.body as Namespace;
      if (!ns.metadata.deletionTimestamp) return done();
      if ((ns.spec?.finalizers ?? []).length === 0) return done();
      this.ensureTerminating(ns, (latest, err) => {
        if (err !== undefined || !latest) return done(err);
        this.deleteAllContent(latest, (estimateSeconds, error) => {
          if (error !== undefined) return done(error);
          if (estimateSeconds > 0) {
            const waitSeconds = Math.floor(estimateSeconds / 2) + 1;
            this.o.onLog?.(`Content remaining in namespace ${name}, waiting ${waitSeconds} seconds`);
            this.queue.addAfter(name, waitSeconds * 1000);
            return done();
          }
          this.finalize(latest, done);
        });
      });
    });
  }

  /** updateNamespaceStatusFunc: phase Terminating once deletion started. */
  private ensureTerminating(ns: Namespace, done: (ns: Namespace | undefined, error?: string) => void): void {
    if (ns.status?.phase === 'Terminating') return done(ns);
    const body = { ...ns, status: { ...(ns.status ?? {}), phase: 'Terminating' as const } };
    this.o.client.request({ verb: 'update', group: '', resource: 'namespaces', subresource: 'status', name: ns.metadata.name ?? '', body }, (res) => {
      if (res.code !== 200) return done(undefined, responseError(res));
      done(res.body as Namespace);
    });
  }

  /** deleteAllContent: every resource type in turn; the estimate is the longest wait any of them needs. */
  private deleteAllContent(ns: Namespace, done: (estimateSeconds: number, error?: string) => void): void {
    const totals: ContentTotals = { remainingByResource: new Map(), remainingByFinalizer: new Map(), deleteErrors: [] };
    let estimate = 0;
    forEachSerial(deletableNamespacedResources(), (resource, next) => {
      this.deleteAllOf(ns, resource, totals, (gvrEstimate) => {
        estimate = Math.max(estimate, gvrEstimate);
        next();
      });
    }, () => {
      const now = this.now();
      const { conditions, changed } = updateConditions(ns.status?.conditions ?? [], failureConditions(totals, now), now);
      const finish = (): void => done(estimate, totals.deleteErrors.length > 0 ? totals.deleteErrors.join(', ') : undefined);
      if (!changed) return finish();
      const body = { ...ns, status: { ...(ns.status ?? {}), conditions } };
      this.o.client.request({ verb: 'update', group: '', resource: 'namespaces', subresource: 'status', name: ns.metadata.name ?? '', body }, (res) => {
        if (res.code !== 200) this.o.onLog?.(`failed to update conditions of namespace ${ns.metadata.name ?? ''}: ${responseError(res)}`);
        finish();
      });
    });
  }

  /** deleteAllContentForGroupVersionResource: estimate, deletecollection (Background), list what is left. */
  private deleteAllOf(ns: Namespace, r: ResourceInfo, totals: ContentTotals, done: (estimateSeconds: number) => void): void {
    const namespace = ns.metadata.name ?? '';
    const base = { group: r.group, resource: r.resource, namespace };
    const gvr = `${r.group}/${r.version}, Resource=${r.resource}`;
    this.estimateGracefulTermination(ns, r, (estimate) => {
      this.o.client.request({ verb: 'deletecollection', ...base, query: { propagationPolicy: 'Background' } }, (del) => {
        if (del.code === 404 || del.code === 405) return done(estimate); // not served: nothing to delete
        if (del.code !== 200) {
          totals.deleteErrors.push(responseError(del));
          return done(estimate);
        }
        this.o.client.request({ verb: 'list', ...base }, (res) => {
          if (res.code !== 200) {
            totals.deleteErrors.push(responseError(res));
            return done(estimate);
          }
          const items = (res.body as { items: KubeObject[] }).items;
          if (items.length === 0) return done(estimate);
          totals.remainingByResource.set(`${r.resource}.${r.group}`, items.length);
          for (const item of items) {
            for (const f of item.metadata.finalizers ?? []) totals.remainingByFinalizer.set(f, (totals.remainingByFinalizer.get(f) ?? 0) + 1);
          }
          if (estimate > 0) return done(estimate);
          if (items.some((i) => (i.metadata.finalizers ?? []).length > 0)) return done(FINALIZER_ESTIMATE_SECONDS);
          totals.deleteErrors.push(`unexpected items still remain in namespace: ${namespace} for gvr: ${gvr}`);
          done(estimate);
        });
      });
    });
  }

  /** estimateGracefulTermination: pods may need their grace period, counted from the namespace's deletion. */
  private estimateGracefulTermination(ns: Namespace, r: ResourceInfo, done: (estimateSeconds: number) => void): void {
    if (r.group !== '' || r.resource !== 'pods') return done(0);
    this.o.client.request({ verb: 'list', group: '', resource: 'pods', namespace: ns.metadata.name ?? '' }, (res) => {
      if (res.code !== 200) return done(0);
      const pods = (res.body as { items: Pod[] }).items;
      const estimate = estimateForPods(pods);
      const deletedAtMs = parseRFC3339(ns.metadata.deletionTimestamp ?? '', this.o.epochMs ?? SIMULATION_EPOCH_MS) ?? 0;
      const sinceMs = this.o.clock.now() - deletedAtMs;
      done(sinceMs >= estimate * 1000 ? 0 : estimate);
    });
  }

  /** finalizeNamespace: drop our token from spec.finalizers through PUT .../finalize. */
  private finalize(ns: Namespace, done: (error?: string) => void): void {
    const finalizers = [...new Set((ns.spec?.finalizers ?? []).filter((f) => f !== FINALIZER_KUBERNETES))].sort();
    const body = { ...ns, spec: { ...(ns.spec ?? {}), finalizers } };
    this.o.client.request({ verb: 'update', group: '', resource: 'namespaces', subresource: 'finalize', name: ns.metadata.name ?? '', body }, (res) => {
      if (res.code === 200 || res.code === 404) {
        this.o.onLog?.(`namespace ${ns.metadata.name ?? ''} finalized`);
        return done();
      }
      done(responseError(res));
    });
  }
}

/** estimateGracefulTerminationForPods: the longest grace period of a pod that has not finished. */
export function estimateForPods(pods: readonly Pod[]): number {
  let estimate = 0;
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    estimate = Math.max(estimate, pod.spec?.terminationGracePeriodSeconds ?? 0);
  }
  return estimate;
}
