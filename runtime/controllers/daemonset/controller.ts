// The DaemonSet controller, mirroring pkg/controller/daemon/daemon_controller.go: informers on
// DaemonSets, ControllerRevisions, Pods and Nodes feed DaemonSet keys into a rate-limited work
// queue; syncDaemonSet builds the revision history, claims pods, and (once its expectations are
// met) runs manage (one pod per eligible node, none elsewhere, failed pods replaced with back-off)
// and the RollingUpdate step, cleans old revisions, then writes status. Pods are created pinned
// to their node through node affinity; the default scheduler binds them (upstream since 1.12).
import type { ControllerRevision, DaemonSet, DaemonSetStatus, Node, OwnerReference, Pod } from '../../api/index.ts';
import type { EventRecorder, RestClient, SharedInformer } from '../../client/index.ts';
import { RateLimitingQueue, isTombstone, runWorkers, type WorkerPool } from '../../client/index.ts';
import {
  addPodControllerUIDIndexer, controllerOf, filterPodsByOwner, isEmptySelector, isPodReady, keyOf, selectorMatches,
} from '../controller-utils.ts';
import { claimPods } from '../claim-pods.ts';
import { ControllerExpectations, DeletionTracker } from '../expectations.ts';
import type { ControllerClock } from '../replicaset/controller.ts';
import { SLOW_START_INITIAL_BATCH_SIZE, slowStartBatch } from '../slow-start.ts';
import { nodeShouldRunDaemonPod } from './eligibility.ts';
import { constructHistory, errorText, revisionsToDelete } from './history.ts';
import { calculateDaemonSetStatus, FailedPodBackoff, nodesToDaemonPods, planManage } from './manage.ts';
import { DS_KIND, daemonPodTemplate, newDaemonPod } from './pods.ts';
import { planRollingUpdate } from './rolling.ts';

/** The daemon controller's BurstReplicas (pkg/controller/daemon: 250 creations or deletions per sync). */
export const DAEMONSET_BURST_REPLICAS = 250;
/** BackoffGCInterval: how often stale failed-pod back-offs are forgotten. */
const BACKOFF_GC_INTERVAL_MS = 60_000;
/** StatusUpdateRetries. */
const STATUS_UPDATE_RETRIES = 1;

export interface DaemonSetControllerOptions {
  clock: ControllerClock;
  client: RestClient;
  daemonSets: SharedInformer<DaemonSet>;
  revisions: SharedInformer<ControllerRevision>;
  pods: SharedInformer<Pod>;
  nodes: SharedInformer<Node>;
  recorder: EventRecorder;
  /** ConcurrentDaemonSetSyncs (default 2). */
  workers?: number;
  burstReplicas?: number;
  onLog?: (message: string) => void;
}

type Done = (error?: string) => void;

export class DaemonSetController {
  readonly queue: RateLimitingQueue<string>;
  readonly expectations: ControllerExpectations;
  readonly failedPodsBackoff = new FailedPodBackoff();
  private readonly deletions = new DeletionTracker();
  private pool: WorkerPool | undefined;
  private gcTimer: { cancel(): void } | undefined;
  private stopped = false;

  constructor(private readonly o: DaemonSetControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    this.expectations = new ControllerExpectations(o.clock);
    addPodControllerUIDIndexer(o.pods);
    o.daemonSets.addEventHandler({
      onAdd: (ds) => this.enqueue(ds),
      onUpdate: (_old, ds) => this.enqueue(ds),
      onDelete: (obj) => {
        const ds = isTombstone(obj) ? obj.obj : obj;
        this.expectations.delete(keyOf(ds));
        this.deletions.delete(keyOf(ds));
      },
    });
    o.pods.addEventHandler({
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (old, pod) => this.updatePod(old, pod),
      onDelete: (obj) => this.deletePod(isTombstone(obj) ? obj.obj : obj),
    });
    o.nodes.addEventHandler({
      onAdd: (node) => this.addNode(node),
      onUpdate: (old, node) => this.updateNode(old, node),
      // pods pinned to a vanished node are cleaned up by manage: look at every DaemonSet
      onDelete: () => this.enqueueAll(),
    });
  }

  start(): void {
    this.pool ??= runWorkers(this.queue, this.o.clock, this.o.workers ?? 2, (key, done) => this.syncDaemonSet(key, done),
      (key, error) => this.o.onLog?.(`sync "${key}" failed with ${error}`));
    const gc = (): void => {
      if (this.stopped) return;
      this.failedPodsBackoff.gc(this.o.clock.now());
      this.gcTimer = this.o.clock.setTimer(BACKOFF_GC_INTERVAL_MS, gc);
    };
    this.gcTimer ??= this.o.clock.setTimer(BACKOFF_GC_INTERVAL_MS, gc);
  }

  stop(): void {
    this.stopped = true;
    this.gcTimer?.cancel();
    this.pool?.stop();
    this.queue.shutDown();
  }

  private enqueue(ds: DaemonSet): void {
    this.queue.add(keyOf(ds));
  }

  private enqueueAll(): void {
    for (const ds of this.o.daemonSets.lister.list()) this.enqueue(ds);
  }

  // ---------------------------------------------------------------- event handlers

  /** resolveControllerRef: the DaemonSet that controls pod, if it still exists with the same uid. */
  private owner(pod: Pod, ref: OwnerReference | undefined = controllerOf(pod)): DaemonSet | undefined {
    if (!ref || ref.kind !== 'DaemonSet') return undefined;
    const ds = this.o.daemonSets.lister.get(pod.metadata.namespace ?? '', ref.name);
    return ds?.metadata.uid === ref.uid ? ds : undefined;
  }

  /** getDaemonSetsForPod: orphans wake every DaemonSet whose selector matches them. */
  private matchingDaemonSets(pod: Pod): DaemonSet[] {
    return this.o.daemonSets.lister.listInNamespace(pod.metadata.namespace ?? '', (ds) => selectorMatches(ds.spec.selector, pod.metadata.labels));
  }

  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) return this.deletePod(pod);
    const ref = controllerOf(pod);
    if (ref) {
      const ds = this.owner(pod, ref);
      if (!ds) return;
      this.expectations.creationObserved(keyOf(ds));
      return this.enqueue(ds);
    }
    for (const ds of this.matchingDaemonSets(pod)) this.enqueue(ds);
  }

  private updatePod(old: Pod, pod: Pod): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    if (pod.metadata.deletionTimestamp) return this.deletePod(pod);
    const oldRef = controllerOf(old);
    const ref = controllerOf(pod);
    if (oldRef && oldRef.uid !== ref?.uid) {
      const oldDs = this.owner(old, oldRef);
      if (oldDs) this.enqueue(oldDs);
    }
    if (ref) {
      const ds = this.owner(pod, ref);
      if (!ds) return;
      this.enqueue(ds);
      // a pod that just became ready becomes available minReadySeconds later: look again then
      const minReady = ds.spec.minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.queue.addAfter(keyOf(ds), minReady * 1000);
      return;
    }
    const labelsChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {});
    if (labelsChanged || oldRef) for (const ds of this.matchingDaemonSets(pod)) this.enqueue(ds);
  }

  private deletePod(pod: Pod): void {
    const ds = this.owner(pod);
    if (!ds) return;
    const dsKey = keyOf(ds);
    if (this.deletions.observe(dsKey, keyOf(pod))) this.expectations.deletionObserved(dsKey);
    this.enqueue(ds);
  }

  private addNode(node: Node): void {
    for (const ds of this.o.daemonSets.lister.list()) if (nodeShouldRunDaemonPod(node, ds).shouldRun) this.enqueue(ds);
  }

  /** updateNode: only DaemonSets whose placement on this node changed (heartbeats change none). */
  private updateNode(old: Node, node: Node): void {
    for (const ds of this.o.daemonSets.lister.list()) {
      const a = nodeShouldRunDaemonPod(old, ds);
      const b = nodeShouldRunDaemonPod(node, ds);
      if (a.shouldRun !== b.shouldRun || a.shouldContinueRunning !== b.shouldContinueRunning) this.enqueue(ds);
    }
  }

  // ---------------------------------------------------------------- sync

  private sortedNodes(): Node[] {
    return this.o.nodes.lister.list().sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  }

  /** syncDaemonSet: one level-triggered pass over one DaemonSet. */
  syncDaemonSet(key: string, done: Done): void {
    const [namespace = '', name = ''] = key.split('/');
    const ds = this.o.daemonSets.lister.get(namespace, name);
    if (!ds) {
      this.expectations.delete(key);
      this.deletions.delete(key);
      return done();
    }
    if (isEmptySelector(ds.spec.selector)) {
      this.o.recorder.eventf({ ...ds, ...DS_KIND }, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
      return done();
    }
    // a DaemonSet being deleted: its history may already be gone, so status cannot be trusted
    if (ds.metadata.deletionTimestamp) return done();
    constructHistory(this.o.client, this.o.revisions, ds, (history) => {
      if ('error' in history) return done(history.error);
      // getDaemonPods: the pods this DaemonSet controls and the namespace's orphans, then ClaimPods
      const candidates = filterPodsByOwner(this.o.pods, ds, DS_KIND.kind, true);
      claimPods(this.o.client, { object: ds, selector: ds.spec.selector, ...DS_KIND }, candidates, (pods) => {
        const nodes = this.sortedNodes();
        if (!this.expectations.satisfied(key)) return this.updateStatus(ds, nodes, pods, history.hash, false, done);
        this.updateDaemonSet(ds, key, nodes, pods, history.hash, (err) => {
          this.cleanupHistory(ds, history.old, pods);
          this.updateStatus(ds, nodes, pods, history.hash, true, (statusErr) => done(err ?? statusErr));
        });
      });
    });
  }

  /** updateDaemonSet: manage, then the rolling update when nothing is outstanding. */
  private updateDaemonSet(ds: DaemonSet, key: string, nodes: Node[], pods: Pod[], hash: string, done: Done): void {
    const byNode = nodesToDaemonPods(pods);
    const nowMs = this.o.clock.now();
    const plan = planManage(ds, nodes, byNode, hash, { nowMs, backoff: this.failedPodsBackoff, minReadySeconds: ds.spec.minReadySeconds ?? 0 });
    if (plan.requeueAfterMs !== undefined) this.queue.addAfter(key, plan.requeueAfterMs);
    for (const { pod, node } of plan.failedPods) {
      const message = `Found failed daemon pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} on node ${node}, will try to kill it`;
      this.o.onLog?.(message);
      this.o.recorder.eventf({ ...ds, ...DS_KIND }, 'Warning', 'FailedDaemonPod', '%v', message);
    }
    this.syncNodes(ds, key, plan.podsToDelete, plan.nodesNeedingDaemonPods, hash, (manageError) => {
      if (manageError !== undefined) return done(manageError);
      if (!this.expectations.satisfied(key) || ds.spec.updateStrategy?.type !== 'RollingUpdate') return done();
      const rolling = planRollingUpdate(ds, nodes, byNode, hash, nowMs);
      if ('error' in rolling) return done(rolling.error);
      this.syncNodes(ds, key, rolling.podsToDelete, rolling.nodesToCreate, hash, done);
    });
  }

  /**
   * syncNodes: set expectations, create pods on the nodes in slow-start batches (each pinned to
   * its node), delete the named pods; both capped at burstReplicas.
   */
  private syncNodes(ds: DaemonSet, key: string, podsToDelete: string[], nodesNeeding: string[], hash: string, done: Done): void {
    const burst = this.o.burstReplicas ?? DAEMONSET_BURST_REPLICAS;
    const createNodes = nodesNeeding.slice(0, burst);
    const deleteNames = podsToDelete.slice(0, burst);
    this.expectations.expect(key, createNodes.length, deleteNames.length);
    this.deletions.expectDeletions(key, deleteNames.map((n) => `${ds.metadata.namespace ?? ''}/${n}`));
    if (createNodes.length + deleteNames.length === 0) return done();
    let pending = 2;
    let firstError: string | undefined;
    const finish = (error: string | undefined): void => {
      firstError ??= error;
      if (--pending === 0) done(firstError);
    };
    this.createPods(ds, key, createNodes, hash, finish);
    this.deletePods(ds, key, deleteNames, finish);
  }

  private createPods(ds: DaemonSet, key: string, nodeNames: string[], hash: string, done: Done): void {
    if (nodeNames.length === 0) return done();
    const template = daemonPodTemplate(ds, hash);
    let firstError: string | undefined;
    slowStartBatch(nodeNames.length, SLOW_START_INITIAL_BATCH_SIZE, (i, report) => {
      const body = newDaemonPod(ds, template, nodeNames[i]!);
      this.o.client.request({ verb: 'create', group: '', resource: 'pods', namespace: ds.metadata.namespace ?? '', body }, (res) => {
        if (res.code === 201) {
          this.o.recorder.eventf({ ...ds, ...DS_KIND }, 'Normal', 'SuccessfulCreate', 'Created pod: %v', (res.body as Pod).metadata.name);
          return report(true);
        }
        const message = errorText(res);
        firstError ??= message;
        this.o.recorder.eventf({ ...ds, ...DS_KIND }, 'Warning', 'FailedCreate', 'Error creating: %v', message);
        report(false);
      });
    }, (successes) => {
      // failed or skipped creations will never be observed: lower the expectation now
      for (let i = successes; i < nodeNames.length; i++) this.expectations.creationObserved(key);
      done(firstError);
    });
  }

  private deletePods(ds: DaemonSet, key: string, names: string[], done: Done): void {
    if (names.length === 0) return done();
    const namespace = ds.metadata.namespace ?? '';
    let answered = 0;
    let firstError: string | undefined;
    for (const name of names) {
      this.o.client.request({ verb: 'delete', group: '', resource: 'pods', namespace, name }, (res) => {
        if (res.code === 200 || res.code === 202) {
          this.o.recorder.eventf({ ...ds, ...DS_KIND }, 'Normal', 'SuccessfulDelete', 'Deleted pod: %v', name);
        } else {
          // the deletion will never be observed: stop waiting for it
          if (this.deletions.observe(key, `${namespace}/${name}`)) this.expectations.deletionObserved(key);
          if (res.code !== 404) {
            const message = errorText(res);
            firstError ??= message;
            this.o.recorder.eventf({ ...ds, ...DS_KIND }, 'Warning', 'FailedDelete', 'Error deleting: %v', message);
          }
        }
        if (++answered === names.length) done(firstError);
      });
    }
  }

  /** cleanupHistory: fire-and-forget deletes of revisions beyond revisionHistoryLimit. */
  private cleanupHistory(ds: DaemonSet, old: ControllerRevision[], pods: Pod[]): void {
    for (const rev of revisionsToDelete(ds, old, pods)) {
      this.o.client.request({ verb: 'delete', group: 'apps', resource: 'controllerrevisions', namespace: rev.metadata.namespace ?? '', name: rev.metadata.name ?? '' }, () => undefined);
    }
  }

  /** updateDaemonSetStatus + storeDaemonSetStatus (PUT .../status only when something changed). */
  private updateStatus(ds: DaemonSet, nodes: Node[], pods: Pod[], hash: string, updateObservedGen: boolean, done: Done): void {
    const counts = calculateDaemonSetStatus(ds, nodes, nodesToDaemonPods(pods), hash, this.o.clock.now());
    const minReady = ds.spec.minReadySeconds ?? 0;
    if (minReady > 0 && counts.numberReady !== counts.numberAvailable) this.queue.addAfter(keyOf(ds), minReady * 1000);
    const old = ds.status;
    const same = old !== undefined && (Object.keys(counts) as (keyof typeof counts)[]).every((k) => (old[k] ?? 0) === counts[k]);
    if (same && (old.observedGeneration ?? 0) >= (ds.metadata.generation ?? 0)) return done();
    const observed = updateObservedGen ? ds.metadata.generation ?? 0 : undefined;
    this.storeStatus(ds, counts, observed, STATUS_UPDATE_RETRIES, done);
  }

  /** storeDaemonSetStatus: PUT .../status; on failure GET a fresh copy and try once more. */
  private storeStatus(ds: DaemonSet, counts: Partial<DaemonSetStatus>, observedGeneration: number | undefined, retries: number, done: Done): void {
    const status: DaemonSetStatus = { ...(ds.status ?? { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }), ...counts };
    if (observedGeneration !== undefined) status.observedGeneration = observedGeneration;
    const target = { group: 'apps', resource: 'daemonsets', namespace: ds.metadata.namespace ?? '', name: ds.metadata.name ?? '' };
    this.o.client.request({ verb: 'update', subresource: 'status', ...target, body: { ...ds, status } }, (res) => {
      if (res.code === 200) return done();
      const failure = `error storing status for daemon set ${keyOf(ds)}: ${errorText(res)}`;
      if (retries <= 0) return done(failure);
      this.o.client.request({ verb: 'get', ...target }, (fresh) => {
        if (fresh.code !== 200) return done(failure);
        this.storeStatus(fresh.body as DaemonSet, counts, observedGeneration, retries - 1, done);
      });
    });
  }
}
