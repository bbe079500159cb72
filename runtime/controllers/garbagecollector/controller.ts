// The garbage collector: monitors (informers) on every resource feed the dependency graph; two
// work queues act on it. attemptToDelete looks at an object whose owners may be gone (background
// cascading deletion), or at an owner deleting in the foreground (remove its foregroundDeletion
// finalizer once no dependent blocks it). attemptToOrphan strips the owner's references from its
// dependents, then removes the orphan finalizer.
// mirrors pkg/controller/garbagecollector/garbagecollector.go (attemptToDeleteItem,
// processDeletingDependentsItem, orphanDependents, removeFinalizer) and graph_builder.go
// (monitors for all deletable resources except events).
import type { KubeObject, OwnerReference, ResourceInfo } from '../../api/index.ts';
import { RESOURCES, apiVersionOf, resourceForKind } from '../../api/index.ts';
import type { RestClient, RestResponse, SharedInformer } from '../../client/index.ts';
import { RateLimitingQueue, isTombstone, runWorkers, type WorkerPool } from '../../client/index.ts';
import type { ControllerClock } from '../replicaset/controller.ts';
import { forEachSerial, responseError } from '../namespace/serial.ts';
import { classifyOwner, decideAttemptToDelete, type OwnerState } from './decide.ts';
import { DependencyGraph, FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type GraphNode, type GraphWork, type ObjectIdentity } from './graph.ts';

/** Resources the collector watches: every one we serve except events (ignoredResources). */
export function monitoredResources(): ResourceInfo[] {
  return RESOURCES.filter((r) => r.resource !== 'events' && r.verbs.includes('delete') && r.verbs.includes('watch'));
}

export interface GarbageCollectorOptions {
  clock: ControllerClock;
  client: RestClient;
  /** One informer per monitored resource (monitoredResources order). */
  monitors: { resource: ResourceInfo; informer: SharedInformer<KubeObject> }[];
  /** ConcurrentGCSyncs (default 20). */
  workers?: number;
  onLog?: (message: string) => void;
}

export class GarbageCollector {
  readonly graph = new DependencyGraph();
  readonly attemptToDelete: RateLimitingQueue<string>;
  readonly attemptToOrphan: RateLimitingQueue<string>;
  private pools: WorkerPool[] = [];

  constructor(private readonly o: GarbageCollectorOptions) {
    this.attemptToDelete = new RateLimitingQueue<string>(o.clock);
    this.attemptToOrphan = new RateLimitingQueue<string>(o.clock);
    for (const { resource, informer } of o.monitors) {
      const identity = { apiVersion: apiVersionOf(resource), kind: resource.kind };
      informer.addEventHandler({
        onAdd: (obj) => this.schedule(this.graph.observe(obj, identity)),
        onUpdate: (_old, obj) => this.schedule(this.graph.observe(obj, identity)),
        onDelete: (obj) => this.schedule(this.graph.remove((isTombstone(obj) ? obj.obj : obj).metadata.uid ?? '')),
      });
    }
  }

  start(): void {
    if (this.pools.length > 0) return;
    const workers = this.o.workers ?? 20;
    const onError = (key: string, error: string): void => this.o.onLog?.(`error syncing item ${key}: ${error}`);
    this.pools.push(runWorkers(this.attemptToDelete, this.o.clock, workers, (uid, done) => this.attemptToDeleteItem(uid, done), onError));
    this.pools.push(runWorkers(this.attemptToOrphan, this.o.clock, workers, (uid, done) => this.attemptToOrphanItem(uid, done), onError));
  }

  stop(): void {
    for (const p of this.pools) p.stop();
    this.attemptToDelete.shutDown();
    this.attemptToOrphan.shutDown();
  }

  private schedule(work: GraphWork): void {
    for (const uid of work.attemptToDelete) this.attemptToDelete.add(uid);
    for (const uid of work.attemptToOrphan) this.attemptToOrphan.add(uid);
  }

  /** The API coordinates of an identity (undefined for a kind we do not serve). */
  private target(id: ObjectIdentity): { group: string; resource: string; namespace?: string; name: string } | undefined {
    const r = resourceForKind(id.kind, id.apiVersion);
    if (!r) return undefined;
    return { group: r.group, resource: r.resource, name: id.name, ...(r.namespaced && id.namespace ? { namespace: id.namespace } : {}) };
  }

  /** GET the object live; undefined when it is gone or a different object (uid) now has its name. */
  private getLive(id: ObjectIdentity, done: (obj: KubeObject | undefined, error?: string) => void): void {
    const t = this.target(id);
    if (!t) return done(undefined);
    this.o.client.request({ verb: 'get', ...t }, (res) => {
      if (res.code === 404) return done(undefined);
      if (res.code !== 200) return done(undefined, responseError(res));
      const obj = res.body as KubeObject;
      done(obj.metadata.uid === id.uid ? obj : undefined);
    });
  }

  attemptToDeleteItem(uid: string, done: (error?: string) => void): void {
    const node = this.graph.get(uid);
    if (!node) return done();
    if (node.beingDeleted && !node.deletingDependents) return done();
    this.getLive(node.identity, (latest, error) => {
      if (error !== undefined) return done(error);
      if (!latest) {
        // enqueueVirtualDeleteEvent: the object is gone, so its dependents must be checked
        this.schedule(this.graph.remove(uid));
        return done();
      }
      if (node.virtual) return done('virtual node not yet observed by a monitor');
      if (node.deletingDependents) return this.processDeletingDependents(node, done);
      const refs = latest.metadata.ownerReferences ?? [];
      if (refs.length === 0) return done();
      this.classifyOwners(node, refs, (owners, err) => {
        if (err !== undefined) return done(err);
        this.act(node, latest, owners, done);
      });
    });
  }

  private classifyOwners(node: GraphNode, refs: readonly OwnerReference[], done: (owners: Map<string, OwnerState>, error?: string) => void): void {
    const owners = new Map<string, OwnerState>();
    let failure: string | undefined;
    forEachSerial(refs, (ref, next) => {
      const id: ObjectIdentity = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, ...(node.identity.namespace ? { namespace: node.identity.namespace } : {}) };
      const t = this.target(id);
      if (!t) {
        owners.set(ref.uid, 'dangling');
        return next();
      }
      this.o.client.request({ verb: 'get', ...t }, (res) => {
        if (res.code !== 200 && res.code !== 404) failure ??= responseError(res);
        owners.set(ref.uid, classifyOwner(ref, res.code === 200 ? res.body as KubeObject : undefined));
        next();
      });
    }, () => done(owners, failure));
  }

  private act(node: GraphNode, latest: KubeObject, owners: Map<string, OwnerState>, done: (error?: string) => void): void {
    const dependents = [...node.dependents].map((d) => this.graph.get(d)).filter((d): d is GraphNode => d !== undefined);
    const decision = decideAttemptToDelete({
      ownerReferences: latest.metadata.ownerReferences ?? [], owners, finalizers: latest.metadata.finalizers ?? [],
      hasDependents: dependents.length > 0, aDependentIsDeletingDependents: dependents.some((d) => d.deletingDependents),
    });
    const id = describe(node.identity);
    switch (decision.action) {
      case 'none':
        return done();
      case 'removeOwnerReferences': {
        const keep = (latest.metadata.ownerReferences ?? []).filter((r) => !decision.ownerUids.includes(r.uid));
        this.o.onLog?.(`remove dangling references ${decision.ownerUids.join(',')} from ${id}`);
        return this.patchOwnerReferences(node.identity, latest, keep, done);
      }
      case 'delete': {
        const remove = (): void => {
          this.o.onLog?.(`delete object ${id} with propagation policy ${decision.policy}`);
          this.deleteObject(node.identity, decision.policy, done);
        };
        if (!decision.unblockFirst) return remove();
        const unblocked = (latest.metadata.ownerReferences ?? []).map((r) => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r));
        return this.patchOwnerReferences(node.identity, latest, unblocked, (err) => (err === undefined ? remove() : done(err)));
      }
    }
  }

  /** processDeletingDependentsItem: finish the foreground deletion once nothing blocks it. */
  private processDeletingDependents(node: GraphNode, done: (error?: string) => void): void {
    const blocking = this.graph.blockingDependents(node);
    if (blocking.length === 0) return this.removeFinalizer(node.identity, FOREGROUND_FINALIZER, done);
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDelete.add(dep.identity.uid);
    done();
  }

  /** attemptToOrphanWorker: strip the owner's references from every dependent, then drop the orphan finalizer. */
  attemptToOrphanItem(uid: string, done: (error?: string) => void): void {
    const owner = this.graph.get(uid);
    if (!owner) return done();
    let failure: string | undefined;
    const dependents = [...owner.dependents].map((d) => this.graph.get(d)).filter((d): d is GraphNode => d !== undefined);
    forEachSerial(dependents, (dep, next) => {
      this.getLive(dep.identity, (latest, error) => {
        if (error !== undefined) failure ??= error;
        if (!latest) return next();
        const keep = (latest.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
        this.patchOwnerReferences(dep.identity, latest, keep, (err) => {
          if (err !== undefined) failure ??= err;
          next();
        });
      });
    }, () => {
      if (failure !== undefined) return done(failure);
      this.removeFinalizer(owner.identity, ORPHAN_FINALIZER, done);
    });
  }

  /** A merge patch of metadata.ownerReferences, guarded by the uid and resourceVersion we looked at. */
  private patchOwnerReferences(id: ObjectIdentity, latest: KubeObject, refs: OwnerReference[], done: (error?: string) => void): void {
    const t = this.target(id);
    if (!t) return done();
    const body = { metadata: { ownerReferences: refs, uid: id.uid, resourceVersion: latest.metadata.resourceVersion } };
    this.o.client.request({ verb: 'patch', ...t, patchType: 'application/merge-patch+json', body }, (res) => done(okOrGone(res)));
  }

  private deleteObject(id: ObjectIdentity, policy: 'Background' | 'Foreground' | 'Orphan', done: (error?: string) => void): void {
    const t = this.target(id);
    if (!t) return done();
    this.o.client.request({ verb: 'delete', ...t, query: { propagationPolicy: policy } }, (res) => done(okOrGone(res)));
  }

  /** removeFinalizer: GET, drop the finalizer, PUT (a conflict retries through the queue). */
  private removeFinalizer(id: ObjectIdentity, finalizer: string, done: (error?: string) => void): void {
    this.getLive(id, (latest, error) => {
      if (error !== undefined) return done(error);
      if (!latest || !(latest.metadata.finalizers ?? []).includes(finalizer)) return done();
      const t = this.target(id);
      if (!t) return done();
      const body = { ...latest, apiVersion: id.apiVersion, kind: id.kind, metadata: { ...latest.metadata, finalizers: (latest.metadata.finalizers ?? []).filter((f) => f !== finalizer) } };
      this.o.onLog?.(`remove finalizer ${finalizer} from ${describe(id)}`);
      this.o.client.request({ verb: 'update', ...t, body }, (res) => done(okOrGone(res)));
    });
  }
}

function okOrGone(res: RestResponse): string | undefined {
  return res.code === 200 || res.code === 201 || res.code === 202 || res.code === 404 ? undefined : responseError(res);
}

function describe(id: ObjectIdentity): string {
  return `[${id.apiVersion}/${id.kind}, namespace: ${id.namespace ?? ''}, name: ${id.name}, uid: ${id.uid}]`;
}
