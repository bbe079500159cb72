// The node lifecycle controller and the taint eviction controller, as kube-controller-manager
// runs them. mirrors pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth
// every nodeMonitorPeriod, tryUpdateNodeHealth, processTaintBaseEviction, doNoScheduleTaintingPass,
// RecordNodeStatusChange) and pkg/controller/tainteviction/taint_eviction.go (processPodOnNode,
// deletePodHandler, addConditionAndDeletePod). One write per node per pass: a status change is
// written first, the taints that follow from it in the next pass (upstream also taints from the
// Ready condition it observed before the pass).
import { rfc3339, type Lease, type Node, type ObjectReference, type Pod } from '../../api/index.ts';
import {
  SharedInformer,
  isTombstone,
  restListerWatcher,
  type EventRecorder,
  type RestClient,
  type RestResponse,
} from '../../client/index.ts';
import type { TimerHandle } from '../../kernel/index.ts';
import { TAINT_EVICTION_REASON, planEviction } from './eviction.ts';
import { NODE_NOT_READY_POD_EVENT, notReadyConditions } from './pods-not-ready.ts';
import { NODE_MONITOR_PERIOD_MS, tryUpdateNodeHealth, type NodeHealth } from './health.ts';
import {
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
  desiredNoExecuteTaints,
  desiredNoScheduleTaints,
  reconcileTaints,
} from './taints.ts';

/** --node-eviction-rate (0.1 per second): at most one node gets a NoExecute taint per 10 s. */
export const NO_EXECUTE_TAINTING_INTERVAL_MS = 10_000;

export interface NodeLifecycleDeps {
  clock: {
    now(): number;
    setTimer(delayMs: number, fn: () => void): TimerHandle;
    every(intervalMs: number, fn: () => void): TimerHandle;
  };
  /** Lists and watches (the controller manager's own credentials: list/watch on everything). */
  informerClient: RestClient;
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
  private lastNoExecuteTaintMs = -Infinity;
  private stopped = false;

  constructor(private readonly d: NodeLifecycleDeps) {
    const lw = <T extends Node | Lease | Pod>(resource: string, group = '', namespace?: string) =>
      restListerWatcher<T>(d.informerClient, { group, resource, ...(namespace ? { namespace } : {}) });
    this.nodes = new SharedInformer<Node>(d.clock, lw<Node>('nodes'));
    this.leases = new SharedInformer<Lease>(d.clock, lw<Lease>('leases', 'coordination.k8s.io', 'kube-node-lease'));
    // node_lifecycle_controller.go: pods indexed by spec.nodeName (nodeNameKeyIndex), so a node's pods
    // are found without scanning every pod in the cluster
    this.pods = new SharedInformer<Pod>(d.clock, lw<Pod>('pods'), { indexers: { [NODE_NAME_KEY_INDEX]: (p) => [p.spec.nodeName ?? ''] } });
  }

  start(): void {
    this.pods.addEventHandler({
      onAdd: (pod) => this.processPod(pod),
      onUpdate: (_old, pod) => this.processPod(pod),
      onDelete: (obj) => this.cancelEviction(podKey(isTombstone(obj) ? obj.obj : obj), false),
    });
    this.nodes.addEventHandler({
      onAdd: (node) => this.processNodePods(node),
      onUpdate: (_old, node) => this.processNodePods(node),
    });
    this.nodes.start();
    this.leases.start();
    this.pods.start();
    this.monitorTimer = this.d.clock.every(NODE_MONITOR_PERIOD_MS, () => this.monitorNodeHealth());
  }

  stop(): void {
    this.stopped = true;
    this.monitorTimer?.cancel();
    for (const e of this.evictions.values()) e.timer.cancel();
    this.nodes.stop();
    this.leases.stop();
    this.pods.stop();
  }

  private live(): boolean {
    return !this.stopped && (this.d.isLive?.() ?? true);
  }

  // ------------------------------------------------------------------ node health

  /** monitorNodeHealth: one pass over every node, in name order. */
  monitorNodeHealth(): void {
    if (!this.nodes.hasSynced || !this.leases.hasSynced || !this.pods.hasSynced) return;
    const nowMs = this.d.clock.now();
    const now = rfc3339(nowMs);
    const nodes = this.nodes.lister.list().sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    const seen = new Set<string>();
    for (const node of nodes) {
      const name = node.metadata.name ?? '';
      seen.add(name);
      const lease = this.leases.lister.get('kube-node-lease', name);
      const r = tryUpdateNodeHealth(node, this.health.get(name), lease, nowMs, now);
      this.health.set(name, r.health);
      if (r.conditions) {
        this.writeNode(node, 'status', { status: { conditions: r.conditions } });
        if (r.observedReady?.status === 'True' && r.currentReady?.status !== 'True') {
          // RecordNodeStatusChange, once per transition
          this.d.recorder.eventf(nodeRef(node), 'Normal', 'NodeNotReady', 'Node %s status is now: %s', name, 'NodeNotReady');
          this.markPodsNotReady(name, now);
        }
        continue;
      }
      if (this.podsToRetry.has(name) && r.currentReady?.status !== 'True') {
        // nodesToRetry: a write of MarkPodsNotReady failed in an earlier pass
        this.markPodsNotReady(name, now);
      }
      this.reconcileNodeTaints(node, r.observedReady, now, nowMs);
    }
    for (const name of [...this.health.keys()]) if (!seen.has(name)) this.health.delete(name);
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

  private reconcileNodeTaints(node: Node, ready: Parameters<typeof desiredNoExecuteTaints>[1], now: string, nowMs: number): void {
    const noExecute = desiredNoExecuteTaints(node, ready, now);
    const hasNoExecute = (node.spec?.taints ?? []).some((t) => t.effect === 'NoExecute' && noExecute.some((w) => w.key === t.key));
    if (noExecute.length > 0 && !hasNoExecute) {
      // the zone's RateLimitedTimedQueue (evictionLimiterQPS 0.1, burst 1)
      if (nowMs - this.lastNoExecuteTaintMs < NO_EXECUTE_TAINTING_INTERVAL_MS) {
        noExecute.length = 0;
        noExecute.push(...(node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute' && (t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE)));
      } else {
        this.lastNoExecuteTaintMs = nowMs;
      }
    }
    const taints = reconcileTaints(node, desiredNoScheduleTaints(node), noExecute);
    if (taints) this.writeNode(node, '', { spec: { taints } });
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
    const plan = planEviction(pod, node.spec?.taints ?? []);
    const nowMs = this.d.clock.now();
    if (plan.kind === 'none') return this.cancelEviction(key, true, pod);
    if (plan.kind === 'now') {
      this.cancelEviction(key, true, pod);
      return this.scheduleEviction(pod, nowMs, nowMs);
    }
    const triggerAtMs = nowMs + plan.delayMs;
    const existing = this.evictions.get(key);
    if (existing) {
      if (existing.createdAtMs + plan.delayMs < triggerAtMs) return; // the earlier deadline stands
      this.cancelEviction(key, true, pod);
      return this.scheduleEviction(pod, existing.createdAtMs, triggerAtMs);
    }
    this.scheduleEviction(pod, nowMs, triggerAtMs);
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
