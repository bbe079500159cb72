// The disruption controller (kube-controller-manager's "disruption-controller"): it keeps each
// PodDisruptionBudget's status (expectedPods, desiredHealthy, currentHealthy, disruptionsAllowed,
// the DisruptionAllowed condition, disruptedPods) current, which is what the eviction API and the
// scheduler's preemption read. A budget is synced when it is added or changed, when a pod it
// selects is added, changed or deleted (upstream enqueues only the FIRST budget of a pod, warning
// MultiplePodDisruptionBudgets when there are more), and again when an eviction entry of
// disruptedPods expires. Like upstream, it watches no ReplicaSets or Deployments: it only reads
// their caches, and scaling reaches it through the pods that come and go. It also resets a pod's
// DisruptionTarget condition to False when nobody deleted the pod within 2 minutes of setting it.
// mirrors pkg/controller/disruption/disruption.go (addDb/updateDb/removeDb, addPod/updatePod/deletePod,
// getPdbForPod, sync, trySync, updatePdbStatus, failSafe, enqueuePdbForRecheck, syncStalePodDisruption).
import type { Deployment, Pod, PodDisruptionBudget, ReplicaSet } from '../../api/index.ts';
import { rfc3339 } from '../../api/index.ts';
import {
  RateLimitingQueue, isTombstone, runWorkers, type DeletedFinalStateUnknown, type EventRecorder, type RestClient, type SharedInformer,
  type WorkerPool,
} from '../../client/index.ts';
import type { HostedControllerDeps } from '../namespace/hosted.ts';
import {
  buildDisruptedPodMap, countHealthyPods, expectedPodCount, failSafeStatus, finders, nextStatus, podsForBudget, staleDisruptionCleanupInMs,
  type ScaleFinder,
} from './budget.ts';

export interface DisruptionControllerOptions {
  clock: HostedControllerDeps['clock'];
  client: RestClient;
  recorder: EventRecorder;
  pdbs: SharedInformer<PodDisruptionBudget>;
  pods: SharedInformer<Pod>;
  replicaSets: SharedInformer<ReplicaSet>;
  deployments: SharedInformer<Deployment>;
  epochMs?: number;
  onLog?: (message: string) => void;
}

const keyOf = (o: { metadata: { namespace?: string; name?: string } }): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
/** Objects from a list may lack TypeMeta; an event's involvedObject needs it. */
const withKind = (pdb: PodDisruptionBudget): PodDisruptionBudget => ({ ...pdb, apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' });
const podWithKind = (pod: Pod): Pod => ({ ...pod, apiVersion: 'v1', kind: 'Pod' });

export class DisruptionController {
  private readonly queue: RateLimitingQueue<string>;
  /** Pods whose DisruptionTarget condition may go stale (upstream's stalePodDisruptionQueue). */
  private readonly staleQueue: RateLimitingQueue<string>;
  private workers: WorkerPool | undefined;
  private staleWorkers: WorkerPool | undefined;
  private readonly find: ScaleFinder[];

  constructor(private readonly o: DisruptionControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    this.staleQueue = new RateLimitingQueue<string>(o.clock);
    this.find = finders({
      replicaSet: (ns, name) => o.replicaSets.lister.get(ns, name),
      deployment: (ns, name) => o.deployments.lister.get(ns, name),
    });
    o.pdbs.addEventHandler({
      onAdd: (pdb) => this.queue.add(keyOf(pdb)),
      onUpdate: (_old, pdb) => this.queue.add(keyOf(pdb)),
      onDelete: (pdb) => this.queue.add(keyOf(isTombstone(pdb) ? pdb.obj : pdb)),
    });
    const podChanged = (pod: Pod | DeletedFinalStateUnknown<Pod>): void => {
      const budget = this.pdbForPod(isTombstone(pod) ? pod.obj : pod);
      if (budget) this.queue.add(keyOf(budget));
    };
    const podAddedOrUpdated = (pod: Pod): void => {
      podChanged(pod);
      const cleanupInMs = staleDisruptionCleanupInMs(pod, o.clock.now(), o.epochMs);
      if (cleanupInMs !== undefined) this.staleQueue.addAfter(keyOf(pod), cleanupInMs);
    };
    o.pods.addEventHandler({ onAdd: podAddedOrUpdated, onUpdate: (_old, pod) => podAddedOrUpdated(pod), onDelete: podChanged });
  }

  start(): void {
    this.workers = runWorkers(this.queue, this.o.clock, 1, (key, done) => this.sync(key, done), (key, error) => this.o.onLog?.(`syncing ${key}: ${error}`));
    this.staleWorkers = runWorkers(this.staleQueue, this.o.clock, 1, (key, done) => this.syncStalePodDisruption(key, done), (key, error) => this.o.onLog?.(`stale DisruptionTarget of ${key}: ${error}`));
  }

  stop(): void {
    this.workers?.stop();
    this.staleWorkers?.stop();
    this.queue.shutDown();
    this.staleQueue.shutDown();
  }

  /**
   * syncStalePodDisruption: DisruptionTarget=True on a pod still not being deleted after 2 minutes
   * is set back to False (upstream applies the status with Force; a strategic merge patch on the
   * condition's type keeps its reason and message the same way).
   */
  private syncStalePodDisruption(key: string, done: (error?: string) => void): void {
    if (!this.o.pods.hasSynced) return done('pod cache not synced yet');
    const slash = key.indexOf('/');
    const pod = this.o.pods.lister.get(key.slice(0, slash), key.slice(slash + 1));
    if (!pod) return done();
    const nowMs = this.o.clock.now();
    const cleanupInMs = staleDisruptionCleanupInMs(pod, nowMs, this.o.epochMs);
    if (cleanupInMs === undefined) return done();
    if (cleanupInMs > 0) {
      this.staleQueue.addAfter(key, cleanupInMs);
      return done();
    }
    const body = {
      metadata: { resourceVersion: pod.metadata.resourceVersion },
      status: { conditions: [{ type: 'DisruptionTarget', status: 'False', lastTransitionTime: rfc3339(nowMs, this.o.epochMs) }] },
    };
    const target = { group: '', resource: 'pods', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', subresource: 'status' };
    this.o.client.request({ verb: 'patch', ...target, patchType: 'application/strategic-merge-patch+json', body }, (res) => {
      if (res.code === 200 || res.code === 404) return done();
      done(`status patch: ${res.code}`);
    });
  }

  /** getPdbForPod: the first budget (by name) whose selector matches the pod. */
  private pdbForPod(pod: Pod): PodDisruptionBudget | undefined {
    const matching = this.o.pdbs.lister
      .listInNamespace(pod.metadata.namespace ?? '')
      .filter((pdb) => {
        const selected = podsForBudget(pdb, [pod]);
        return !('error' in selected) && selected.length === 1;
      })
      .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    const first = matching[0];
    if (first && matching.length > 1) {
      const msg = `Pod "${pod.metadata.namespace ?? ''}"/"${pod.metadata.name ?? ''}" matches multiple PodDisruptionBudgets.  Chose "${first.metadata.name ?? ''}" arbitrarily.`;
      this.o.recorder.eventf(podWithKind(pod), 'Warning', 'MultiplePodDisruptionBudgets', '%s', msg);
    }
    return first;
  }

  private sync(key: string, done: (error?: string) => void): void {
    if (!this.o.pdbs.hasSynced || !this.o.pods.hasSynced || !this.o.replicaSets.hasSynced || !this.o.deployments.hasSynced) {
      return done('caches not synced yet');
    }
    const slash = key.indexOf('/');
    const pdb = this.o.pdbs.lister.get(key.slice(0, slash), key.slice(slash + 1));
    if (!pdb) return done();
    const failed = this.trySync(pdb, (error) => {
      // a conflict is retried as is; any other failure leaves the budget allowing nothing (failSafe)
      if (error === undefined || error === 'conflict') return done(error);
      this.writeStatus(pdb, failSafeStatus(pdb, error, this.o.clock.now()), (e) => done(e));
    });
    if (failed !== undefined) this.writeStatus(pdb, failSafeStatus(pdb, failed, this.o.clock.now()), (e) => done(e));
  }

  /** trySync: returns an error message at once, or reports the status write's outcome through `done`. */
  private trySync(pdb: PodDisruptionBudget, done: (error?: string) => void): string | undefined {
    const budget = withKind(pdb);
    const selected = podsForBudget(pdb, this.o.pods.lister.listInNamespace(pdb.metadata.namespace ?? ''));
    if ('error' in selected) {
      this.o.recorder.eventf(budget, 'Warning', 'NoPods', 'Failed to get pods: %v', selected.error);
      return selected.error;
    }
    if (selected.length === 0) this.o.recorder.eventf(budget, 'Normal', 'NoPods', 'No matching pods found');
    const counted = expectedPodCount(pdb, selected, this.find);
    if ('error' in counted) {
      if (counted.noControllers) this.o.recorder.eventf(budget, 'Warning', 'NoControllers', '%s', counted.error);
      this.o.recorder.eventf(budget, 'Warning', 'CalculateExpectedPodCountFailed', 'Failed to calculate the number of expected pods: %v', counted.error);
      return counted.error;
    }
    if (counted.unmanagedPods.length > 0) {
      this.o.recorder.eventf(
        budget, 'Warning', 'UnmanagedPods',
        'Pods selected by this PodDisruptionBudget (selector: %v) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
        goSelector(pdb),
      );
    }
    const nowMs = this.o.clock.now();
    const disrupted = buildDisruptedPodMap(selected, pdb, nowMs, this.o.epochMs);
    for (const pod of disrupted.notDeleted) {
      // upstream prints the budget's namespace twice ("PDB %s/%s", pdb.Namespace, pdb.Namespace)
      const ns = pdb.metadata.namespace ?? '';
      this.o.recorder.eventf(podWithKind(pod), 'Warning', 'NotDeleted', "Pod was expected by PDB %s/%s to be deleted but it wasn't", ns, ns);
    }
    const currentHealthy = countHealthyPods(selected, disrupted.disruptedPods, nowMs, this.o.epochMs);
    const status = nextStatus(pdb, { currentHealthy, desiredHealthy: counted.desiredHealthy, expectedCount: counted.expectedCount, disruptedPods: disrupted.disruptedPods }, nowMs);
    const recheck = (error?: string): void => {
      if (error === undefined && disrupted.recheckAtMs !== undefined) this.queue.addAfter(keyOf(pdb), disrupted.recheckAtMs - nowMs);
      done(error);
    };
    if (status) this.writeStatus(pdb, status, recheck);
    else recheck();
    return undefined;
  }

  /** PUT .../poddisruptionbudgets/<name>/status with the cached object's resourceVersion. */
  private writeStatus(pdb: PodDisruptionBudget, status: PodDisruptionBudget['status'], done: (error?: string) => void): void {
    const target = { group: 'policy', resource: 'poddisruptionbudgets', namespace: pdb.metadata.namespace ?? '', name: pdb.metadata.name ?? '' };
    this.o.client.request({ verb: 'update', subresource: 'status', ...target, body: { ...withKind(pdb), status } }, (res) => {
      if (res.code === 200 || res.code === 404) return done();
      done(res.code === 409 ? 'conflict' : `status update: ${res.code}`);
    });
  }
}

/** %v of a *metav1.LabelSelector: its generated String() (map entries "k: v,", requirements without "&"). */
function goSelector(pdb: PodDisruptionBudget): string {
  const s = pdb.spec.selector;
  if (!s) return '<nil>';
  const labels = Object.keys(s.matchLabels ?? {}).sort().map((k) => `${k}: ${s.matchLabels![k]},`).join('');
  const exprs = (s.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}
