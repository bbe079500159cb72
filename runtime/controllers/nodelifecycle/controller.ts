// The node lifecycle controller and the taint eviction controller, as kube-controller-manager
// runs them. mirrors pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth
// every nodeMonitorPeriod, tryUpdateNodeHealth, processTaintBaseEviction, doNoScheduleTaintingPass,
// RecordNodeStatusChange, handleDisruption) and pkg/controller/tainteviction/taint_eviction.go
// (processPodOnNode, deletePodHandler, addConditionAndDeletePod). NoSchedule taints follow each node
// change (the nodeUpdateQueue's doNoScheduleTaintingPass); NoExecute taints come from the monitor
// pass through each zone's rate-limited queue (doNoExecuteTaintingPass), whose rate drops when a
// zone looks disrupted (zones.ts). A status change is written first, the taints that follow from
// it in the next pass (upstream also taints from the Ready condition it observed before the pass).
import { rfc3339, type Lease, type Node, type NodeCondition, type ObjectReference, type Pod, type Taint } from '../../api/index.ts';
import {
  isTombstone,
  type EventRecorder,
  type RestClient,
  type RestResponse,
  type SharedInformer,
} from '../../client/index.ts';
import type { TimerHandle } from '../../kernel/index.ts';
import { TAINT_EVICTION_REASON, processPodOnNode } from './eviction.ts';
import { NODE_NOT_READY_POD_EVENT, notReadyConditions } from './pods-not-ready.ts';
import { NODE_MONITOR_PERIOD_MS, tryUpdateNodeHealth, type NodeHealth } from './health.ts';
import {
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
  desiredNoExecuteTaints,
  desiredNoScheduleTaints,
  ownNoExecute,
  ownNoSchedule,
  reconcileTaints,
} from './taints.ts';
import {
  EVICTION_LIMITER_QPS, LABEL_EXCLUDE_DISRUPTION, NODE_EVICTION_PERIOD_MS, RateLimitedTimedQueue, decideDisruption,
  zoneKeyOf, zoneTaintingQPS, type ZoneState,
} from './zones.ts';

export interface NodeLifecycleDeps {
  clock: {
    now(): number;
    setTimer(delayMs: number, fn: () => void): TimerHandle;
    every(intervalMs: number, fn: () => void): TimerHandle;
  };
  /**
   * The shared informer for group/resource from the controller manager's factory (its own
   * credentials: list/watch on everything), started by whoever owns the factory.
   */
  informer<T extends Node | Lease | Pod>(group: string, resource: string): SharedInformer<T>;
  /** Writes, as system:serviceaccount:kube-system:node-controller. */
  client: RestClient;
  recorder: EventRecorder;
  log(line: string): void;
  /** False once the process died: late callbacks then do nothing. */
  isLive?(): boolean;
}

interface ScheduledEviction {
  createdAtMs: number;
  triggerAtMs: number;
  timer: TimerHandle;
}

const nodeRef = (node: Node): ObjectReference => ({
  kind: 'Node',
  name: node.metadata.name ?? '',
  ...(node.metadata.uid ? { uid: node.metadata.uid } : {}),
  apiVersion: 'v1',
});
const podRef = (pod: Pod): ObjectReference => ({
  kind: 'Pod',
  namespace: pod.metadata.namespace ?? 'default',
  name: pod.metadata.name ?? '',
  ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}),
  apiVersion: 'v1',
});
/** The last taint removed leaves no taints field, as upstream's patch of a nil list does (RemoveTaintOffNode). */
const taintsField = (taints: Taint[]): Taint[] | null => (taints.length > 0 ? taints : null);
/** klog's %q for a zone key (region + ":\x00:" + zone). */
const goQuote = (s: string): string => JSON.stringify(s).replace(/\\u0000/g, '\\x00');
const podKey = (pod: Pod) => `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;

const NODE_NAME_KEY_INDEX = 'spec.nodeName';

export class NodeLifecycleController {
  readonly nodes: SharedInformer<Node>;
  readonly leases: SharedInformer<Lease>;
  readonly pods: SharedInformer<Pod>;
  private readonly health = new Map<string, NodeHealth>();
  private readonly evictions = new Map<string, ScheduledEviction>();
  /** Nodes whose MarkPodsNotReady must be tried again (upstream nodesToRetry). */
  private readonly podsToRetry = new Set<string>();
  private monitorTimer: TimerHandle | undefined;
  /** knownNodeSet: nodes a pass has seen (RegisteredNode / RemovingNode). */
  private readonly knownNodes = new Set<string>();
  private zoneStates = new Map<string, ZoneState>();
  /** zoneNoExecuteTainter: one rate-limited queue per zone, never removed. */
  private readonly tainters = new Map<string, RateLimitedTimedQueue>();
  /** The 100 ms tainting pass runs only while some queue holds a node (a pass over empty queues does nothing). */
  private taintingTimer: TimerHandle | undefined;
  private startedAtMs = 0;
  /** Nodes with a NoSchedule write in flight, and whether another change came meanwhile. */
  private readonly noScheduleWrites = new Map<string, { dirty: boolean }>();
  private stopped = false;

  constructor(private readonly d: NodeLifecycleDeps) {
    // the factory's shared informers (core.go startNodeLifecycleController): all leases, read by
    // kube-node-lease/<node> (leaseLister.Leases(v1.NamespaceNodeLease).Get)
    this.nodes = d.informer<Node>('', 'nodes');
    this.leases = d.informer<Lease>('coordination.k8s.io', 'leases');
    this.pods = d.informer<Pod>('', 'pods');
    // node_lifecycle_controller.go: pods indexed by spec.nodeName (nodeNameKeyIndex), so a node's pods
    // are found without scanning every pod in the cluster
    if (!this.pods.hasIndex(NODE_NAME_KEY_INDEX)) this.pods.addIndexers({ [NODE_NAME_KEY_INDEX]: (p) => [p.spec.nodeName ?? ''] });
  }

  start(): void {
    this.pods.addEventHandler({
      onAdd: (pod) => this.processPod(pod),
      onUpdate: (_old, pod) => this.processPod(pod),
      onDelete: (obj) => this.cancelEviction(podKey(isTombstone(obj) ? obj.obj : obj), false),
    });
    this.nodes.addEventHandler({
      onAdd: (node) => {
        this.doNoScheduleTaintingPass(node.metadata.name ?? '');
        this.processNodePods(node);
      },
      onUpdate: (_old, node) => {
        this.doNoScheduleTaintingPass(node.metadata.name ?? '');
        this.processNodePods(node);
      },
    });
    this.startedAtMs = this.d.clock.now();
    this.monitorTimer = this.d.clock.every(NODE_MONITOR_PERIOD_MS, () => this.monitorNodeHealth());
  }

  stop(): void {
    this.stopped = true;
    this.monitorTimer?.cancel();
    this.taintingTimer?.cancel();
    for (const e of this.evictions.values()) e.timer.cancel();
  }

  private live(): boolean {
    return !this.stopped && (this.d.isLive?.() ?? true);
  }

  // ------------------------------------------------------------------ node health

  /** monitorNodeHealth: one pass over every node, in name order, then handleDisruption. */
  monitorNodeHealth(): void {
    if (!this.nodes.hasSynced || !this.leases.hasSynced || !this.pods.hasSynced) return;
    const nowMs = this.d.clock.now();
    const now = rfc3339(nowMs);
    const nodes = this.nodes.lister.list().sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    this.classifyNodes(nodes);
    const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
    for (const node of nodes) {
      const name = node.metadata.name ?? '';
      const lease = this.leases.lister.get('kube-node-lease', name);
      const r = tryUpdateNodeHealth(node, this.health.get(name), lease, nowMs, now);
      this.health.set(name, r.health);
      if (!(LABEL_EXCLUDE_DISRUPTION in (node.metadata.labels ?? {}))) {
        const zone = zoneKeyOf(node);
        (zoneConditions.get(zone) ?? zoneConditions.set(zone, []).get(zone)!).push(r.currentReady);
      }
      if (r.conditions) {
        this.writeNode(node, 'status', { status: { conditions: r.conditions } });
        if (r.observedReady?.status === 'True') this.tainterOf(node).remove(name); // markNodeAsReachable's dequeue
        if (r.observedReady?.status === 'True' && r.currentReady?.status !== 'True') {
          // RecordNodeStatusChange, once per transition
          this.d.recorder.eventf(nodeRef(node), 'Normal', 'NodeNotReady', 'Node %s status is now: %s', name, 'NodeNotReady');
          this.markPodsNotReady(name, now);
        }
        continue;
      }
      // upstream acts on the node only once it has a Ready condition (currentReadyCondition != nil)
      if (!r.currentReady) continue;
      if (this.podsToRetry.has(name) && r.currentReady.status !== 'True') {
        // nodesToRetry: a write of MarkPodsNotReady failed in an earlier pass
        this.markPodsNotReady(name, now);
      }
      this.processTaintBaseEviction(node, r.observedReady, now, nowMs);
    }
    this.handleDisruption(zoneConditions, nodes, nowMs);
  }

  /** classifyNodes: RegisteredNode for nodes seen for the first time, RemovingNode for nodes gone. */
  private classifyNodes(nodes: readonly Node[]): void {
    const seen = new Set<string>();
    for (const node of nodes) {
      const name = node.metadata.name ?? '';
      seen.add(name);
      this.tainterOf(node);
      if (this.knownNodes.has(name)) continue;
      this.knownNodes.add(name);
      this.recordNodeEvent(node, 'RegisteredNode', `Registered Node ${name} in Controller`);
      this.markNodeAsReachable(node, rfc3339(this.d.clock.now()));
    }
    for (const name of [...this.knownNodes]) {
      if (seen.has(name)) continue;
      this.knownNodes.delete(name);
      this.health.delete(name);
      this.recordNodeEvent({ metadata: { name } }, 'RemovingNode', `Removing Node ${name} from Controller`);
    }
  }

  /** RecordNodeEvent: "Node <name> event: <what>". */
  private recordNodeEvent(node: Node, reason: string, what: string): void {
    const name = node.metadata.name ?? '';
    this.d.recorder.eventf(nodeRef(node), 'Normal', reason, 'Node %s event: %s', name, what);
  }

  /** addPodEvictorForNewZone: the zone's queue, created at the normal rate the first time the zone is seen. */
  private tainterOf(node: Node): RateLimitedTimedQueue {
    const zone = zoneKeyOf(node);
    let q = this.tainters.get(zone);
    if (!q) {
      q = new RateLimitedTimedQueue(EVICTION_LIMITER_QPS, this.d.clock.now());
      this.tainters.set(zone, q); // its state starts as Initial in handleDisruption (decideDisruption)
    }
    return q;
  }

  /** processTaintBaseEviction: swap an opposite taint at once, else queue the node for its NoExecute taint. */
  private processTaintBaseEviction(node: Node, observed: NodeCondition | undefined, now: string, nowMs: number): void {
    const taints = node.spec?.taints ?? [];
    const has = (key: string) => taints.some((t) => t.key === key && t.effect === 'NoExecute');
    const status = observed?.status;
    if (status === 'True') return this.markNodeAsReachable(node, now);
    if (status !== 'False' && status !== 'Unknown') return;
    const [want, opposite] = status === 'False' ? [TAINT_NOT_READY, TAINT_UNREACHABLE] : [TAINT_UNREACHABLE, TAINT_NOT_READY];
    if (has(opposite)) return this.writeNoExecuteTaints(node, observed, now);
    // markNodeForTainting: a node that lost its taint is queued afresh
    const q = this.tainterOf(node);
    if (!has(want)) q.remove(node.metadata.name ?? '');
    if (q.add(node.metadata.name ?? '', nowMs)) this.scheduleTaintingPass();
  }

  /** markNodeAsReachable: neither NoExecute taint, and out of the zone's queue. */
  private markNodeAsReachable(node: Node, now: string): void {
    this.tainterOf(node).remove(node.metadata.name ?? '');
    if ((node.spec?.taints ?? []).some(ownNoExecute)) this.writeNoExecuteTaints(node, undefined, now);
  }

  /** SwapNodeControllerTaint for the NoExecute taints `ready` calls for (none for Ready or no condition). */
  private writeNoExecuteTaints(node: Node, ready: NodeCondition | undefined, now: string): void {
    const noSchedule = (node.spec?.taints ?? []).filter(ownNoSchedule);
    const taints = reconcileTaints(node, noSchedule, desiredNoExecuteTaints(node, ready, now));
    if (taints) this.writeNode(node, '', { spec: { taints: taintsField(taints) } });
  }

  /** Runs doNoExecuteTaintingPass on its 100 ms cadence (counted from start) while a node waits. */
  private scheduleTaintingPass(): void {
    if (this.taintingTimer || this.stopped) return;
    const sinceStart = this.d.clock.now() - this.startedAtMs;
    const delayMs = NODE_EVICTION_PERIOD_MS - (sinceStart % NODE_EVICTION_PERIOD_MS);
    this.taintingTimer = this.d.clock.setTimer(delayMs, () => {
      this.taintingTimer = undefined;
      if (!this.live()) return;
      this.doNoExecuteTaintingPass();
      if ([...this.tainters.values()].some((q) => q.length > 0)) this.scheduleTaintingPass();
    });
  }

  /** doNoExecuteTaintingPass: each zone taints the nodes its limiter lets through. */
  private doNoExecuteTaintingPass(): void {
    const nowMs = this.d.clock.now();
    const now = rfc3339(nowMs);
    for (const q of this.tainters.values()) {
      q.try(nowMs, (name) => {
        const node = this.nodes.lister.get('', name);
        if (!node) return true;
        const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
        if (!ready) return { retryAfterMs: 50 };
        // not Ready: the matching taint in, the opposite one out; Ready again: nothing to do
        if (ready.status === 'False' || ready.status === 'Unknown') this.writeNoExecuteTaints(node, ready, now);
        return true;
      });
    }
  }

  /** handleDisruption: zone states, each zone's tainting rate, and master disruption mode. */
  private handleDisruption(zoneConditions: Map<string, (NodeCondition | undefined)[]>, nodes: readonly Node[], nowMs: number): void {
    const { states, newStates, change } = decideDisruption(this.zoneStates, zoneConditions);
    this.zoneStates = states;
    const setLimiter = (zone: string, state: ZoneState | undefined): void => {
      this.tainters.get(zone)?.swapLimiter(zoneTaintingQPS(state ?? 'Normal', zoneConditions.get(zone)?.length ?? 0), nowMs);
    };
    switch (change.kind) {
      case 'enter-master-disruption': {
        this.d.log('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
        const now = rfc3339(nowMs);
        for (const node of nodes) this.markNodeAsReachable(node, now);
        for (const zone of states.keys()) this.tainters.get(zone)?.swapLimiter(0, nowMs);
        return;
      }
      case 'exit-master-disruption':
        this.d.log('Controller detected that some Nodes are Ready. Exiting master disruption mode');
        for (const node of nodes) {
          const h = this.health.get(node.metadata.name ?? '');
          if (h) this.health.set(node.metadata.name ?? '', { ...h, probeTimestampMs: nowMs, readyTransitionTimestampMs: nowMs });
        }
        for (const zone of states.keys()) setLimiter(zone, newStates.get(zone));
        return;
      case 'zones':
        for (const { zone, state } of change.changed) {
          this.d.log(`Controller detected that zone is now in new state zone=${goQuote(zone)} newState="${state}"`);
          setLimiter(zone, state);
        }
        return;
      case 'none':
        return;
    }
  }

  /**
   * doNoScheduleTaintingPass after a node change: the NoSchedule taints follow its conditions and
   * spec.unschedulable. One write in flight per node; a change seen meanwhile runs the pass again.
   */
  private doNoScheduleTaintingPass(name: string): void {
    const inFlight = this.noScheduleWrites.get(name);
    if (inFlight) {
      inFlight.dirty = true;
      return;
    }
    const node = this.nodes.lister.get('', name);
    if (!node || !this.live()) return;
    const noExecute = (node.spec?.taints ?? []).filter(ownNoExecute);
    const taints = reconcileTaints(node, desiredNoScheduleTaints(node, rfc3339(this.d.clock.now())), noExecute);
    if (!taints) return;
    const write = { dirty: false };
    this.noScheduleWrites.set(name, write);
    this.d.client.request(
      { verb: 'patch', group: '', resource: 'nodes', name, patchType: 'application/merge-patch+json', body: { metadata: { resourceVersion: node.metadata.resourceVersion }, spec: { taints: taintsField(taints) } } },
      (res) => {
        this.noScheduleWrites.delete(name);
        if (!this.live()) return;
        // a conflict means the node changed: its watch event runs the pass again (or has: dirty)
        if (res.code !== 409) this.logFailure(res, `updating node ${name}`);
        if (write.dirty) this.doNoScheduleTaintingPass(name);
      },
    );
  }

  /** MarkPodsNotReady: Ready=False on every pod of the node, each write guarded by the cached resourceVersion. */
  private markPodsNotReady(nodeName: string, now: string): void {
    this.podsToRetry.delete(nodeName);
    for (const pod of this.podsAssignedToNode(nodeName)) {
      const conditions = notReadyConditions(pod, nodeName, now);
      if (!conditions) continue;
      const key = podKey(pod);
      this.d.client.request({
        verb: 'patch', group: '', resource: 'pods', namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name ?? '', subresource: 'status',
        patchType: 'application/merge-patch+json', body: { metadata: { resourceVersion: pod.metadata.resourceVersion }, status: { conditions } },
      }, (res) => {
        if (res.code === 404 || !this.live()) return; // already gone: nothing left to do
        if (res.code !== 200) {
          this.podsToRetry.add(nodeName);
          return this.logFailure(res, `marking pod ${key} not ready`);
        }
        // recorded after the write, so the pod still exists
        const e = NODE_NOT_READY_POD_EVENT;
        this.d.recorder.eventf(podRef(pod), e.type, e.reason, '%s', e.message);
      });
    }
  }

  /** A merge patch guarded by the cached resourceVersion; a conflict waits for the next pass. */
  private writeNode(node: Node, subresource: '' | 'status', body: { spec?: object; status?: object }): void {
    const name = node.metadata.name ?? '';
    this.d.client.request(
      {
        verb: 'patch',
        group: '',
        resource: 'nodes',
        name,
        ...(subresource ? { subresource } : {}),
        patchType: 'application/merge-patch+json',
        body: { metadata: { resourceVersion: node.metadata.resourceVersion }, ...body },
      },
      (res) => this.logFailure(res, `updating node ${name}${subresource ? ' status' : ''}`),
    );
  }

  private logFailure(res: RestResponse, what: string): void {
    if (res.code >= 200 && res.code < 300) return;
    if (!this.live()) return;
    const msg = (res.body as { message?: string } | undefined)?.message ?? res.transportError ?? `HTTP ${res.code}`;
    this.d.log(`${what}: ${msg}`);
  }

  // ------------------------------------------------------------------ taint eviction

  private processNodePods(node: Node): void {
    const name = node.metadata.name ?? '';
    for (const pod of this.podsAssignedToNode(name)) this.processPod(pod, node);
  }

  /** getPodsAssignedToNode, through the index. */
  private podsAssignedToNode(nodeName: string): Pod[] {
    return nodeName === '' ? [] : this.pods.lister.byIndex(NODE_NAME_KEY_INDEX, nodeName);
  }

  /** processPodOnNode. */
  private processPod(pod: Pod, known?: Node): void {
    const nodeName = pod.spec.nodeName;
    if (!nodeName || pod.metadata.deletionTimestamp) return;
    const node = known ?? this.nodes.lister.get('', nodeName);
    if (!node) return;
    const key = podKey(pod);
    const existing = this.evictions.get(key);
    const pending = existing ? { createdAtMs: existing.createdAtMs, fireAtMs: existing.triggerAtMs } : null;
    const next = processPodOnNode(pod.spec.tolerations ?? [], node.spec?.taints ?? [], this.d.clock.now(), pending);
    if (next === pending) return; // the pending deletion stands
    this.cancelEviction(key, true, pod);
    if (next) this.scheduleEviction(pod, next.createdAtMs, next.fireAtMs);
  }

  private scheduleEviction(pod: Pod, createdAtMs: number, triggerAtMs: number): void {
    const key = podKey(pod);
    const timer = this.d.clock.setTimer(Math.max(0, triggerAtMs - this.d.clock.now()), () => {
      this.evictions.delete(key);
      if (this.live()) this.evict(pod);
    });
    this.evictions.set(key, { createdAtMs, triggerAtMs, timer });
  }

  private cancelEviction(key: string, withEvent: boolean, pod?: Pod): void {
    const e = this.evictions.get(key);
    if (!e) return;
    e.timer.cancel();
    this.evictions.delete(key);
    if (withEvent && pod) this.d.recorder.eventf(podRef(pod), 'Normal', TAINT_EVICTION_REASON, 'Cancelling deletion of Pod %s', key);
  }

  /** deletePodHandler + addConditionAndDeletePod: the DisruptionTarget condition, then delete. */
  private evict(pod: Pod): void {
    const key = podKey(pod);
    const ns = pod.metadata.namespace ?? 'default';
    const name = pod.metadata.name ?? '';
    this.d.recorder.eventf(podRef(pod), 'Normal', TAINT_EVICTION_REASON, 'Marking for deletion Pod %s', key);
    const current = this.pods.lister.get(ns, name) ?? pod;
    const conditions = [
      ...(current.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'),
      {
        type: 'DisruptionTarget',
        status: 'True' as const,
        lastTransitionTime: rfc3339(this.d.clock.now()),
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint',
      },
    ];
    this.d.client.request(
      { verb: 'patch', group: '', resource: 'pods', namespace: ns, name, subresource: 'status', patchType: 'application/merge-patch+json', body: { status: { conditions } } },
      (res) => {
        this.logFailure(res, `adding DisruptionTarget to pod ${key}`);
        this.d.client.request({ verb: 'delete', group: '', resource: 'pods', namespace: ns, name }, (del) => {
          if (del.code !== 404) this.logFailure(del, `deleting pod ${key}`);
        });
      },
    );
  }
}
