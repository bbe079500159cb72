// One running kube-scheduler (one process incarnation, while it leads): informers feed the
// scheduling queue and the cache, a kernel timer pops one pod at a time through the scheduling
// cycle, and the binding cycle talks to the API server.
// mirrors pkg/scheduler/scheduler.go (New, Run), pkg/scheduler/schedule_one.go (ScheduleOne,
// schedulingCycle, bindingCycle, handleBindingCycleError, handleSchedulingFailure, updatePod)
// and pkg/scheduler/eventhandlers.go (addAllEventHandlers).
import {
  rfc3339,
  type Node,
  type ObjectReference,
  type Pod,
  type PodDisruptionBudget,
} from '../../api/index.ts';
import {
  SharedInformer,
  isTombstone,
  restListerWatcher,
  type EventsRecorder,
  type RestClient,
} from '../../client/index.ts';
import type { ProcessContext, TimerHandle } from '../../kernel/index.ts';
import type { ClusterEvent, PostFilterResult } from '../framework/cycle.ts';
import { newPodInfo } from '../framework/pod-info.ts';
import type { Profile, SchedulerConfig } from '../profile.ts';
import { scheduleOne } from '../schedule-one.ts';
import {
  BACKOFF_FLUSH_PERIOD_MS,
  SchedulingQueue,
  UNSCHEDULABLE_FLUSH_PERIOD_MS,
  type QueueOptions,
  type QueuedPodInfo,
} from '../queue/scheduling-queue.ts';
import { bindPod, deletePod, patchAnnotations, patchPodStatus } from './api-calls.ts';
import { SchedulerCache } from './cache.ts';
import { Nominator } from '../queue/nominator.ts';
import {
  assignedPod,
  isPodUpdated,
  nodeUpdateEvents,
  responsibleForPod,
  scheduledMessage,
  truncateMessage,
  updatePodCondition,
} from './pod-changes.ts';

/** Upstream's pod informer skips finished pods (scheduler.go newPodInformer). */
const POD_FIELD_SELECTOR = 'status.phase!=Succeeded,status.phase!=Failed';
const CACHE_SYNC_POLL_MS = 100;

export interface SchedulerDeps {
  ctx: ProcessContext;
  client: RestClient;
  config: SchedulerConfig;
  /** The events.k8s.io/v1 recorder of a profile (client-go tools/events; each profile's reportingController is its schedulerName). */
  recorderFor(schedulerName: string | undefined): EventsRecorder;
  /** Writes the kube-scheduler-simulator annotations; none means they are not written. */
  resultClient?: RestClient;
  queue?: QueueOptions;
  log(line: string): void;
}

interface Failure {
  reason: 'Unschedulable' | 'SchedulerError';
  message: string;
  plugins?: ReadonlySet<string>;
  nominated?: PostFilterResult | null;
}

const podRef = (pod: Pod): ObjectReference => ({
  kind: 'Pod',
  namespace: pod.metadata.namespace ?? 'default',
  name: pod.metadata.name ?? '',
  ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}),
  apiVersion: 'v1',
  ...(pod.metadata.resourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
});

export class RunningScheduler {
  readonly queue: SchedulingQueue;
  readonly cache = new SchedulerCache();
  private readonly pods: SharedInformer<Pod>;
  private readonly nodes: SharedInformer<Node>;
  /** The PDB lister preemption reads (upstream's Evaluator.PdbLister, from the informer factory). */
  private readonly pdbs: SharedInformer<PodDisruptionBudget>;
  private readonly profiles = new Map<string, Profile>();
  private readonly timers: TimerHandle[] = [];
  private nextStartNodeIndex = 0;
  /** Pods preemption nominated to a node (the scheduling queue's nominator upstream). */
  private readonly nominator = new Nominator();
  private kicked = false;
  private stopped = false;
  /** Scheduling cycles run so far (for tests and the UI). */
  cycles = 0;

  constructor(private readonly d: SchedulerDeps) {
    this.queue = new SchedulingQueue(d.queue);
    for (const p of d.config.profiles) this.profiles.set(p.schedulerName, p);
    const clock = { now: d.ctx.now, setTimer: d.ctx.setTimer, every: d.ctx.every };
    this.pods = new SharedInformer<Pod>(
      clock,
      restListerWatcher<Pod>(d.client, {
        group: '',
        resource: 'pods',
        fieldSelector: POD_FIELD_SELECTOR,
      }),
      { onLog: (m) => d.log(`pods informer: ${m}`) },
    );
    this.nodes = new SharedInformer<Node>(
      clock,
      restListerWatcher<Node>(d.client, { group: '', resource: 'nodes' }),
      { onLog: (m) => d.log(`nodes informer: ${m}`) },
    );
    this.pdbs = new SharedInformer<PodDisruptionBudget>(
      clock,
      restListerWatcher<PodDisruptionBudget>(d.client, { group: 'policy', resource: 'poddisruptionbudgets' }),
      { onLog: (m) => d.log(`poddisruptionbudgets informer: ${m}`) },
    );
  }

  start(): void {
    this.addEventHandlers();
    this.pods.start();
    this.nodes.start();
    this.pdbs.start();
    const { ctx } = this.d;
    this.timers.push(
      ctx.every(BACKOFF_FLUSH_PERIOD_MS, () => {
        if (this.queue.flushBackoffQCompleted(ctx.now()) > 0) this.kick();
      }),
      ctx.every(UNSCHEDULABLE_FLUSH_PERIOD_MS, () => {
        if (this.queue.flushUnschedulablePodsLeftover(ctx.now()) > 0) this.kick();
      }),
    );
  }

  stop(): void {
    this.stopped = true;
    this.pods.stop();
    this.nodes.stop();
    this.pdbs.stop();
    for (const t of this.timers) t.cancel();
  }

  get synced(): boolean {
    return this.pods.hasSynced && this.nodes.hasSynced && this.pdbs.hasSynced;
  }

  /** Schedules the next cycle as its own kernel event (one pod per event, in time order). */
  private kick(delayMs = 0): void {
    if (this.kicked || this.stopped) return;
    this.kicked = true;
    this.d.ctx.setTimer(delayMs, () => {
      this.kicked = false;
      if (this.stopped) return;
      // WaitForCacheSync polls every 100 ms before the first cycle
      if (!this.synced) return this.kick(CACHE_SYNC_POLL_MS);
      if (this.scheduleNext()) this.kick();
    });
  }

  private moveAll(event: ClusterEvent): void {
    if (this.queue.moveAllToActiveOrBackoffQueue(event, this.d.ctx.now()) > 0) this.kick();
  }

  // ------------------------------------------------------------------ event handlers

  private addEventHandlers(): void {
    this.pods.addEventHandler({
      onAdd: (pod) => this.onPodAdd(pod),
      onUpdate: (oldPod, newPod) => this.onPodUpdate(oldPod, newPod),
      onDelete: (obj) => this.onPodDelete(isTombstone(obj) ? obj.obj : obj),
    });
    this.nodes.addEventHandler({
      onAdd: (node) => {
        this.cache.addOrUpdateNode(node);
        this.moveAll({ resource: 'Node', action: 'Add' });
      },
      onUpdate: (oldNode, newNode) => {
        this.cache.addOrUpdateNode(newNode);
        for (const event of nodeUpdateEvents(oldNode, newNode)) this.moveAll(event);
      },
      onDelete: (obj) => {
        const node = isTombstone(obj) ? obj.obj : obj;
        this.cache.removeNode(node.metadata.name ?? '');
      },
    });
  }

  private onPodAdd(pod: Pod): void {
    if (assignedPod(pod)) {
      this.cache.addOrUpdateBoundPod(pod);
      this.moveAll({ resource: 'Pod', action: 'Add' });
    } else if (this.responsible(pod)) {
      this.queue.add(newPodInfo(pod), this.d.ctx.now());
      this.nominator.add(pod);
      this.kick();
    }
  }

  private onPodUpdate(oldPod: Pod, newPod: Pod): void {
    if (assignedPod(newPod)) {
      // a pod leaving the unscheduled set (bound) is deleted from the queue, added to the cache
      if (!assignedPod(oldPod)) {
        this.queue.delete(this.key(newPod));
        this.nominator.delete(newPod);
      }
      this.cache.addOrUpdateBoundPod(newPod);
      this.moveAll({ resource: 'Pod', action: assignedPod(oldPod) ? 'Update' : 'Add' });
      return;
    }
    if (!this.responsible(newPod)) return;
    if (oldPod.metadata.resourceVersion === newPod.metadata.resourceVersion) return;
    this.nominator.update(oldPod, newPod);
    // updatePodInSchedulingQueue: an assumed pod is being bound; a status-only change leaves it be
    if (this.cache.isAssumed(newPod) || !isPodUpdated(oldPod, newPod)) return;
    this.queue.add(newPodInfo(newPod), this.d.ctx.now());
    this.kick();
  }

  private onPodDelete(pod: Pod): void {
    if (assignedPod(pod)) {
      this.cache.removePod(pod);
      this.moveAll({ resource: 'Pod', action: 'Delete' });
    } else {
      this.queue.delete(this.key(pod));
      this.nominator.delete(pod);
    }
  }

  private responsible(pod: Pod): boolean {
    return responsibleForPod(pod, new Set(this.profiles.keys()));
  }

  private key(pod: Pod): string {
    return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
  }

  // ------------------------------------------------------------------ ScheduleOne

  /** Pops and schedules one pod; false when activeQ was empty. */
  private scheduleNext(): boolean {
    const { ctx } = this.d;
    const info = this.queue.pop(ctx.now());
    if (!info) return false;
    const podCycle = this.queue.cycle;
    const pod = this.pods.lister.get(info.pod.namespace, info.pod.name) ?? info.pod.pod;
    // skipPodSchedule: a pod being deleted, or already assumed, is not scheduled again
    if (pod.metadata.deletionTimestamp || this.cache.isAssumed(pod) || assignedPod(pod)) return true;
    const profile = this.profiles.get(pod.spec.schedulerName ?? 'default-scheduler');
    if (!profile) return true;
    this.cycles++;
    const outcome = scheduleOne({
      profile,
      snapshot: this.cache.updateSnapshot(),
      pod: info.pod,
      intn: (n) => ctx.rng.nextInt(n),
      nextStartNodeIndex: this.nextStartNodeIndex,
      // the per-node entries only matter when the annotations are written (writeResults)
      recordPerNode: this.d.resultClient !== undefined,
      nominatedPods: (node) => this.nominator.forNode(node),
      pdbs: this.pdbs.lister.list(),
      nowMs: ctx.now(),
      ...(this.d.config.percentageOfNodesToScore === undefined
        ? {}
        : { percentageOfNodesToScore: this.d.config.percentageOfNodesToScore }),
    });
    this.nextStartNodeIndex = outcome.nextStartNodeIndex;
    this.writeResults(pod, outcome);
    if (outcome.kind === 'Scheduled') {
      ctx.trace('scheduler.assume', `${this.key(pod)} -> ${outcome.suggestedHost}`);
      this.nominator.delete(pod);
      this.bindingCycle(info, podCycle, pod, outcome.suggestedHost, profile);
    } else if (outcome.kind === 'Unschedulable') {
      this.deleteVictims(pod, outcome.nominated);
      this.handleSchedulingFailure(info, podCycle, {
        reason: 'Unschedulable',
        message: outcome.fitError.message,
        plugins: outcome.fitError.unschedulablePlugins,
        nominated: outcome.nominated,
      });
    } else {
      this.handleSchedulingFailure(info, podCycle, {
        reason: 'SchedulerError',
        message: outcome.message,
      });
    }
    return true;
  }

  /** Renders the annotations only when they are written: on big clusters that is the costliest step of a cycle. */
  private writeResults(pod: Pod, outcome: { readonly annotations: Record<string, string> }): void {
    const client = this.d.resultClient;
    if (!client) return;
    patchAnnotations(client, pod, outcome.annotations, (err) => {
      if (err && this.d.ctx.isLive()) this.d.log(`writing results to ${this.key(pod)}: ${err}`);
    });
  }

  /** Assume, then bind asynchronously; a failed binding forgets the pod and requeues it. */
  private bindingCycle(
    info: QueuedPodInfo,
    podCycle: number,
    pod: Pod,
    host: string,
    profile: Profile,
  ): void {
    const assumed: Pod = { ...pod, spec: { ...pod.spec, nodeName: host } };
    this.cache.assume(assumed, host);
    bindPod(this.d.client, pod, host, (err) => {
      if (!this.d.ctx.isLive() || this.stopped) return;
      if (err === null) {
        this.d.ctx.trace('scheduler.bound', `${this.key(pod)} -> ${host}`);
        // schedule_one.go bindingCycle: Eventf(assumedPod, nil, Normal, "Scheduled", "Binding", msg)
        this.d.recorderFor(pod.spec.schedulerName).eventf(podRef(pod), null, 'Normal', 'Scheduled', 'Binding', '%s', scheduledMessage(pod, host));
        return;
      }
      // handleBindingCycleError: forget the assumed pod, wake pods it may have kept out
      this.cache.forget(assumed);
      this.moveAll({ resource: 'Pod', action: 'Delete' });
      const binder = profile.bind[0]?.name ?? 'DefaultBinder';
      this.handleSchedulingFailure(info, podCycle, {
        reason: 'SchedulerError',
        message: `running Bind plugin "${binder}": ${err}`,
      });
    });
  }

  /** prepareCandidate: the victims preemption chose are deleted, each told why. */
  private deleteVictims(preemptor: Pod, nominated: PostFilterResult | null): void {
    if (!nominated) return;
    for (const v of nominated.victims) {
      const victim = this.pods.lister.get(v.namespace, v.name);
      // graceful deletion already started: another API call is unnecessary (prepareCandidate)
      if (victim?.metadata.deletionTimestamp) continue;
      if (victim) {
        // preemption.go prepareCandidate: Eventf(victim, preemptor, Normal, "Preempted", "Preempting", ...)
        this.d.recorderFor(preemptor.spec.schedulerName).eventf(
          podRef(victim),
          podRef(preemptor),
          'Normal',
          'Preempted',
          'Preempting',
          '%s',
          `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${nominated.nominatedNodeName}`,
        );
      }
      const remove = (): void =>
        deletePod(this.d.client, v.namespace, v.name, (err) => {
          if (err && this.d.ctx.isLive()) this.d.log(`deleting victim ${v.namespace}/${v.name}: ${err}`);
        });
      if (!victim) {
        remove();
        continue;
      }
      // the victim is told why before it goes: DisruptionTarget, PreemptionByScheduler
      const { changed, conditions } = updatePodCondition(
        victim.status?.conditions ?? [],
        {
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'PreemptionByScheduler',
          message: `${preemptor.spec.schedulerName ?? 'default-scheduler'}: preempting to accommodate a higher priority pod`,
        },
        rfc3339(this.d.ctx.now()),
      );
      if (!changed) remove();
      else
        patchPodStatus(this.d.client, victim, { conditions }, (err) => {
          if (err && this.d.ctx.isLive()) this.d.log(`updating victim ${v.namespace}/${v.name}: ${err}`);
          remove();
        });
    }
  }

  /**
   * handleSchedulingFailure: requeue the pod (unless it is gone or was bound meanwhile), record
   * FailedScheduling, and set PodScheduled=False (with nominatedNodeName after preemption).
   */
  private handleSchedulingFailure(info: QueuedPodInfo, podCycle: number, f: Failure): void {
    const { ctx } = this.d;
    const nowMs = ctx.now();
    const cached = this.pods.lister.get(info.pod.namespace, info.pod.name);
    if (cached && !assignedPod(cached)) {
      // AddNominatedPod: preemption's node overrides; an error clears the nomination; otherwise the pod's own stands
      if (f.reason === 'SchedulerError') this.nominator.delete(cached);
      else this.nominator.add(cached, f.nominated?.nominatedNodeName);
      const requeued = { ...info, pod: newPodInfo(cached) };
      this.queue.addUnschedulable(requeued, podCycle, nowMs, {
        ...(f.plugins ? { plugins: f.plugins } : {}),
        error: f.reason === 'SchedulerError',
      });
    }
    const pod = cached ?? info.pod.pod;
    ctx.trace('scheduler.failed', `${this.key(pod)}: ${f.message}`);
    // handleSchedulingFailure: Eventf(pod, nil, Warning, "FailedScheduling", "Scheduling", msg)
    this.d.recorderFor(pod.spec.schedulerName).eventf(podRef(pod), null, 'Warning', 'FailedScheduling', 'Scheduling', '%s', truncateMessage(f.message));
    const { changed, conditions } = updatePodCondition(
      pod.status?.conditions ?? [],
      {
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        reason: f.reason,
        message: f.message,
      },
      rfc3339(nowMs),
    );
    // updatePod: nominatedNodeName changes only when preemption set it (a node, or "" to clear it)
    const nominatedNodeName = f.nominated?.nominatedNodeName;
    const nnnNeedsUpdate =
      nominatedNodeName !== undefined && (pod.status?.nominatedNodeName ?? '') !== nominatedNodeName;
    if (!changed && !nnnNeedsUpdate) return;
    patchPodStatus(
      this.d.client,
      pod,
      // a merge patch removes a field set to null (status.nominatedNodeName is omitempty)
      { conditions, ...(nnnNeedsUpdate ? { nominatedNodeName: nominatedNodeName === '' ? null : nominatedNodeName } : {}) },
      (err) => {
        if (err && ctx.isLive()) this.d.log(`updating pod ${this.key(pod)}: ${err}`);
      },
    );
  }
}
