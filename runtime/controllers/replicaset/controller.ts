// The ReplicaSet controller, mirroring pkg/controller/replicaset/replica_set.go: informers on
// ReplicaSets and Pods feed keys into a rate-limited work queue; syncReplicaSet claims pods
// (adopts matching orphans, releases pods that stopped matching), asks the reconciler what to do
// when expectations are satisfied, creates pods in slow-start batches or deletes the pods the
// reconciler ranked first, records events, then writes status.
import type { KubeObject, OwnerReference, Pod, ReplicaSet, ReplicaSetCondition, ReplicaSetStatus } from '../../api/index.ts';
import { deepCopy, rfc3339, SIMULATION_EPOCH_MS } from '../../api/index.ts';
import type { EventRecorder, RestClient, RestResponse, SharedInformer } from '../../client/index.ts';
import { RateLimitingQueue, isTombstone, runWorkers, type WorkerPool } from '../../client/index.ts';
import type { TimerHandle } from '../../kernel/index.ts';
import {
  addPodControllerUIDIndexer, controllerOf, filterPodsByOwner, isPodActive, isPodAvailable, isPodReady, keyOf, newControllerRef,
  selectorMatches,
} from '../controller-utils.ts';
import { claimPods } from '../claim-pods.ts';
import { ControllerExpectations, DeletionTracker } from '../expectations.ts';
import { SLOW_START_INITIAL_BATCH_SIZE, slowStartBatch } from '../slow-start.ts';
import { reconcileReplicaSet } from './reconcile.ts';
import { BURST_REPLICAS, type ReplicaSetReconciler } from './types.ts';

export interface ControllerClock {
  now(): number;
  setTimer(delayMs: number, fn: () => void): TimerHandle;
}

export interface ReplicaSetControllerOptions {
  clock: ControllerClock;
  client: RestClient;
  replicaSets: SharedInformer<ReplicaSet>;
  pods: SharedInformer<Pod>;
  recorder: EventRecorder;
  /** The decision step; a learner's implementation can be swapped in (default: the reference). */
  reconciler?: ReplicaSetReconciler;
  burstReplicas?: number;
  /** ConcurrentRSSyncs (default 5). */
  workers?: number;
  epochMs?: number;
  onLog?: (message: string) => void;
}

const RS_REF = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;

export class ReplicaSetController {
  readonly queue: RateLimitingQueue<string>;
  readonly expectations: ControllerExpectations;
  private readonly deletions = new DeletionTracker();
  private pool: WorkerPool | undefined;

  constructor(private readonly o: ReplicaSetControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    this.expectations = new ControllerExpectations(o.clock);
    addPodControllerUIDIndexer(o.pods);
    o.replicaSets.addEventHandler({
      onAdd: (rs) => this.enqueue(rs),
      onUpdate: (_old, rs) => this.enqueue(rs),
      onDelete: (obj) => {
        const rs = isTombstone(obj) ? obj.obj : obj;
        this.expectations.delete(keyOf(rs));
        this.deletions.delete(keyOf(rs));
      },
    });
    o.pods.addEventHandler({
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (old, pod) => this.updatePod(old, pod),
      onDelete: (obj) => this.deletePod(isTombstone(obj) ? obj.obj : obj),
    });
  }

  start(): void {
    this.pool ??= runWorkers(this.queue, this.o.clock, this.o.workers ?? 5, (key, done) => this.syncReplicaSet(key, done),
      (key, error) => this.o.onLog?.(`sync "${key}" failed with ${error}`));
  }

  stop(): void {
    this.pool?.stop();
    this.queue.shutDown();
  }

  private enqueue(rs: ReplicaSet): void {
    this.queue.add(keyOf(rs));
  }

  /** The ReplicaSet that controls pod, if it still exists with the same uid (resolveControllerRef). */
  private owner(pod: Pod, ref: OwnerReference | undefined = controllerOf(pod)): ReplicaSet | undefined {
    if (!ref || ref.kind !== 'ReplicaSet') return undefined;
    const rs = this.o.replicaSets.lister.get(pod.metadata.namespace ?? '', ref.name);
    return rs?.metadata.uid === ref.uid ? rs : undefined;
  }

  /** Orphan pods wake every ReplicaSet whose selector matches them (getPodReplicaSets). */
  private matchingReplicaSets(pod: Pod): ReplicaSet[] {
    return this.o.replicaSets.lister.listInNamespace(pod.metadata.namespace ?? '', (rs) => selectorMatches(rs.spec.selector, pod.metadata.labels));
  }

  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) return this.deletePod(pod);
    const ref = controllerOf(pod);
    if (ref) {
      const rs = this.owner(pod, ref);
      if (!rs) return;
      this.expectations.creationObserved(keyOf(rs));
      return this.enqueue(rs);
    }
    for (const rs of this.matchingReplicaSets(pod)) this.enqueue(rs);
  }

  private updatePod(old: Pod, pod: Pod): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return; // a resync
    const labelsChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {});
    if (pod.metadata.deletionTimestamp) {
      // the pod is going away: count it as deleted now (updatePod: "as soon as possible")
      this.deletePod(pod);
      if (labelsChanged) this.deletePod(old);
      return;
    }
    const oldRef = controllerOf(old);
    const ref = controllerOf(pod);
    if (oldRef && oldRef.uid !== ref?.uid) {
      const oldRs = this.owner(old, oldRef);
      if (oldRs) this.enqueue(oldRs);
    }
    if (ref) {
      const rs = this.owner(pod, ref);
      if (!rs) return;
      this.enqueue(rs);
      // a pod that just became ready becomes available minReadySeconds later: look again then
      const minReady = rs.spec.minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.queue.addAfter(keyOf(rs), minReady * 1000);
      return;
    }
    if (labelsChanged || oldRef) for (const rs of this.matchingReplicaSets(pod)) this.enqueue(rs);
  }

  private deletePod(pod: Pod): void {
    const rs = this.owner(pod);
    if (!rs) return;
    const rsKey = keyOf(rs);
    if (this.deletions.observe(rsKey, keyOf(pod))) this.expectations.deletionObserved(rsKey);
    this.enqueue(rs);
  }

  /** syncReplicaSet: one level-triggered pass over one ReplicaSet. */
  syncReplicaSet(key: string, done: (error?: string) => void): void {
    const [namespace = '', name = ''] = key.split('/');
    const rs = this.o.replicaSets.lister.get(namespace, name);
    if (!rs) {
      this.expectations.delete(key);
      this.deletions.delete(key);
      return done();
    }
    const needsSync = this.expectations.satisfied(key) && !rs.metadata.deletionTimestamp;
    // replica_set.go syncReplicaSet: the pods this ReplicaSet controls and the namespace's orphans
    const active = filterPodsByOwner(this.o.pods, rs, RS_REF.kind, true).filter(isPodActive);
    claimPods(this.o.client, { object: rs, selector: rs.spec.selector, ...RS_REF }, active, (claimed) => {
      const afterManage = (manageError: string | undefined): void =>
        this.updateStatus(rs, claimed, manageError, (statusError) => done(manageError ?? statusError));
      if (!needsSync) return afterManage(undefined);
      this.manageReplicas(rs, claimed, afterManage);
    });
  }

  /** manageReplicas: carry out the reconciler's decision with expectations set first. */
  private manageReplicas(rs: ReplicaSet, pods: Pod[], done: (error?: string) => void): void {
    const key = keyOf(rs);
    const reconciler = this.o.reconciler ?? reconcileReplicaSet;
    // upstream lists the related pods only to rank a scale-down (manageReplicas' diff > 0 branch)
    const relatedPods = pods.length > (rs.spec.replicas ?? 1) ? this.relatedPods(rs) : [];
    const decision = reconciler(rs, pods, { burstReplicas: this.o.burstReplicas ?? BURST_REPLICAS, relatedPods });
    if (decision.podsToCreate > 0 && decision.podsToDelete.length > 0) {
      return done('reconciler asked to create and delete pods in one sync');
    }
    if (decision.podsToCreate > 0) return this.createPods(rs, key, decision.podsToCreate, done);
    if (decision.podsToDelete.length > 0) return this.deletePods(rs, key, pods, decision.podsToDelete, done);
    done();
  }

  /**
   * getIndirectlyRelatedPods: every pod matching the selector of a ReplicaSet with the same
   * controller as `rs` (rs included: all the ReplicaSets of one Deployment), each pod once; none
   * when `rs` has no controller (getReplicaSetsWithSameController returns nil).
   */
  private relatedPods(rs: ReplicaSet): Pod[] {
    const ref = controllerOf(rs);
    if (!ref) return [];
    const namespace = rs.metadata.namespace ?? '';
    const seen = new Set<string>();
    const related: Pod[] = [];
    for (const other of this.o.replicaSets.lister.listInNamespace(namespace, (candidate) => controllerOf(candidate)?.uid === ref.uid)) {
      for (const pod of this.o.pods.lister.listInNamespace(namespace, (p) => selectorMatches(other.spec.selector, p.metadata.labels))) {
        const id = pod.metadata.uid ?? keyOf(pod);
        if (seen.has(id)) continue;
        seen.add(id);
        related.push(pod);
      }
    }
    return related;
  }

  private createPods(rs: ReplicaSet, key: string, count: number, done: (error?: string) => void): void {
    this.o.onLog?.(`Too few replicas for ReplicaSet ${key}, need ${rs.spec.replicas ?? 1}, creating ${count}`);
    this.expectations.expect(key, count, 0);
    let firstError: string | undefined;
    slowStartBatch(count, SLOW_START_INITIAL_BATCH_SIZE, (_i, report) => {
      this.o.client.request({ verb: 'create', group: '', resource: 'pods', namespace: rs.metadata.namespace ?? '', body: podFromTemplate(rs) }, (res) => {
        if (res.code === 201) {
          this.o.recorder.eventf({ ...rs, ...RS_REF }, 'Normal', 'SuccessfulCreate', 'Created pod: %v', (res.body as Pod).metadata.name);
          return report(true);
        }
        const message = errorText(res);
        firstError ??= message;
        this.o.recorder.eventf({ ...rs, ...RS_REF }, 'Warning', 'FailedCreate', 'Error creating: %v', message);
        report(false);
      });
    }, (successes) => {
      // pods that failed or were never tried will not be observed: lower the expectation now
      for (let i = successes; i < count; i++) this.expectations.creationObserved(key);
      done(firstError);
    });
  }

  private deletePods(rs: ReplicaSet, key: string, pods: Pod[], names: string[], done: (error?: string) => void): void {
    this.o.onLog?.(`Too many replicas for ReplicaSet ${key}, need ${rs.spec.replicas ?? 1}, deleting ${names.length}`);
    const byName = new Map(pods.map((p) => [p.metadata.name ?? '', p]));
    const doomed = names.map((n) => byName.get(n)).filter((p): p is Pod => p !== undefined);
    if (doomed.length !== names.length) return done('reconciler named pods this ReplicaSet does not own');
    this.deletions.expectDeletions(key, doomed.map(keyOf));
    this.expectations.expect(key, 0, doomed.length);
    let answered = 0;
    let firstError: string | undefined;
    for (const pod of doomed) {
      this.o.client.request({ verb: 'delete', group: '', resource: 'pods', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '' }, (res) => {
        if (res.code === 200 || res.code === 202) {
          this.o.recorder.eventf({ ...rs, ...RS_REF }, 'Normal', 'SuccessfulDelete', 'Deleted pod: %v', pod.metadata.name);
        } else if (res.code !== 404) {
          // the deletion will never be observed: stop waiting for it
          if (this.deletions.observe(key, keyOf(pod))) this.expectations.deletionObserved(key);
          const message = errorText(res);
          firstError ??= message;
          this.o.recorder.eventf({ ...rs, ...RS_REF }, 'Warning', 'FailedDelete', 'Error deleting: %v', message);
        }
        if (++answered === doomed.length) done(firstError);
      });
    }
  }

  /** calculateStatus + updateReplicaSetStatus (PUT .../status only when something changed). */
  private updateStatus(rs: ReplicaSet, pods: Pod[], manageError: string | undefined, done: (error?: string) => void): void {
    const nowMs = this.o.clock.now();
    const status = calculateStatus(rs, pods, manageError, nowMs, rfc3339(nowMs, this.o.epochMs ?? SIMULATION_EPOCH_MS));
    const minReady = rs.spec.minReadySeconds ?? 0;
    const requeueForAvailability = (): void => {
      if (manageError === undefined && minReady > 0 && status.readyReplicas === status.replicas && status.availableReplicas !== status.replicas) {
        this.queue.addAfter(keyOf(rs), minReady * 1000);
      }
    };
    if (JSON.stringify(status) === JSON.stringify(rs.status ?? {})) {
      requeueForAvailability();
      return done();
    }
    const body = { ...rs, status };
    this.o.client.request({ verb: 'update', group: 'apps', resource: 'replicasets', subresource: 'status', namespace: rs.metadata.namespace ?? '', name: rs.metadata.name ?? '', body }, (res) => {
      if (res.code !== 200) return done(errorText(res));
      requeueForAvailability();
      done();
    });
  }
}

/** GetPodFromTemplate: labels, annotations and spec from the template; generateName "<rs>-". */
export function podFromTemplate(rs: ReplicaSet): Pod {
  const t = rs.spec.template;
  const metadata: Pod['metadata'] = {
    generateName: `${rs.metadata.name ?? ''}-`,
    namespace: rs.metadata.namespace ?? 'default',
    labels: { ...(t?.metadata?.labels ?? {}) },
    ownerReferences: [newControllerRef(rs, RS_REF.apiVersion, RS_REF.kind)],
  };
  if (t?.metadata?.annotations) metadata.annotations = { ...t.metadata.annotations };
  if (t?.metadata?.finalizers) metadata.finalizers = [...t.metadata.finalizers];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: deepCopy(t?.spec ?? { containers: [] }) } as Pod;
}

/** calculateStatus from replica_set_utils.go. */
export function calculateStatus(rs: ReplicaSet, pods: readonly Pod[], manageError: string | undefined, nowMs: number, now: string): ReplicaSetStatus {
  const templateLabels = rs.spec.template?.metadata?.labels ?? {};
  const minReady = rs.spec.minReadySeconds ?? 0;
  const status: ReplicaSetStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: pods.filter((p) => Object.entries(templateLabels).every(([k, v]) => p.metadata.labels?.[k] === v)).length,
    readyReplicas: pods.filter(isPodReady).length,
    availableReplicas: pods.filter((p) => isPodAvailable(p, minReady, nowMs)).length,
    observedGeneration: rs.metadata.generation ?? 0,
  };
  const conditions = (rs.status?.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
  const existing = (rs.status?.conditions ?? []).find((c) => c.type === 'ReplicaFailure');
  if (manageError !== undefined) {
    const diff = pods.length - (rs.spec.replicas ?? 1);
    const reason = diff < 0 ? 'FailedCreate' : 'FailedDelete';
    const failure: ReplicaSetCondition = existing?.status === 'True' && existing.reason === reason && existing.message === manageError
      ? existing
      : { type: 'ReplicaFailure', status: 'True', lastTransitionTime: now, reason, message: manageError };
    conditions.push(failure);
  }
  if (conditions.length > 0) status.conditions = conditions;
  return status;
}

function errorText(res: RestResponse): string {
  const body = res.body as { message?: unknown } | undefined;
  if (typeof body?.message === 'string') return body.message;
  return res.transportError ?? `the server responded with code ${res.code}`;
}

/** Adds kind and apiVersion informer objects lack, for events about them. */
export function asReplicaSetRef(rs: ReplicaSet): KubeObject {
  return { ...rs, ...RS_REF };
}
