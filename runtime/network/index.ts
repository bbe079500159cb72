/**
 * runtime/network: the node network. CNI-style pod IPs from each node's podCIDR (PodCidrIpam,
 * ClusterNetwork.attachNode), the arithmetic of Service cluster IPs and node ports (ServiceIpRange,
 * NodePortBitmap: the API server's allocators keep their state in etcd, runtime/cluster), kube-proxy
 * in iptables mode (kubeProxyProgram: a ContainerProgram that runs while the node's kube-proxy
 * container does; startKubeProxy: a bare process; Services + EndpointSlices -> KUBE-SERVICES /
 * KUBE-NODEPORTS / KUBE-EXT-* / KUBE-SVC-* / KUBE-SVL-* / KUBE-SEP-* rules per node), and
 * ClusterNetwork.sendRequest(fromNode, "ip:port") / sendPodRequest(fromPodIP, "ip:port") / sendExternalRequest("ip:port"): which pod
 * answered, through which node, rules and pod-network route. kindnet (kindnetProgram) writes each
 * node's CNI config and programs its routes to the other nodes' podCIDRs (routes.ts); a packet for
 * another node's pod without such a route is lost.
 */
export { PodCidrIpam, ServiceIpRange, ipToNumber, numberToIp } from './ipam.ts';
export {
  DEFAULT_NODE_PORT_RANGE, ERR_ALLOCATED, ERR_FULL, NodePortBitmap, notInRange, rangeOffset, rangeText, type AllocateResult, type PortRange,
} from './node-ports.ts';
export { ClusterNetwork, EXTERNAL_CLIENT_IP, type DnsLookup, type LookupResult, type NodeCni, type PodHttpResult, type PodNetwork, type PodRef, type PodSockets, type RequestResult, type RouteHop } from './data-plane.ts';
export { CLUSTER_DOMAIN, COREDNS_IMAGE_REPO, answerFromCache, corednsProgram, type CoreDnsOptions, type DnsAnswer, type DnsServer } from './coredns.ts';
export { RouteTables, routeLine, type PodRoute, type RouteChange } from './routes.ts';
export { inCidr, walkPacket, type Packet, type Trail, type Verdict } from './packet-walk.ts';
export {
  buildNatRules,
  endpointChainName,
  externalChainName,
  localChainName,
  type NatRuleOptions,
  probabilityText,
  renderRule,
  servicePortChainName,
  servicePorts,
  type IptablesRule,
  type ServicePortEndpoints,
} from './iptables.ts';
export { KUBE_PROXY_IMAGE_REPO, kubeProxyProgram, startKubeProxy, type KubeProxyOptions } from './kube-proxy.ts';
export { ContainerProgram, imageRepoOf, type ContainerProgramOptions, type ContainerRuntimeView } from './container-program.ts';
export { CNI_CONFIG_DIR, CniConfigDirs, KINDNET_CONFIG_FILE, KINDNET_IMAGE_REPO, kindnetConfList, kindnetProgram, type KindnetOptions } from './kindnet.ts';
