// The ResourceQuota controller (kube-controller-manager's "resourcequota-controller"): it keeps each
// quota's status.hard (a copy of spec.hard) and status.used (what the namespace's objects add up to)
// current. A quota is synced when it is created or its spec changes, when an object it counts is
// added, changed or deleted (upstream replenishes on deletes and terminal pods; its admission plugin
// charges creates, ours counts from the cache instead, so creates queue a sync too), and every
// 5 minutes for all quotas (--resource-quota-sync-period).
// mirrors pkg/controller/resourcequota/resource_quota_controller.go (addQuota, enqueueAll,
// replenishQuota, syncResourceQuota: status update only when hard or used changed) and
// resource_quota_monitor.go (an informer per counted resource, started on demand).
import type { KubeObject, Pod, ResourceQuota } from '../../api/index.ts';
import { RateLimitingQueue, runWorkers, type RestClient, type SharedInformer, type WorkerPool } from '../../client/index.ts';
import type { HostedControllerDeps } from '../namespace/hosted.ts';
import { calculateStatus, sourceOf } from './usage.ts';

/** --resource-quota-sync-period default. */
export const QUOTA_RESYNC_PERIOD_MS = 5 * 60_000;
/** Core resources we can list for usage; count/<other>.<group> goes through an informer made on demand. */
const keyOf = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
const sameList = (a: Record<string, string> | undefined, b: Record<string, string>): boolean => {
  const ka = Object.keys(a ?? {}).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a![k] === b[k]);
};

export interface ResourceQuotaControllerOptions {
  clock: HostedControllerDeps['clock'];
  client: RestClient;
  quotas: SharedInformer<ResourceQuota>;
  pods: SharedInformer<Pod>;
  /** The shared informer for another counted resource (the factory starts it); undefined when it is not served. */
  informerFor: (group: string, resource: string) => SharedInformer<KubeObject> | undefined;
  onLog?: (message: string) => void;
}

export class ResourceQuotaController {
  private readonly queue: RateLimitingQueue<string>;
  private workers: WorkerPool | undefined;
  private resync: { cancel(): void } | undefined;
  /** "group/resource" -> the informer listing it (pods: the manager's shared one); null: not served. */
  private readonly sources = new Map<string, SharedInformer<KubeObject> | null>();

  constructor(private readonly o: ResourceQuotaControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    this.sources.set('/pods', o.pods as unknown as SharedInformer<KubeObject>);
    this.watchSource(o.pods as unknown as SharedInformer<KubeObject>);
    o.quotas.addEventHandler({
      onAdd: (q) => this.queue.add(keyOf(q)),
      onUpdate: (old, q) => {
        if (JSON.stringify(old.spec) !== JSON.stringify(q.spec) || !sameList(q.status?.hard, q.spec?.hard ?? {})) this.queue.add(keyOf(q));
      },
    });
  }

  start(): void {
    this.workers = runWorkers(this.queue, this.o.clock, 1, (key, done) => this.syncQuota(key, done), (key, error) => this.o.onLog?.(`syncing ${key}: ${error}`));
    this.resync = this.o.clock.every(QUOTA_RESYNC_PERIOD_MS, () => this.enqueueAll());
  }

  stop(): void {
    this.resync?.cancel();
    this.workers?.stop();
    this.queue.shutDown();
  }

  private enqueueAll(): void {
    for (const q of this.o.quotas.lister.list()) this.queue.add(keyOf(q));
  }

  /** replenishQuota: any change to a counted object re-syncs the quotas of its namespace. */
  private watchSource(informer: SharedInformer<KubeObject>): void {
    const touch = (obj: KubeObject): void => {
      for (const q of this.o.quotas.lister.listInNamespace(obj.metadata.namespace ?? '')) this.queue.add(keyOf(q));
    };
    informer.addEventHandler({
      onAdd: touch,
      onUpdate: (_old, obj) => touch(obj),
      onDelete: (obj) => touch('metadata' in obj ? obj : obj.obj),
    });
  }

  /** The informer for a counted resource, asked for the first time a quota needs it. */
  private source(group: string, resource: string): SharedInformer<KubeObject> | null {
    const key = `${group}/${resource}`;
    let informer = this.sources.get(key);
    if (informer === undefined) {
      informer = this.o.informerFor(group, resource) ?? null;
      this.sources.set(key, informer);
      if (informer) this.watchSource(informer);
    }
    return informer;
  }

  private syncQuota(key: string, done: (error?: string) => void): void {
    if (!this.o.quotas.hasSynced) return done('quota cache not synced yet');
    const slash = key.indexOf('/');
    const quota = this.o.quotas.lister.get(key.slice(0, slash), key.slice(slash + 1));
    if (!quota) return done();
    for (const name of Object.keys(quota.spec?.hard ?? {})) {
      const src = sourceOf(name);
      if (src) this.source(src.group, src.resource);
    }
    const status = calculateStatus(quota, (group, resource) => {
      const informer = this.source(group, resource);
      if (informer === null) return [];
      return informer.hasSynced ? informer.lister.listInNamespace(quota.metadata.namespace ?? '') : undefined;
    });
    if (!status) return done('counted resources not synced yet');
    if (sameList(quota.status?.hard, status.hard) && sameList(quota.status?.used, status.used)) return done();
    const target = { group: '', resource: 'resourcequotas', namespace: quota.metadata.namespace ?? '', name: quota.metadata.name ?? '' };
    this.o.client.request({ verb: 'update', subresource: 'status', ...target, body: { ...quota, status } }, (res) => {
      if (res.code === 200 || res.code === 404) return done();
      done(`status update: ${res.code}`);
    });
  }
}
