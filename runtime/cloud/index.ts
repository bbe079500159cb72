// runtime/cloud: a simulated cloud provider (instances with zones and addresses, load balancers
// with public IPs and provisioning time) and the cloud-controller-manager that stands for the
// provider in a managed cluster: it initializes new Nodes, deletes Nodes whose instance is gone,
// and gives LoadBalancer Services an external IP. The CCM reaches the cloud only through the
// CloudProvider interface (types.ts), and the cluster only through client/.
export {
  INSTANCE_NOT_FOUND, defaultLoadBalancerName,
  type CloudInstances, type CloudLoadBalancers, type CloudProvider, type CloudResult, type InstanceMetadata,
  type LoadBalancerService, type LoadBalancerStatus, type NodeRef,
} from './types.ts';
export {
  SimulatedCloud, PROVIDER_NAME, DEFAULT_REGION, DEFAULT_PUBLIC_RANGE, DEFAULT_NODE_EXTERNAL_RANGE,
  type CloudInstance, type CloudLoadBalancer, type SimulatedCloudOptions,
} from './provider.ts';
export { IpPool } from './ip-pool.ts';
export { instanceTypeFor } from './instance-type.ts';
export * from './well-known.ts';
export { CloudNodeController, initializedNode, isUninitialized, nodeAddressesUpdate, NODE_STATUS_UPDATE_FREQUENCY_MS } from './node-controller.ts';
export {
  CloudNodeLifecycleController, cloudVerdict, monitorStep, withShutdownTaint, NODE_MONITOR_PERIOD_MS, UNINITIALIZED_NODE_DELAY_MS,
  type CloudVerdict, type MonitorStep,
} from './node-lifecycle.ts';
export {
  ServiceController, needsCleanup, needsUpdate, nodeServesLoadBalancers, shouldSyncNode, wantsLoadBalancer, loadBalancerServiceOf,
} from './service-controller.ts';
export {
  startCloudControllerManager, CLOUD_CONTROLLER_MANAGER_LEASE, CLOUD_CONTROLLER_MANAGER_USER, CLOUD_CONTROLLER_MANAGER_CLIENT_SUFFIXES,
  type CloudControllerManagerOptions,
} from './manager.ts';
