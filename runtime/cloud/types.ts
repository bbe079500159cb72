// The narrow interface a cloud-controller-manager holds to its cloud: in real life the provider's
// HTTP API behind k8s.io/cloud-provider's cloud.go (InstancesV2, LoadBalancer). Every call answers
// through a callback after some simulated latency, as a remote API would; failures are values
// (CloudResult), never exceptions. The CCM never reaches the cloud through the API server.
import type { NodeAddress } from '../api/index.ts';

export type CloudResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** What cloudprovider.InstanceNotFound prints. */
export const INSTANCE_NOT_FOUND = 'instance not found';

/** cloudprovider.InstanceMetadata: what the node controller copies onto a new Node. */
export interface InstanceMetadata {
  /** sim://<zone>/<instance name> (a GCE providerID is gce://<project>/<zone>/<name>). */
  providerID: string;
  instanceType: string;
  nodeAddresses: NodeAddress[];
  zone: string;
  region: string;
}

/** The part of a Node the instance calls look at (InstancesV2 takes the whole *v1.Node). */
export interface NodeRef {
  name: string;
  providerID?: string;
}

/** cloudprovider.InstancesV2, keyed by the Node. */
export interface CloudInstances {
  /** False once the instance is deleted (terminated) in the cloud. */
  instanceExists(node: NodeRef, done: (r: CloudResult<boolean>) => void): void;
  /** True while the instance exists but is powered off. */
  instanceShutdown(node: NodeRef, done: (r: CloudResult<boolean>) => void): void;
  /** Fails with INSTANCE_NOT_FOUND for an instance the cloud does not know. */
  instanceMetadata(node: NodeRef, done: (r: CloudResult<InstanceMetadata>) => void): void;
}

/** The part of a Service a load balancer is built from. */
export interface LoadBalancerService {
  namespace: string;
  name: string;
  uid: string;
  ports: { name?: string; protocol: string; port: number; nodePort?: number }[];
}

/** v1.LoadBalancerStatus as the cloud reports it. */
export interface LoadBalancerStatus {
  ingress: { ip: string }[];
}

/** cloudprovider.LoadBalancer. */
export interface CloudLoadBalancers {
  /** The load balancer's status, or undefined when none exists for the Service. */
  getLoadBalancer(clusterName: string, service: LoadBalancerService, done: (r: CloudResult<LoadBalancerStatus | undefined>) => void): void;
  /** Creates the load balancer (taking its provisioning time) or updates it; answers with its address. */
  ensureLoadBalancer(clusterName: string, service: LoadBalancerService, nodes: string[], done: (r: CloudResult<LoadBalancerStatus>) => void): void;
  /** Points an existing load balancer at a new set of nodes. */
  updateLoadBalancer(clusterName: string, service: LoadBalancerService, nodes: string[], done: (r: CloudResult<void>) => void): void;
  /** Deletes the load balancer if it exists (idempotent), releasing its address. */
  ensureLoadBalancerDeleted(clusterName: string, service: LoadBalancerService, done: (r: CloudResult<void>) => void): void;
}

/** cloudprovider.Interface, the parts this cloud implements. */
export interface CloudProvider {
  readonly providerName: string;
  readonly instances: CloudInstances;
  readonly loadBalancer: CloudLoadBalancers;
}

/**
 * cloudprovider.DefaultLoadBalancerName: "a" + the Service's UID without dashes, cut to 32
 * characters (the longest name some clouds accept).
 */
export function defaultLoadBalancerName(service: { uid: string }): string {
  return `a${service.uid.replaceAll('-', '')}`.slice(0, 32);
}
