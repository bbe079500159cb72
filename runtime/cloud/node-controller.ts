// The cloud node controller: initializes each Node a kubelet registered with the
// node.cloudprovider.kubernetes.io/uninitialized taint. It asks the cloud for the instance's
// metadata, then in one update sets spec.providerID, the zone/region/instance-type labels (GA and
// beta keys) and drops the taint; then it patches the cloud's addresses into status and records
// "Synced". Every 5 minutes it refreshes the addresses of initialized nodes (UpdateNodeStatus).
// mirrors staging/src/k8s.io/cloud-provider/controllers/node/node_controller.go (syncNode,
// getNodeModifiersFromCloudProvider, updateNodeAddress, UpdateNodeStatus)
import type { Node, NodeAddress, NodeSpec } from '../api/index.ts';
import { RateLimitingQueue, runWorkers, type WorkerPool, type EventRecorder, type QueueClock, type RestClient, type SharedInformer } from '../client/index.ts';
import type { TimerHandle } from '../kernel/index.ts';
import type { CloudInstances, InstanceMetadata } from './types.ts';
import {
  LABEL_BETA_INSTANCE_TYPE, LABEL_BETA_REGION, LABEL_BETA_ZONE, LABEL_INSTANCE_TYPE, LABEL_TOPOLOGY_REGION, LABEL_TOPOLOGY_ZONE,
  UNINITIALIZED_TAINT, matchesTaint,
} from './well-known.ts';
import { nodeReference } from './sync.ts';

/** --node-status-update-frequency of the cloud node controller. */
export const NODE_STATUS_UPDATE_FREQUENCY_MS = 5 * 60_000;

export const isUninitialized = (node: Node): boolean => (node.spec?.taints ?? []).some((t) => matchesTaint(t, UNINITIALIZED_TAINT));

/**
 * The Node after cloud initialization: providerID (only when unset: it is immutable), the
 * instance-type, zone and region labels, and no uninitialized taint. Pure: returns a new object.
 */
export function initializedNode(node: Node, meta: InstanceMetadata): Node {
  const labels: Record<string, string> = { ...node.metadata.labels };
  if (meta.instanceType) {
    labels[LABEL_INSTANCE_TYPE] = meta.instanceType;
    labels[LABEL_BETA_INSTANCE_TYPE] = meta.instanceType;
  }
  if (meta.zone) {
    labels[LABEL_BETA_ZONE] = meta.zone;
    labels[LABEL_TOPOLOGY_ZONE] = meta.zone;
  }
  if (meta.region) {
    labels[LABEL_BETA_REGION] = meta.region;
    labels[LABEL_TOPOLOGY_REGION] = meta.region;
  }
  const taints = (node.spec?.taints ?? []).filter((t) => !matchesTaint(t, UNINITIALIZED_TAINT));
  const spec: NodeSpec = { ...node.spec, providerID: node.spec?.providerID || meta.providerID, taints };
  if (taints.length === 0) delete spec.taints;
  return { ...node, metadata: { ...node.metadata, labels }, spec };
}

/**
 * updateNodeAddress: the addresses to write, or undefined when nothing changes. The cloud's list
 * wins; a Hostname the cloud did not report is kept from the kubelet's list.
 */
export function nodeAddressesUpdate(node: Node, meta: InstanceMetadata): NodeAddress[] | undefined {
  if (isUninitialized(node) || meta.nodeAddresses.length === 0) return undefined;
  const next = [...meta.nodeAddresses];
  if (!next.some((a) => a.type === 'Hostname')) next.push(...(node.status?.addresses ?? []).filter((a) => a.type === 'Hostname'));
  const key = (list: readonly NodeAddress[]): string => list.map((a) => `${a.type}=${a.address}`).sort().join(',');
  return key(next) === key(node.status?.addresses ?? []) ? undefined : next;
}

export interface CloudNodeControllerOptions {
  clock: QueueClock & { every(ms: number, fn: () => void): TimerHandle };
  client: RestClient;
  nodes: SharedInformer<Node>;
  cloud: CloudInstances;
  recorder: EventRecorder;
  log: (line: string) => void;
  isLive: () => boolean;
}

export class CloudNodeController {
  private readonly queue: RateLimitingQueue<string>;
  private runner: WorkerPool | undefined;
  private statusLoop: TimerHandle | undefined;

  constructor(private readonly o: CloudNodeControllerOptions) {
    this.queue = new RateLimitingQueue<string>(o.clock);
    o.nodes.addEventHandler({
      onAdd: (n) => this.queue.add(n.metadata.name ?? ''),
      onUpdate: (_old, n) => {
        if (isUninitialized(n)) this.queue.add(n.metadata.name ?? '');
      },
    });
  }

  start(): void {
    this.runner = runWorkers(this.queue, this.o.clock, 1, (key, done) => this.syncNode(key, done), (key, err) => {
      if (this.o.isLive()) this.o.log(`error syncing '${key}': ${err}, requeuing`);
    });
    this.statusLoop = this.o.clock.every(NODE_STATUS_UPDATE_FREQUENCY_MS, () => this.updateNodeStatus());
  }

  stop(): void {
    this.runner?.stop();
    this.statusLoop?.cancel();
    this.queue.shutDown();
  }

  private syncNode(name: string, done: (error?: string) => void): void {
    if (!this.o.nodes.hasSynced) return done('caches not synced yet');
    const node = this.o.nodes.lister.get('', name);
    if (!node || !isUninitialized(node)) return done();
    this.o.log(`Initializing node ${name} with cloud provider`);
    this.o.cloud.instanceMetadata({ name, ...(node.spec?.providerID ? { providerID: node.spec.providerID } : {}) }, (r) => {
      if (!this.o.isLive()) return done('stopped');
      if (!r.ok) return done(`failed to get instance metadata for node ${name}: ${r.error}`);
      this.update(name, r.value, done);
    });
  }

  /** RetryOnConflict around the Update: a 409 re-reads the cache on the next attempt. */
  private update(name: string, meta: InstanceMetadata, done: (error?: string) => void): void {
    const current = this.o.nodes.lister.get('', name);
    if (!current) return done();
    const next = initializedNode(current, meta);
    this.o.client.request({ verb: 'update', group: '', resource: 'nodes', name, body: next }, (res) => {
      if (!this.o.isLive()) return done('stopped');
      if (res.code === 404) return done();
      if (res.code !== 200) return done(`updating node ${name}: ${res.code}`);
      const updated = res.body as Node;
      this.patchAddresses(updated, meta);
      this.o.log(`Successfully initialized node ${name} with cloud provider`);
      this.o.recorder.eventf(nodeReference(updated), 'Normal', 'Synced', 'Node synced successfully');
      done();
    });
  }

  private patchAddresses(node: Node, meta: InstanceMetadata): void {
    const addresses = nodeAddressesUpdate(node, meta);
    if (!addresses) return;
    this.o.client.request({
      verb: 'patch', group: '', resource: 'nodes', subresource: 'status', name: node.metadata.name ?? '',
      body: { status: { addresses } }, patchType: 'application/merge-patch+json',
    }, (res) => {
      if (res.code !== 200) this.o.log(`Error patching node with cloud ip addresses = [${res.code}]`);
    });
  }

  /** UpdateNodeStatus: initialized nodes get the cloud's current addresses. */
  private updateNodeStatus(): void {
    for (const node of this.o.nodes.lister.list((n) => !isUninitialized(n))) {
      const name = node.metadata.name ?? '';
      this.o.cloud.instanceMetadata({ name, ...(node.spec?.providerID ? { providerID: node.spec.providerID } : {}) }, (r) => {
        if (!this.o.isLive() || !r.ok) return;
        const latest = this.o.nodes.lister.get('', name);
        if (latest) this.patchAddresses(latest, r.value);
      });
    }
  }
}
