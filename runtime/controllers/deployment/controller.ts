// The Deployment controller, mirroring pkg/controller/deployment/deployment_controller.go and
// sync.go / rolling.go / recreate.go / progress.go. One sync does one phase of upstream's
// rollout (create or re-annotate the new ReplicaSet, scale it, scale old ones down, clean up
// history) and writes status; the ReplicaSet updates it causes bring the key back.
import type { Deployment, DeploymentStatus, Pod, ReplicaSet } from '../../api/index.ts';
import { SIMULATION_EPOCH_MS, deepCopy, parseRFC3339, rfc3339 } from '../../api/index.ts';
import type { EventRecorder, RestClient, RestResponse, SharedInformer } from '../../client/index.ts';
import { RateLimitingQueue, isTombstone, runWorkers, type WorkerPool } from '../../client/index.ts';
import { controllerOf, isEmptySelector, keyOf, newControllerRef } from '../controller-utils.ts';
import type { ControllerClock } from '../replicaset/controller.ts';
import { isScalingEvent, planScale } from './proportional.ts';
import { planNewReplicaSet, planOldReplicaSets, type ScaleStep } from './rolling.ts';
import { calculateStatus, deploymentComplete, deploymentCondition, hasProgressDeadline, setDeploymentCondition, withProgress } from './status.ts';
import {
  DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, POD_TEMPLATE_HASH_LABEL, REVISION_ANNOTATION,
  byCreation, computeHash, copiedAnnotations, equalIgnoreHash, fenceposts, isRollingUpdate, maxRevision,
  newRSNewReplicas, newReplicaSetAnnotations, replicasOf, revisionOf, rsReplicas,
} from './util.ts';

export interface DeploymentControllerOptions {
  clock: ControllerClock;
  client: RestClient;
  deployments: SharedInformer<Deployment>;
  replicaSets: SharedInformer<ReplicaSet>;
  pods: SharedInformer<Pod>;
  recorder: EventRecorder;
  workers?: number;
  epochMs?: number;
  onLog?: (message: string) => void;
}

const D_REF = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
type Done = (error?: string) => void;

export class DeploymentController {
  readonly queue: RateLimitingQueue<string>;
  private pool: WorkerPool | undefined;

  constructor(private readonly o: DeploymentControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    o.deployments.addEventHandler({ onAdd: (d) => this.queue.add(keyOf(d)), onUpdate: (_o, d) => this.queue.add(keyOf(d)) });
    const byOwner = (rs: ReplicaSet): void => {
      const ref = controllerOf(rs);
      if (ref?.kind === 'Deployment') this.queue.add(`${rs.metadata.namespace ?? ''}/${ref.name}`);
    };
    o.replicaSets.addEventHandler({ onAdd: byOwner, onUpdate: (_o, rs) => byOwner(rs), onDelete: (obj) => byOwner(isTombstone(obj) ? obj.obj : obj) });
  }

  start(): void {
    this.pool ??= runWorkers(this.queue, this.o.clock, this.o.workers ?? 5, (key, done) => this.syncDeployment(key, done),
      (key, error) => this.o.onLog?.(`sync "${key}" failed with ${error}`));
  }

  stop(): void {
    this.pool?.stop();
    this.queue.shutDown();
  }

  private now(): string {
    return rfc3339(this.o.clock.now(), this.o.epochMs ?? SIMULATION_EPOCH_MS);
  }

  private event(d: Deployment, reason: string, fmt: string, ...args: unknown[]): void {
    this.o.recorder.eventf({ ...d, ...D_REF }, 'Normal', reason, fmt, ...args);
  }

  /** syncDeployment: one pass for one Deployment key. */
  syncDeployment(key: string, done: Done): void {
    const [namespace = '', name = ''] = key.split('/');
    const cached = this.o.deployments.lister.get(namespace, name);
    if (!cached) return done();
    const d = deepCopy(cached);
    if (isEmptySelector(d.spec.selector)) {
      this.o.recorder.eventf({ ...d, ...D_REF }, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      return done();
    }
    const owned = this.o.replicaSets.lister.listInNamespace(namespace, (rs) => controllerOf(rs)?.uid === d.metadata.uid).sort(byCreation);
    const newRS = owned.find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
    const oldRSs = owned.filter((rs) => rs !== newRS);
    if (d.metadata.deletionTimestamp) return this.writeStatus(d, owned, newRS, done);
    if (this.pausedConditionChanged(d)) return this.writeStatus(d, owned, newRS, done);
    if (d.spec.paused) return this.sync(d, oldRSs, newRS, done);
    if (isScalingEvent(d, owned)) return this.sync(d, oldRSs, newRS, done);
    if (isRollingUpdate(d)) return this.rolloutRolling(d, oldRSs, newRS, done);
    return this.rolloutRecreate(d, oldRSs, newRS, done);
  }

  /** checkPausedConditions: Progressing Unknown DeploymentPaused / DeploymentResumed. */
  private pausedConditionChanged(d: Deployment): boolean {
    if (!hasProgressDeadline(d)) return false;
    const cond = d.status?.conditions?.find((c) => c.type === 'Progressing');
    const paused = d.spec.paused === true;
    if (paused === (cond?.reason === 'DeploymentPaused')) return false;
    const c = paused
      ? deploymentCondition('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', this.now())
      : deploymentCondition('Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed', this.now());
    d.status = { ...(d.status ?? {}), conditions: setDeploymentCondition(d.status?.conditions ?? [], c) };
    return true;
  }

  /**
   * sync.go sync, for a paused Deployment or a scaling event: bring an existing new ReplicaSet's
   * annotations and revision up to date, resize the ReplicaSets (proportionally during a rollout),
   * drop old history while paused, then write status. No new ReplicaSet is made here.
   */
  private sync(d: Deployment, oldRSs: ReplicaSet[], newRS: ReplicaSet | undefined, done: Done): void {
    if (newRS && this.needsRevisionUpdate(d, oldRSs, newRS)) return this.updateRevision(d, oldRSs, newRS, done);
    const steps = planScale(d, newRS, oldRSs);
    if (steps.length > 0) return this.scale(d, steps, done);
    const all = [...oldRSs, ...(newRS ? [newRS] : [])];
    const doomed = d.spec.paused ? this.historyToDelete(d, oldRSs) : [];
    if (doomed.length > 0) return this.deleteReplicaSets(doomed, () => this.writeStatus(d, all, newRS, done));
    this.writeStatus(d, all, newRS, done);
  }

  private rolloutRolling(d: Deployment, oldRSs: ReplicaSet[], newRS: ReplicaSet | undefined, done: Done): void {
    if (!newRS) return this.createNewReplicaSet(d, oldRSs, done);
    if (this.needsRevisionUpdate(d, oldRSs, newRS)) return this.updateRevision(d, oldRSs, newRS, done);
    const all = [...oldRSs, newRS];
    const up = planNewReplicaSet(d, all, newRS);
    if (up) return this.scale(d, [up], done);
    const down = planOldReplicaSets(d, oldRSs, newRS);
    if (down.length > 0) return this.scale(d, down, done);
    this.finish(d, oldRSs, newRS, done);
  }

  private rolloutRecreate(d: Deployment, oldRSs: ReplicaSet[], newRS: ReplicaSet | undefined, done: Done): void {
    const active = oldRSs.filter((rs) => rsReplicas(rs) > 0);
    if (active.length > 0) return this.scale(d, active.map((rs) => ({ rs, to: 0 })), done);
    // oldPodsRunning: wait until every old pod is gone before starting new ones
    const oldPods = oldRSs.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
    if (oldPods > 0) return this.writeStatus(d, [...oldRSs, ...(newRS ? [newRS] : [])], newRS, done);
    if (!newRS) return this.createNewReplicaSet(d, oldRSs, done);
    if (this.needsRevisionUpdate(d, oldRSs, newRS)) return this.updateRevision(d, oldRSs, newRS, done);
    if (rsReplicas(newRS) !== replicasOf(d)) return this.scale(d, [{ rs: newRS, to: replicasOf(d) }], done);
    this.finish(d, oldRSs, newRS, done);
  }

  /** Rollout done for now: clean up old history when complete, then status. */
  private finish(d: Deployment, oldRSs: ReplicaSet[], newRS: ReplicaSet, done: Done): void {
    const all = [...oldRSs, newRS];
    const status = calculateStatus(d, all, newRS, this.now());
    if (deploymentComplete(d, status)) {
      const doomed = this.historyToDelete(d, oldRSs);
      if (doomed.length > 0) return this.deleteReplicaSets(doomed, () => this.writeStatus(d, all, newRS, done));
    }
    this.writeStatus(d, all, newRS, done);
  }

  /** cleanupDeployment: old ReplicaSets past revisionHistoryLimit, lowest revision first. */
  private historyToDelete(d: Deployment, oldRSs: ReplicaSet[]): ReplicaSet[] {
    const limit = d.spec.revisionHistoryLimit ?? 10;
    const alive = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
    const diff = alive.length - limit;
    if (diff <= 0) return [];
    return [...alive].sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b)).slice(0, diff)
      .filter((rs) => (rs.status?.replicas ?? 0) === 0 && rsReplicas(rs) === 0 && (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0));
  }

  private deleteReplicaSets(doomed: ReplicaSet[], then: () => void): void {
    let answered = 0;
    for (const rs of doomed) {
      this.o.onLog?.(`Trying to cleanup replica set "${rs.metadata.name ?? ''}"`);
      this.o.client.request({ verb: 'delete', group: 'apps', resource: 'replicasets', namespace: rs.metadata.namespace ?? '', name: rs.metadata.name ?? '' }, () => {
        if (++answered === doomed.length) then();
      });
    }
  }

  private needsRevisionUpdate(d: Deployment, oldRSs: ReplicaSet[], newRS: ReplicaSet): boolean {
    const revision = maxRevision(oldRSs) + 1;
    return (
      newReplicaSetAnnotations(d, newRS, revision).changed ||
      (newRS.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0) ||
      (d.metadata.annotations?.[REVISION_ANNOTATION] ?? '') !== (newRS.metadata.annotations?.[REVISION_ANNOTATION] ?? '')
    );
  }

  /**
   * getNewReplicaSet for an existing one (sync.go): first bring the ReplicaSet up to date (the
   * deployment's annotations, a higher revision when a rollback reuses it, minReadySeconds), then
   * the deployment's own revision annotation.
   */
  private updateRevision(d: Deployment, oldRSs: ReplicaSet[], newRS: ReplicaSet, done: Done): void {
    const synced = newReplicaSetAnnotations(d, newRS, maxRevision(oldRSs) + 1);
    if (synced.changed || (newRS.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0)) {
      const rs = deepCopy(newRS);
      rs.metadata.annotations = synced.annotations;
      rs.spec.minReadySeconds = d.spec.minReadySeconds ?? 0;
      return this.put('replicasets', rs, done);
    }
    const revision = revisionOf(newRS);
    // SetDeploymentRevision: the deployment carries its current revision, and "Found new replica set"
    const next = deepCopy(d);
    next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [REVISION_ANNOTATION]: String(revision) };
    this.put('deployments', next, (error) => {
      if (error !== undefined) return done(error);
      if (hasProgressDeadline(d) && !d.status?.conditions?.some((c) => c.type === 'Progressing')) {
        d.status = { ...(d.status ?? {}), conditions: setDeploymentCondition(d.status?.conditions ?? [], deploymentCondition('Progressing', 'True', 'FoundNewReplicaSet', `Found new replica set "${newRS.metadata.name ?? ''}"`, this.now())) };
      }
      done();
    });
  }

  /** getNewReplicaSet(createIfNotExisted): "<deployment>-<hash>" with the hash label and selector. */
  private createNewReplicaSet(d: Deployment, oldRSs: ReplicaSet[], done: Done): void {
    const hash = computeHash(d.spec.template, d.status?.collisionCount);
    const name = `${d.metadata.name ?? ''}-${hash}`;
    const template = deepCopy(d.spec.template);
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } };
    const revision = maxRevision(oldRSs) + 1;
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet',
      metadata: {
        name, namespace: d.metadata.namespace ?? 'default',
        labels: { ...(template.metadata.labels ?? {}) },
        annotations: {
          ...copiedAnnotations(d), [REVISION_ANNOTATION]: String(revision),
          [DESIRED_REPLICAS_ANNOTATION]: String(replicasOf(d)), [MAX_REPLICAS_ANNOTATION]: String(replicasOf(d) + fenceposts(d).surge),
        },
        ownerReferences: [newControllerRef(d, D_REF.apiVersion, D_REF.kind)],
      },
      spec: {
        replicas: 0,
        minReadySeconds: d.spec.minReadySeconds ?? 0,
        selector: { ...d.spec.selector, matchLabels: { ...(d.spec.selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } },
        template,
      },
    };
    const replicas = newRSNewReplicas(d, oldRSs, rs);
    rs.spec.replicas = replicas;
    this.o.client.request({ verb: 'create', group: 'apps', resource: 'replicasets', namespace: rs.metadata.namespace ?? '', body: rs }, (res) => {
      if (res.code === 409) return this.bumpCollisionCount(d, done);
      if (res.code !== 201) {
        const message = `Failed to create new replica set "${name}": ${errorText(res)}`;
        this.o.recorder.eventf({ ...d, ...D_REF }, 'Warning', 'ReplicaSetCreateError', message);
        return done(message);
      }
      if (replicas > 0) this.event(d, 'ScalingReplicaSet', 'Scaled up replica set %s to %d from 0', name, replicas);
      if (hasProgressDeadline(d)) {
        d.status = { ...(d.status ?? {}), conditions: setDeploymentCondition(d.status?.conditions ?? [], deploymentCondition('Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${name}"`, this.now())) };
      }
      const created = res.body as ReplicaSet;
      this.writeStatus(d, [...oldRSs, created], created, done);
    });
  }

  /** A ReplicaSet of that name with another template exists: change the hash input and retry. */
  private bumpCollisionCount(d: Deployment, done: Done): void {
    d.status = { ...(d.status ?? {}), collisionCount: (d.status?.collisionCount ?? 0) + 1 };
    this.putStatus(d, d.status, (error) => done(error ?? 'hash collision: retrying with collisionCount bumped'));
  }

  /** scaleReplicaSet for each step, in order, with its ScalingReplicaSet event. */
  private scale(d: Deployment, steps: ScaleStep[], done: Done): void {
    const [step, ...rest] = steps;
    if (!step) return this.requeueAfterWrite(d, done);
    const rs = deepCopy(step.rs);
    const from = rsReplicas(rs);
    rs.spec.replicas = step.to;
    rs.metadata.annotations = {
      ...(rs.metadata.annotations ?? {}),
      [DESIRED_REPLICAS_ANNOTATION]: String(replicasOf(d)), [MAX_REPLICAS_ANNOTATION]: String(replicasOf(d) + fenceposts(d).surge),
    };
    this.put('replicasets', rs, (error) => {
      if (error !== undefined) return done(error);
      if (from !== step.to) this.event(d, 'ScalingReplicaSet', 'Scaled %s replica set %s to %d from %d', step.to > from ? 'up' : 'down', rs.metadata.name, step.to, from);
      this.scale(d, rest, done);
    });
  }

  /** After scaling, write status from the cache as it stands; the ReplicaSet events bring us back. */
  private requeueAfterWrite(d: Deployment, done: Done): void {
    const owned = this.o.replicaSets.lister.listInNamespace(d.metadata.namespace ?? '', (rs) => controllerOf(rs)?.uid === d.metadata.uid);
    const newRS = owned.find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
    this.writeStatus(d, owned, newRS, done);
  }

  /** syncRolloutStatus / syncDeploymentStatus: PUT status when it changed; requeue for the deadline. */
  private writeStatus(d: Deployment, all: ReplicaSet[], newRS: ReplicaSet | undefined, done: Done): void {
    const nowMs = this.o.clock.now();
    const base = calculateStatus(d, all, newRS, this.now());
    const status = d.spec.paused ? base : withProgress(d, base, newRS, nowMs, this.now());
    this.requeueForDeadline(d, status, nowMs);
    if (JSON.stringify(status) === JSON.stringify(this.o.deployments.lister.get(d.metadata.namespace ?? '', d.metadata.name ?? '')?.status ?? {})) return done();
    this.putStatus(d, status, done);
  }

  /** requeueStuckDeployment: look again when the progress deadline would pass. */
  private requeueForDeadline(d: Deployment, s: DeploymentStatus, nowMs: number): void {
    const c = s.conditions?.find((x) => x.type === 'Progressing');
    if (!hasProgressDeadline(d) || !c || c.reason === 'NewReplicaSetAvailable' || c.reason === 'ProgressDeadlineExceeded' || deploymentComplete(d, s)) return;
    const fromMs = parseRFC3339(c.lastUpdateTime ?? '', this.o.epochMs ?? SIMULATION_EPOCH_MS) ?? nowMs;
    const afterMs = Math.max(1000, fromMs + (d.spec.progressDeadlineSeconds ?? 600) * 1000 - nowMs + 1000);
    this.queue.addAfter(keyOf(d), afterMs);
  }

  private putStatus(d: Deployment, status: DeploymentStatus, done: Done): void {
    const fresh = this.o.deployments.lister.get(d.metadata.namespace ?? '', d.metadata.name ?? '') ?? d;
    this.o.client.request({
      verb: 'update', group: 'apps', resource: 'deployments', subresource: 'status', namespace: d.metadata.namespace ?? '', name: d.metadata.name ?? '',
      body: { ...fresh, status },
    }, (res) => done(res.code === 200 ? undefined : errorText(res)));
  }

  private put(resource: 'replicasets' | 'deployments', obj: ReplicaSet | Deployment, done: Done): void {
    this.o.client.request({ verb: 'update', group: 'apps', resource, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', body: obj },
      (res) => done(res.code === 200 ? undefined : errorText(res)));
  }
}

function errorText(res: RestResponse): string {
  const body = res.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : (res.transportError ?? `code ${res.code}`);
}
