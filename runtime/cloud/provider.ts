// A simulated cloud provider: the instances (one per worker machine) and the load balancers of one
// region, and the API a cloud-controller-manager calls (api(), the CloudProvider interface). Time
// and randomness come from the clock and RNG passed in (the kernel's), so the same seed gives the
// same zones, addresses, latencies and load balancer IPs.
//
// What a learner can do to it from outside is what a cloud console allows: deleteInstance (the
// machine is terminated: the cluster stops it, and the instance no longer exists for the CCM).
// A machine that is merely stopped (faults.stopNode) still exists and reports shut down.
import type { NodeAddress } from '../api/index.ts';
import type { Rng, TimerHandle } from '../kernel/index.ts';
import { instanceTypeFor } from './instance-type.ts';
import { IpPool } from './ip-pool.ts';
import {
  INSTANCE_NOT_FOUND, defaultLoadBalancerName,
  type CloudInstances, type CloudLoadBalancers, type CloudProvider, type CloudResult, type InstanceMetadata,
  type LoadBalancerService, type LoadBalancerStatus, type NodeRef,
} from './types.ts';

export const PROVIDER_NAME = 'sim';
export const DEFAULT_REGION = 'sim-region-1';
export const DEFAULT_PUBLIC_RANGE = '203.0.113.0/24';
/** Node external addresses come from a second documentation range (RFC 5737 TEST-NET-2). */
export const DEFAULT_NODE_EXTERNAL_RANGE = '198.51.100.0/24';

export interface SimulatedCloudOptions {
  clock: { now(): number; setTimer(delayMs: number, fn: () => void): TimerHandle };
  rng: Rng;
  region?: string;
  /** Zones of the region, used round-robin for new instances (default <region>a, b, c). */
  zones?: string[];
  /** Where load balancer addresses come from (an IPv4 /24). */
  publicRange?: string;
  /** One API call's latency: min + a uniform draw below spread (default 50 + [0, 100) ms). */
  apiLatencyMs?: { min: number; spread: number };
  /** A new load balancer's provisioning time (default 2000 + [0, 3000] ms). */
  provisioningMs?: { min: number; spread: number };
  /** Whether the machine behind an instance is powered on (false: InstanceShutdown is true). */
  isRunning?: (name: string) => boolean;
  /** Called when an instance is deleted, so the machine stops with it. */
  onInstanceDeleted?: (name: string) => void;
  /** A trace record for each cloud action (the kernel's trace). */
  record?: (kind: string, detail: string) => void;
}

export interface CloudInstance {
  readonly name: string;
  readonly providerID: string;
  readonly zone: string;
  readonly instanceType: string;
  readonly internalIP: string;
  readonly externalIP: string;
}

export interface CloudLoadBalancer {
  readonly name: string;
  /** namespace/name of the Service it serves. */
  readonly service: string;
  readonly ip: string;
  readonly nodes: readonly string[];
  readonly state: 'provisioning' | 'active';
}

interface LoadBalancerRecord {
  name: string;
  service: string;
  ip: string;
  nodes: string[];
  state: 'provisioning' | 'active';
}

export class SimulatedCloud {
  readonly region: string;
  readonly zones: readonly string[];
  private readonly instancesByName = new Map<string, CloudInstance>();
  private readonly lbs = new Map<string, LoadBalancerRecord>();
  private readonly publicIps: IpPool;
  private readonly nodeIps = new IpPool(DEFAULT_NODE_EXTERNAL_RANGE);
  private created = 0;

  constructor(private readonly o: SimulatedCloudOptions) {
    this.region = o.region ?? DEFAULT_REGION;
    this.zones = o.zones ?? ['a', 'b', 'c'].map((z) => `${this.region}${z}`);
    if (this.zones.length === 0) throw new Error('SimulatedCloud: a region has at least one zone');
    this.publicIps = new IpPool(o.publicRange ?? DEFAULT_PUBLIC_RANGE);
  }

  /** Creates the instance of a machine (a node pool's VM); zones go round-robin. */
  addInstance(machine: { name: string; cpu: string; memory: string; internalIP: string; zone?: string }): CloudInstance {
    if (this.instancesByName.has(machine.name)) throw new Error(`invariant violated: instance names are unique ("${machine.name}" exists)`);
    const zone = machine.zone ?? this.zones[this.created % this.zones.length]!;
    this.created++;
    const externalIP = this.nodeIps.allocate();
    if (!externalIP) throw new Error(`SimulatedCloud: no free external address left in ${DEFAULT_NODE_EXTERNAL_RANGE}`);
    const instance: CloudInstance = {
      name: machine.name, providerID: `${PROVIDER_NAME}://${zone}/${machine.name}`, zone,
      instanceType: instanceTypeFor(machine.cpu, machine.memory), internalIP: machine.internalIP, externalIP,
    };
    this.instancesByName.set(machine.name, instance);
    return instance;
  }

  /** Terminates an instance, as from the cloud console: it stops existing and its machine stops. */
  deleteInstance(name: string): boolean {
    const instance = this.instancesByName.get(name);
    if (!instance) return false;
    this.instancesByName.delete(name);
    this.nodeIps.release(instance.externalIP);
    this.o.record?.('cloud.instance-deleted', `${name} (${instance.providerID})`);
    this.o.onInstanceDeleted?.(name);
    return true;
  }

  instances(): CloudInstance[] {
    return [...this.instancesByName.values()];
  }

  loadBalancers(): CloudLoadBalancer[] {
    return [...this.lbs.values()].map((lb) => ({ ...lb, nodes: [...lb.nodes] }));
  }

  /** The provider API a cloud-controller-manager is given. */
  api(): CloudProvider {
    return { providerName: PROVIDER_NAME, instances: this.instanceApi(), loadBalancer: this.loadBalancerApi() };
  }

  /** Answers after one API round trip. */
  private reply<T>(done: (r: CloudResult<T>) => void, answer: () => CloudResult<T>, extraMs = 0): void {
    const { min, spread } = this.o.apiLatencyMs ?? { min: 50, spread: 100 };
    this.o.clock.setTimer(min + this.o.rng.nextInt(spread) + extraMs, () => done(answer()));
  }

  private find(node: NodeRef): CloudInstance | undefined {
    if (node.providerID) return [...this.instancesByName.values()].find((i) => i.providerID === node.providerID);
    return this.instancesByName.get(node.name);
  }

  private instanceApi(): CloudInstances {
    return {
      instanceExists: (node, done) => this.reply(done, () => ({ ok: true, value: this.find(node) !== undefined })),
      instanceShutdown: (node, done) => this.reply(done, () => {
        const i = this.find(node);
        if (!i) return { ok: false, error: INSTANCE_NOT_FOUND };
        return { ok: true, value: this.o.isRunning?.(i.name) === false };
      }),
      instanceMetadata: (node, done) => this.reply(done, () => {
        const i = this.find(node);
        return i ? { ok: true, value: metadataOf(i, this.region) } : { ok: false, error: INSTANCE_NOT_FOUND };
      }),
    };
  }

  private loadBalancerApi(): CloudLoadBalancers {
    return {
      getLoadBalancer: (_cluster, svc, done) => this.reply(done, () => {
        const lb = this.lbs.get(defaultLoadBalancerName(svc));
        return { ok: true, value: lb && lb.state === 'active' ? statusOf(lb) : undefined };
      }),
      ensureLoadBalancer: (_cluster, svc, nodes, done) => this.ensure(svc, nodes, done),
      updateLoadBalancer: (_cluster, svc, nodes, done) => this.reply(done, () => {
        const lb = this.lbs.get(defaultLoadBalancerName(svc));
        if (!lb) return { ok: false, error: `load balancer ${defaultLoadBalancerName(svc)} not found` };
        lb.nodes = [...nodes].sort();
        this.o.record?.('cloud.lb-updated', `${lb.name} ${lb.service} -> [${lb.nodes.join(',')}]`);
        return { ok: true, value: undefined };
      }),
      ensureLoadBalancerDeleted: (_cluster, svc, done) => this.reply(done, () => {
        const name = defaultLoadBalancerName(svc);
        const lb = this.lbs.get(name);
        if (lb) {
          this.lbs.delete(name);
          this.publicIps.release(lb.ip);
          this.o.record?.('cloud.lb-deleted', `${name} ${lb.service} ${lb.ip}`);
        }
        return { ok: true, value: undefined };
      }),
    };
  }

  /** A new load balancer reserves its address at once and answers when provisioning ends. */
  private ensure(svc: LoadBalancerService, nodes: string[], done: (r: CloudResult<LoadBalancerStatus>) => void): void {
    const name = defaultLoadBalancerName(svc);
    const existing = this.lbs.get(name);
    if (existing) {
      existing.nodes = [...nodes].sort();
      const wait = existing.state === 'provisioning' ? this.provisioningMs() : 0;
      return this.reply(done, () => this.answerFor(name), wait);
    }
    const ip = this.publicIps.allocate();
    if (!ip) return this.reply(done, () => ({ ok: false, error: `quota exceeded: no free address left in ${this.publicIps.cidr}` }));
    const lb: LoadBalancerRecord = { name, service: `${svc.namespace}/${svc.name}`, ip, nodes: [...nodes].sort(), state: 'provisioning' };
    this.lbs.set(name, lb);
    this.o.record?.('cloud.lb-provisioning', `${name} ${lb.service} ${ip}`);
    this.reply(done, () => {
      if (this.lbs.get(name) === lb && lb.state === 'provisioning') {
        lb.state = 'active';
        this.o.record?.('cloud.lb-active', `${name} ${lb.service} ${ip}`);
      }
      return this.answerFor(name);
    }, this.provisioningMs());
  }

  private answerFor(name: string): CloudResult<LoadBalancerStatus> {
    const lb = this.lbs.get(name);
    if (!lb) return { ok: false, error: `load balancer ${name} was deleted while it was being provisioned` };
    return lb.state === 'active' ? { ok: true, value: statusOf(lb) } : { ok: false, error: `load balancer ${name} is still being provisioned` };
  }

  private provisioningMs(): number {
    const { min, spread } = this.o.provisioningMs ?? { min: 2000, spread: 3000 };
    return min + this.o.rng.nextInt(spread + 1);
  }
}

function metadataOf(i: CloudInstance, region: string): InstanceMetadata {
  const addresses: NodeAddress[] = [
    { type: 'InternalIP', address: i.internalIP },
    { type: 'ExternalIP', address: i.externalIP },
    { type: 'Hostname', address: i.name },
  ];
  return { providerID: i.providerID, instanceType: i.instanceType, nodeAddresses: addresses, zone: i.zone, region };
}

function statusOf(lb: LoadBalancerRecord): LoadBalancerStatus {
  return { ingress: [{ ip: lb.ip }] };
}
