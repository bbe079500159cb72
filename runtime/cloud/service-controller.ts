// The service controller: a Service of type LoadBalancer gets a cloud load balancer. The sync adds
// the service.kubernetes.io/load-balancer-cleanup finalizer first (so the Service cannot vanish
// while the load balancer exists), asks the cloud to ensure the load balancer over the Ready nodes,
// and writes its address to status.loadBalancer.ingress. When the Service is deleted (or stops
// being a LoadBalancer) the load balancer is deleted, then the finalizer removed. When the set of
// Ready nodes changes, every load balancer is pointed at the new set (nodeSync).
// mirrors staging/src/k8s.io/cloud-provider/controllers/service/controller.go (syncService,
// syncLoadBalancerIfNeeded, needsCleanup, needsUpdate, getNodeConditionPredicate, nodeSyncInternal)
import type { Node, Service } from '../api/index.ts';
import { RateLimitingQueue, runWorkers, type WorkerPool, isTombstone, type EventRecorder, type QueueClock, type RestClient, type SharedInformer } from '../client/index.ts';
import type { TimerHandle } from '../kernel/index.ts';
import type { CloudLoadBalancers, LoadBalancerService, LoadBalancerStatus } from './types.ts';
import { serviceReference } from './sync.ts';
import { LABEL_EXCLUDE_FROM_LOAD_BALANCERS, LOAD_BALANCER_CLEANUP_FINALIZER } from './well-known.ts';

/** The taint the cluster autoscaler puts on a node it is about to remove. */
const TO_BE_DELETED_TAINT = 'ToBeDeletedByClusterAutoscaler';
/** How long a burst of node changes is gathered before the load balancers are updated. */
export const NODE_SYNC_DELAY_MS = 1000;
/** A failed host update is retried after this long (upstream retries on the next nodeSync). */
export const NODE_SYNC_RETRY_MS = 10_000;

export const wantsLoadBalancer = (svc: Service): boolean => svc.spec?.type === 'LoadBalancer';
export const hasCleanupFinalizer = (svc: Service): boolean => (svc.metadata.finalizers ?? []).includes(LOAD_BALANCER_CLEANUP_FINALIZER);

/** needsCleanup: the finalizer is held but the Service is going away or no longer a LoadBalancer. */
export function needsCleanup(svc: Service): boolean {
  if (!hasCleanupFinalizer(svc)) return false;
  return svc.metadata.deletionTimestamp !== undefined || !wantsLoadBalancer(svc);
}

/** needsUpdate, reduced to the fields this cloud looks at: type, ports, UID, annotations, externalIPs. */
export function needsUpdate(old: Service, next: Service): boolean {
  if (!wantsLoadBalancer(old) && !wantsLoadBalancer(next)) return false;
  if (wantsLoadBalancer(old) !== wantsLoadBalancer(next)) return true;
  const ports = (s: Service): string => JSON.stringify((s.spec?.ports ?? []).map((p) => [p.name ?? '', p.protocol ?? 'TCP', p.port, p.nodePort ?? 0, p.targetPort ?? null]));
  if (ports(old) !== ports(next) || old.spec?.sessionAffinity !== next.spec?.sessionAffinity) return true;
  if (old.spec?.loadBalancerIP !== next.spec?.loadBalancerIP) return true;
  if (JSON.stringify(old.spec?.externalIPs ?? []) !== JSON.stringify(next.spec?.externalIPs ?? [])) return true;
  if (JSON.stringify(old.metadata.annotations ?? {}) !== JSON.stringify(next.metadata.annotations ?? {})) return true;
  return old.metadata.uid !== next.metadata.uid || old.spec?.externalTrafficPolicy !== next.spec?.externalTrafficPolicy;
}

/** getNodeConditionPredicate: a node serves load balancers when Ready, not excluded, not being removed. */
export function nodeServesLoadBalancers(node: Node): boolean {
  if (node.metadata.labels?.[LABEL_EXCLUDE_FROM_LOAD_BALANCERS] !== undefined) return false;
  if ((node.spec?.taints ?? []).some((t) => t.key === TO_BE_DELETED_TAINT)) return false;
  const conditions = node.status?.conditions ?? [];
  if (conditions.length === 0) return false;
  return conditions.every((c) => c.type !== 'Ready' || c.status === 'True');
}

/** shouldSyncNode: a change that can move a node in or out of the load balancers' backends. */
export function shouldSyncNode(old: Node, next: Node): boolean {
  const ready = (n: Node): string => n.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? '';
  return old.spec?.unschedulable !== next.spec?.unschedulable
    || JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(next.metadata.labels ?? {})
    || ready(old) !== ready(next);
}

export function loadBalancerServiceOf(svc: Service): LoadBalancerService {
  return {
    namespace: svc.metadata.namespace ?? 'default', name: svc.metadata.name ?? '', uid: svc.metadata.uid ?? '',
    ports: (svc.spec?.ports ?? []).map((p) => ({ ...(p.name ? { name: p.name } : {}), protocol: p.protocol ?? 'TCP', port: p.port, ...(p.nodePort ? { nodePort: p.nodePort } : {}) })),
  };
}

const sameStatus = (a: Service['status'], b: LoadBalancerStatus | undefined): boolean =>
  JSON.stringify(a?.loadBalancer?.ingress ?? []) === JSON.stringify(b?.ingress ?? []);

export interface ServiceControllerOptions {
  clock: QueueClock;
  client: RestClient;
  services: SharedInformer<Service>;
  nodes: SharedInformer<Node>;
  cloud: CloudLoadBalancers;
  clusterName: string;
  recorder: EventRecorder;
  log: (line: string) => void;
  isLive: () => boolean;
}

type Done = (error?: string) => void;

export class ServiceController {
  private readonly queue: RateLimitingQueue<string>;
  private runner: WorkerPool | undefined;
  /** The Ready hosts the load balancers were last pointed at ('' before the first sync). */
  private knownHosts = '';
  private needFullSync = false;
  private nodeSyncTimer: TimerHandle | undefined;
  private stopped = false;

  constructor(private readonly o: ServiceControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    const key = (s: Service): string => `${s.metadata.namespace ?? 'default'}/${s.metadata.name ?? ''}`;
    o.services.addEventHandler({
      onAdd: (s) => {
        if (wantsLoadBalancer(s) || needsCleanup(s)) this.queue.add(key(s));
      },
      onUpdate: (old, s) => {
        if (needsUpdate(old, s) || needsCleanup(s)) this.queue.add(key(s));
      },
      onDelete: (obj) => {
        const s = isTombstone(obj) ? obj.obj : obj;
        if (s && (wantsLoadBalancer(s) || needsCleanup(s))) this.queue.add(key(s));
      },
    });
    o.nodes.addEventHandler({
      onAdd: () => this.triggerNodeSync(),
      onUpdate: (old, n) => {
        if (shouldSyncNode(old, n)) this.triggerNodeSync();
      },
      onDelete: () => this.triggerNodeSync(),
    });
  }

  start(): void {
    this.runner = runWorkers(this.queue, this.o.clock, 1, (key, done) => this.syncService(key, done),
      (key, err) => {
        if (!this.stopped) this.o.log(`error processing service ${key} (will retry): ${err}`);
      });
  }

  stop(): void {
    this.stopped = true;
    this.runner?.stop();
    this.nodeSyncTimer?.cancel();
    this.queue.shutDown();
  }

  private alive(): boolean {
    return !this.stopped && this.o.isLive();
  }

  private syncService(key: string, done: Done): void {
    if (!this.o.services.hasSynced || !this.o.nodes.hasSynced) return done('caches not synced yet');
    const [namespace = '', name = ''] = key.split('/');
    const svc = this.o.services.lister.get(namespace, name);
    // deleted without our finalizer: we never made a load balancer for it (finalizers are always added first)
    if (!svc) return done();
    const guarded: Done = (error) => done(this.alive() ? error : 'stopped');
    if (!wantsLoadBalancer(svc) || needsCleanup(svc)) return this.deleteLoadBalancer(svc, guarded);
    this.ensureLoadBalancer(svc, guarded);
  }

  private ensureLoadBalancer(svc: Service, done: Done): void {
    this.o.recorder.eventf(serviceReference(svc), 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
    this.addFinalizer(svc, (withFinalizer, error) => {
      if (error !== undefined || !withFinalizer) return done(error !== undefined ? `failed to add load balancer cleanup finalizer: ${error}` : undefined);
      const nodes = this.readyNodeNames();
      if (nodes.length === 0) this.o.recorder.eventf(serviceReference(svc), 'Warning', 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer');
      this.o.cloud.ensureLoadBalancer(this.o.clusterName, loadBalancerServiceOf(withFinalizer), nodes, (r) => {
        if (!this.alive()) return done();
        if (!r.ok) {
          this.o.recorder.eventf(serviceReference(withFinalizer), 'Warning', 'SyncLoadBalancerFailed', 'Error syncing load balancer: failed to ensure load balancer: %v', r.error);
          return done(`failed to ensure load balancer: ${r.error}`);
        }
        this.o.recorder.eventf(serviceReference(withFinalizer), 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
        this.patchStatus(withFinalizer, r.value, done);
      });
    });
  }

  private deleteLoadBalancer(svc: Service, done: Done): void {
    const lbService = loadBalancerServiceOf(svc);
    this.o.cloud.getLoadBalancer(this.o.clusterName, lbService, (got) => {
      if (!this.alive()) return done();
      if (!got.ok) return done(`failed to check if load balancer exists before cleanup: ${got.error}`);
      const afterDelete = (): void => this.removeFinalizer(svc, (error) => {
        if (error !== undefined) return done(`failed to remove load balancer cleanup finalizer: ${error}`);
        this.o.recorder.eventf(serviceReference(svc), 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
        this.patchStatus(svc, undefined, done);
      });
      if (got.value === undefined && !hasCleanupFinalizer(svc)) return done();
      if (got.value === undefined) return afterDelete();
      this.o.recorder.eventf(serviceReference(svc), 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
      this.o.cloud.ensureLoadBalancerDeleted(this.o.clusterName, lbService, (r) => {
        if (!this.alive()) return done();
        if (!r.ok) return done(`failed to delete load balancer: ${r.error}`);
        afterDelete();
      });
    });
  }

  /** addFinalizer: an Update of the Service with the finalizer appended (409 retries the sync). */
  private addFinalizer(svc: Service, done: (svc: Service | undefined, error?: string) => void): void {
    if (hasCleanupFinalizer(svc)) return done(svc);
    const body: Service = { ...svc, metadata: { ...svc.metadata, finalizers: [...(svc.metadata.finalizers ?? []), LOAD_BALANCER_CLEANUP_FINALIZER] } };
    this.o.client.request({ verb: 'update', group: '', resource: 'services', namespace: svc.metadata.namespace ?? 'default', name: svc.metadata.name ?? '', body }, (res) => {
      if (res.code === 200) return done(res.body as Service);
      if (res.code === 404) return done(undefined);
      done(undefined, `code ${res.code}`);
    });
  }

  private removeFinalizer(svc: Service, done: (error?: string) => void): void {
    if (!hasCleanupFinalizer(svc)) return done();
    const finalizers = (svc.metadata.finalizers ?? []).filter((f) => f !== LOAD_BALANCER_CLEANUP_FINALIZER);
    const body: Service = { ...svc, metadata: { ...svc.metadata, finalizers } };
    this.o.client.request({ verb: 'update', group: '', resource: 'services', namespace: svc.metadata.namespace ?? 'default', name: svc.metadata.name ?? '', body }, (res) => {
      done(res.code === 200 || res.code === 404 ? undefined : `code ${res.code}`);
    });
  }

  /** patchStatus: writes status.loadBalancer only when it changed; a vanished Service is fine. */
  private patchStatus(svc: Service, status: LoadBalancerStatus | undefined, done: Done): void {
    const latest = this.o.services.lister.get(svc.metadata.namespace ?? 'default', svc.metadata.name ?? '') ?? svc;
    if (sameStatus(latest.status, status)) return done();
    const loadBalancer = status ? { ingress: status.ingress.map((i) => ({ ...i })) } : {};
    this.o.client.request({
      verb: 'patch', group: '', resource: 'services', subresource: 'status', namespace: svc.metadata.namespace ?? 'default', name: svc.metadata.name ?? '',
      body: { status: { loadBalancer } }, patchType: 'application/merge-patch+json',
    }, (res) => done(res.code === 200 || res.code === 404 ? undefined : `failed to update load balancer status: code ${res.code}`));
  }

  private readyNodeNames(): string[] {
    return this.o.nodes.lister.list(nodeServesLoadBalancers).map((n) => n.metadata.name ?? '').sort();
  }

  private triggerNodeSync(): void {
    if (this.nodeSyncTimer || this.stopped) return;
    this.nodeSyncTimer = this.o.clock.setTimer(NODE_SYNC_DELAY_MS, () => {
      this.nodeSyncTimer = undefined;
      this.nodeSync();
    });
  }

  /** nodeSyncInternal: when the Ready set changed, every load balancer gets the new hosts. */
  private nodeSync(): void {
    if (!this.alive() || !this.o.nodes.hasSynced || !this.o.services.hasSynced) return;
    const hosts = this.readyNodeNames();
    if (hosts.join(',') !== this.knownHosts) {
      this.knownHosts = hosts.join(',');
      this.needFullSync = true;
    }
    if (!this.needFullSync) return;
    this.needFullSync = false;
    // only load balancers that exist (their address is in status); one being ensured gets the hosts of its own sync
    const services = this.o.services.lister.list((s) => wantsLoadBalancer(s) && !needsCleanup(s) && (s.status?.loadBalancer?.ingress?.length ?? 0) > 0);
    if (services.length > 0) this.o.log('Node changes detected, triggering a full node sync on all loadbalancer services');
    for (const svc of services) {
      this.o.cloud.updateLoadBalancer(this.o.clusterName, loadBalancerServiceOf(svc), hosts, (r) => {
        if (!this.alive()) return;
        if (r.ok) return this.o.recorder.eventf(serviceReference(svc), 'Normal', 'UpdatedLoadBalancer', 'Updated load balancer with new hosts');
        this.o.recorder.eventf(serviceReference(svc), 'Warning', 'UpdateLoadBalancerFailed', 'Error updating load balancer with new hosts %v: %v', `[${hosts.join(' ')}]`, r.error);
        this.needFullSync = true;
        this.o.clock.setTimer(NODE_SYNC_RETRY_MS, () => this.triggerNodeSync());
      });
    }
  }
}
