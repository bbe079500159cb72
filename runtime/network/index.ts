/**
 * runtime/network: the node network. CNI-style pod IPs from each node's podCIDR (PodCidrIpam,
 * ClusterNetwork.attachNode), Service cluster IPs (ClusterIpAllocator: our API server does not
 * allocate them, the cluster calls this), kube-proxy in iptables mode (startKubeProxy: Services +
 * EndpointSlices -> KUBE-SERVICES / KUBE-SVC-* / KUBE-SEP-* rules per node), and
 * ClusterNetwork.sendRequest(fromNode, "ip:port"): which pod answered and through which rules.
 */
export { ClusterIpAllocator, PodCidrIpam } from './ipam.ts';
export { ClusterNetwork, type NodeCni, type PodRef, type RequestResult } from './data-plane.ts';
export {
  buildNatRules,
  endpointChainName,
  probabilityText,
  renderRule,
  servicePortChainName,
  servicePorts,
  type IptablesRule,
  type ServicePortEndpoints,
} from './iptables.ts';
export { startKubeProxy, type KubeProxyOptions } from './kube-proxy.ts';
