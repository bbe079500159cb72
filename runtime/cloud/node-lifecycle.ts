// The cloud node lifecycle controller: every 5 s it looks at each Node that is not Ready and asks
// the cloud about its instance. An instance that no longer exists means the machine is gone for
// good: the Node is deleted ("Deleting node <name> because it does not exist in the cloud
// provider"), and its pods are then cleaned up by pod garbage collection. An instance that exists
// but is powered off gets the node.cloudprovider.kubernetes.io/shutdown:NoSchedule taint, which
// comes off as soon as the node is Ready again.
// mirrors staging/src/k8s.io/cloud-provider/controllers/nodelifecycle/node_lifecycle_controller.go (MonitorNodes)
import { parseRFC3339, type Node, type NodeSpec, type Taint } from '../api/index.ts';
import type { EventRecorder, RestClient, SharedInformer } from '../client/index.ts';
import type { TimerHandle } from '../kernel/index.ts';
import type { CloudInstances } from './types.ts';
import { nodeReference } from './sync.ts';
import { SHUTDOWN_TAINT, UNINITIALIZED_TAINT, matchesTaint } from './well-known.ts';

/** --node-monitor-period of cloud-controller-manager. */
export const NODE_MONITOR_PERIOD_MS = 5000;
/** uninitializedNodeDelay: a node still waiting for initialization is left alone this long. */
export const UNINITIALIZED_NODE_DELAY_MS = 60_000;

/** What MonitorNodes does with one node before asking the cloud. */
export type MonitorStep = 'remove-shutdown-taint' | 'nothing' | 'wait-uninitialized' | 'ask-cloud';

export function monitorStep(node: Node, nowMs: number): MonitorStep {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'Unknown';
  const taints = node.spec?.taints ?? [];
  if (ready === 'True') return taints.some((t) => matchesTaint(t, SHUTDOWN_TAINT)) ? 'remove-shutdown-taint' : 'nothing';
  if (!node.spec?.providerID && taints.some((t) => matchesTaint(t, UNINITIALIZED_TAINT))) {
    const created = parseRFC3339(node.metadata.creationTimestamp ?? '');
    if (created !== undefined && nowMs - created < UNINITIALIZED_NODE_DELAY_MS) return 'wait-uninitialized';
  }
  return 'ask-cloud';
}

/** What the cloud's answers mean for a NotReady node. */
export type CloudVerdict = 'delete-node' | 'add-shutdown-taint' | 'nothing';

export function cloudVerdict(exists: boolean, shutdown: boolean | undefined): CloudVerdict {
  if (!exists) return 'delete-node';
  return shutdown === true ? 'add-shutdown-taint' : 'nothing';
}

/** The taints after adding (true) or removing (false) the shutdown taint, or undefined if unchanged. */
export function withShutdownTaint(taints: readonly Taint[], present: boolean): Taint[] | undefined {
  const has = taints.some((t) => matchesTaint(t, SHUTDOWN_TAINT));
  if (has === present) return undefined;
  return present ? [...taints, { ...SHUTDOWN_TAINT }] : taints.filter((t) => !matchesTaint(t, SHUTDOWN_TAINT));
}

export interface CloudNodeLifecycleOptions {
  clock: { now(): number; every(ms: number, fn: () => void): TimerHandle };
  client: RestClient;
  nodes: SharedInformer<Node>;
  cloud: CloudInstances;
  recorder: EventRecorder;
  log: (line: string) => void;
  isLive: () => boolean;
}

export class CloudNodeLifecycleController {
  private loop: TimerHandle | undefined;
  /** Nodes with a cloud question or a write in flight: not asked again until it answers. */
  private readonly inFlight = new Set<string>();
  private stopped = false;

  constructor(private readonly o: CloudNodeLifecycleOptions) {}

  start(): void {
    this.loop = this.o.clock.every(NODE_MONITOR_PERIOD_MS, () => this.monitorNodes());
  }

  stop(): void {
    this.stopped = true;
    this.loop?.cancel();
  }

  private alive(): boolean {
    return !this.stopped && this.o.isLive();
  }

  monitorNodes(): void {
    if (!this.o.nodes.hasSynced) return;
    for (const node of this.o.nodes.lister.list()) {
      const name = node.metadata.name ?? '';
      if (this.inFlight.has(name)) continue;
      const step = monitorStep(node, this.o.clock.now());
      if (step === 'remove-shutdown-taint') this.setShutdownTaint(node, false);
      else if (step === 'ask-cloud') this.askCloud(node);
      else if (step === 'wait-uninitialized') this.o.log(`wait uninitialized node ${name}`);
    }
  }

  private askCloud(node: Node): void {
    const name = node.metadata.name ?? '';
    const ref = { name, ...(node.spec?.providerID ? { providerID: node.spec.providerID } : {}) };
    this.inFlight.add(name);
    this.o.cloud.instanceExists(ref, (exists) => {
      if (!this.alive()) return;
      if (!exists.ok) {
        this.inFlight.delete(name);
        return this.o.log(`error checking if node ${name} exists: ${exists.error}`);
      }
      if (cloudVerdict(exists.value, undefined) === 'delete-node') return this.deleteNode(node);
      this.o.cloud.instanceShutdown(ref, (shutdown) => {
        if (!this.alive()) return;
        this.inFlight.delete(name);
        if (!shutdown.ok) return this.o.log(`error checking if node ${name} is shutdown: ${shutdown.error}`);
        if (cloudVerdict(true, shutdown.value) === 'add-shutdown-taint') {
          const latest = this.o.nodes.lister.get('', name);
          if (latest) this.setShutdownTaint(latest, true);
        }
      });
    });
  }

  private deleteNode(node: Node): void {
    const name = node.metadata.name ?? '';
    const ref = nodeReference(node);
    this.o.log(`deleting node since it is no longer present in cloud provider: ${name}`);
    this.o.recorder.eventf(ref, 'Normal', 'DeletingNode', 'Deleting node %s because it does not exist in the cloud provider', name);
    this.o.client.request({ verb: 'delete', group: '', resource: 'nodes', name }, (res) => {
      this.inFlight.delete(name);
      if (!this.alive() || res.code === 200 || res.code === 202 || res.code === 404) return;
      const message = (res.body as { message?: string } | undefined)?.message ?? `code ${res.code}`;
      this.o.log(`unable to delete node "${name}": ${message}`);
      this.o.recorder.eventf(ref, 'Warning', 'DeletingNodeFailed', 'Failed deleting node %s: %v', name, message);
    });
  }

  /** AddOrUpdateTaintOnNode / RemoveTaintOffNode: a conflict-checked update, retried by the next round. */
  private setShutdownTaint(node: Node, present: boolean): void {
    const name = node.metadata.name ?? '';
    const taints = withShutdownTaint(node.spec?.taints ?? [], present);
    if (!taints) return;
    const spec: NodeSpec = { ...node.spec, taints };
    if (taints.length === 0) delete spec.taints;
    this.inFlight.add(name);
    this.o.client.request({ verb: 'update', group: '', resource: 'nodes', name, body: { ...node, spec } }, (res) => {
      this.inFlight.delete(name);
      if (this.alive() && res.code !== 200) this.o.log(`error patching node taints of ${name}: ${res.code}`);
    });
  }
}
