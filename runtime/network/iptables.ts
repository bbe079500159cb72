// kube-proxy's iptables mode, as pure functions: Services and EndpointSlices in, rules out.
// mirrors pkg/proxy/iptables/proxier.go syncProxyRules: KUBE-SERVICES matches a cluster IP and
// port and jumps to KUBE-SVC-<hash>; that chain picks one endpoint with `-m statistic --mode random
// --probability 1/(n-i)` rules (the last one unconditional) and jumps to KUBE-SEP-<hash>, which
// DNATs to the pod. Traffic from outside (a node port, a load balancer IP) goes through
// KUBE-EXT-<hash> first: with externalTrafficPolicy Cluster it is masqueraded and sent to KUBE-SVC;
// with Local it goes to KUBE-SVL-<hash>, which picks among this node's endpoints only. Node ports
// are matched in KUBE-NODEPORTS, which the last rule of KUBE-SERVICES enters for packets addressed
// to the node itself (`-m addrtype --dst-type LOCAL`). A service with no endpoints (or a Local one
// with none on this node) is refused (REJECT) or dropped in the filter table. Chain names are the
// first 16 base32 characters of sha256(servicePortName + protocol [+ endpoint]) exactly as
// portProtoHash and servicePortEndpointChainName compute them.
import type { EndpointSlice, Service } from '../api/index.ts';
import { base32, sha256 } from './sha256.ts';

export interface IptablesRule {
  /** The table the rule lives in; nat when absent. */
  table?: 'filter';
  chain: string;
  /** The `-m comment` text; "" for none. */
  comment: string;
  destination?: string;
  source?: string;
  protocol?: string;
  /** `-m addrtype --src-type LOCAL` / `--dst-type LOCAL`: the address belongs to this node. */
  srcType?: 'LOCAL';
  dstType?: 'LOCAL';
  dport?: number;
  /** The `-m statistic --mode random --probability` value, if any. */
  probability?: number;
  jump: string;
  /** DNAT --to-destination ip:port. */
  toDestination?: string;
}

export interface ServicePortEndpoints {
  /** ns/name:port, the servicePortName kube-proxy hashes. */
  servicePortName: string;
  clusterIP: string;
  port: number;
  protocol: string;
  /** Ready endpoints as ip:port, in address order. */
  endpoints: string[];
  /** The ready endpoints on the node this kube-proxy runs on. */
  localEndpoints: string[];
  /** spec.ports[].nodePort; 0 for none. */
  nodePort: number;
  /** status.loadBalancer.ingress[].ip. */
  loadBalancerIPs: string[];
  /** externalTrafficPolicy Local: traffic from outside goes only to this node's endpoints. */
  externalPolicyLocal: boolean;
}

/** Every kube-proxy sync names every chain again; the names are a pure function, so remember them. */
const chainHashes = new Map<string, string>();
function hash16(text: string): string {
  let h = chainHashes.get(text);
  if (h === undefined) {
    if (chainHashes.size >= 65_536) chainHashes.clear();
    chainHashes.set(text, (h = base32(sha256(text)).slice(0, 16)));
  }
  return h;
}

export function servicePortChainName(servicePortName: string, protocol: string): string {
  return `KUBE-SVC-${hash16(servicePortName + protocol)}`;
}

/** externalTrafficChainName: where traffic for a node port or load balancer IP goes first. */
export function externalChainName(servicePortName: string, protocol: string): string {
  return `KUBE-EXT-${hash16(servicePortName + protocol)}`;
}

/** localPolicyChainName: this node's endpoints only (externalTrafficPolicy Local). */
export function localChainName(servicePortName: string, protocol: string): string {
  return `KUBE-SVL-${hash16(servicePortName + protocol)}`;
}

export function endpointChainName(servicePortName: string, protocol: string, endpoint: string): string {
  return `KUBE-SEP-${hash16(servicePortName + protocol + endpoint)}`;
}

/** Go's %0.10f of 1/n, as the proxier writes the probability. */
export function probabilityText(n: number): string {
  return (1 / n).toFixed(10);
}

/**
 * Joins Services with their EndpointSlices: the ready endpoints behind each service port, and
 * which of them run on `nodeName` (the node whose kube-proxy asks).
 */
export function servicePorts(services: readonly Service[], slices: readonly EndpointSlice[], nodeName?: string): ServicePortEndpoints[] {
  const out: ServicePortEndpoints[] = [];
  for (const svc of services) {
    const ip = svc.spec?.clusterIP;
    if (!ip || ip === 'None' || svc.spec?.type === 'ExternalName') continue;
    const ns = svc.metadata.namespace ?? 'default';
    const own = slices.filter((s) => s.metadata.namespace === ns && s.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name);
    const external = externalOf(svc);
    for (const port of svc.spec?.ports ?? []) {
      const protocol = (port.protocol ?? 'TCP').toLowerCase();
      const name = `${ns}/${svc.metadata.name ?? ''}${port.name ? `:${port.name}` : ''}`;
      const endpoints = new Set<string>();
      const local = new Set<string>();
      for (const slice of own) {
        const sp = (slice.ports ?? []).find((p) => (p.name ?? '') === (port.name ?? '') && (p.protocol ?? 'TCP').toLowerCase() === protocol);
        if (sp?.port === undefined) continue;
        for (const ep of slice.endpoints) {
          if (ep.conditions?.ready === false) continue;
          for (const addr of ep.addresses) {
            endpoints.add(`${addr}:${sp.port}`);
            if (nodeName !== undefined && ep.nodeName === nodeName) local.add(`${addr}:${sp.port}`);
          }
        }
      }
      out.push({
        servicePortName: name, clusterIP: ip, port: port.port, protocol,
        endpoints: [...endpoints].sort(compareEndpoints), localEndpoints: [...local].sort(compareEndpoints),
        nodePort: port.nodePort ?? 0, ...external,
      });
    }
  }
  return out.sort((a, b) => (a.servicePortName < b.servicePortName ? -1 : a.servicePortName > b.servicePortName ? 1 : 0));
}

function externalOf(svc: Service): Pick<ServicePortEndpoints, 'loadBalancerIPs' | 'externalPolicyLocal'> {
  const isLoadBalancer = svc.spec?.type === 'LoadBalancer';
  const loadBalancerIPs = isLoadBalancer ? (svc.status?.loadBalancer?.ingress ?? []).flatMap((i) => (i.ip ? [i.ip] : [])) : [];
  // ExternalPolicyLocal: only Services reachable from outside have an external policy
  const externalPolicyLocal = (isLoadBalancer || svc.spec?.type === 'NodePort') && svc.spec?.externalTrafficPolicy === 'Local';
  return { loadBalancerIPs, externalPolicyLocal };
}

/**
 * "10.244.1.5:80" before "10.244.1.12:80": numbers separated by '.' or ':', compared in turn. Read
 * in place (kube-proxy sorts every Service's endpoints on every sync; splitting each string per
 * comparison allocated most of the sync).
 */
function compareEndpoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let x = 0;
    let y = 0;
    for (; i < a.length && a.charCodeAt(i) !== DOT && a.charCodeAt(i) !== COLON; i++) x = x * 10 + a.charCodeAt(i) - ZERO;
    for (; j < b.length && b.charCodeAt(j) !== DOT && b.charCodeAt(j) !== COLON; j++) y = y * 10 + b.charCodeAt(j) - ZERO;
    if (x !== y) return x - y;
    i++;
    j++;
  }
  return 0;
}

const DOT = 46;
const COLON = 58;
const ZERO = 48;

export interface NatRuleOptions {
  /** The pod network (kube-proxy's clusterCIDR): pod traffic to a Local service is not limited to local endpoints. */
  clusterCIDR?: string;
}

const NODEPORTS_JUMP: IptablesRule = {
  chain: 'KUBE-SERVICES', comment: 'kubernetes service nodeports; NOTE: this must be the last rule in this chain', dstType: 'LOCAL', jump: 'KUBE-NODEPORTS',
};

/** The rules for every service port (syncProxyRules): filter-table refusals first, then nat. */
export function buildNatRules(ports: readonly ServicePortEndpoints[], options: NatRuleOptions = {}): IptablesRule[] {
  const filter: IptablesRule[] = [];
  const services: IptablesRule[] = [];
  const nodePorts: IptablesRule[] = [];
  const chains: IptablesRule[] = [];
  for (const sp of ports) {
    if (sp.endpoints.length === 0) {
      filter.push(...refusals(sp, `${sp.servicePortName} has no endpoints`, 'REJECT', true));
      continue;
    }
    const svcChain = servicePortChainName(sp.servicePortName, sp.protocol);
    const extChain = externalChainName(sp.servicePortName, sp.protocol);
    const tcp = { protocol: sp.protocol };
    services.push({ chain: 'KUBE-SERVICES', comment: `${sp.servicePortName} cluster IP`, destination: `${sp.clusterIP}/32`, ...tcp, dport: sp.port, jump: svcChain });
    for (const ip of sp.loadBalancerIPs) {
      services.push({ chain: 'KUBE-SERVICES', comment: `${sp.servicePortName} loadbalancer IP`, destination: `${ip}/32`, ...tcp, dport: sp.port, jump: extChain });
    }
    if (sp.nodePort > 0) nodePorts.push({ chain: 'KUBE-NODEPORTS', comment: sp.servicePortName, ...tcp, dport: sp.nodePort, jump: extChain });
    if (sp.nodePort > 0 || sp.loadBalancerIPs.length > 0) {
      chains.push(...externalChain(sp, svcChain, extChain, options));
      if (sp.externalPolicyLocal && sp.localEndpoints.length === 0) {
        filter.push(...refusals(sp, `${sp.servicePortName} has no local endpoints`, 'DROP', false));
      }
    }
    chains.push(...pickEndpoint(sp, svcChain, sp.endpoints));
    if (sp.externalPolicyLocal && sp.localEndpoints.length > 0) {
      chains.push(...pickEndpoint(sp, localChainName(sp.servicePortName, sp.protocol), sp.localEndpoints).filter((r) => r.chain.startsWith('KUBE-SVL-')));
    }
  }
  return [...filter, ...services, NODEPORTS_JUMP, ...nodePorts, ...chains];
}

/** Filter-table rules that refuse a service port's traffic: its cluster IP (when asked), load balancer IPs and node port. */
function refusals(sp: ServicePortEndpoints, comment: string, jump: 'REJECT' | 'DROP', clusterIP: boolean): IptablesRule[] {
  const out: IptablesRule[] = [];
  const base = { table: 'filter' as const, comment, protocol: sp.protocol, jump };
  // the cluster IP REJECT is in the filter KUBE-SERVICES chain, the others in KUBE-EXTERNAL-SERVICES
  if (clusterIP) out.push({ ...base, chain: 'KUBE-SERVICES', destination: `${sp.clusterIP}/32`, dport: sp.port });
  for (const ip of sp.loadBalancerIPs) out.push({ ...base, chain: 'KUBE-EXTERNAL-SERVICES', destination: `${ip}/32`, dport: sp.port });
  if (sp.nodePort > 0) out.push({ ...base, chain: 'KUBE-EXTERNAL-SERVICES', dstType: 'LOCAL', dport: sp.nodePort });
  return out;
}

/** KUBE-EXT-<hash>: masquerade and go to every endpoint (Cluster), or to this node's only (Local). */
function externalChain(sp: ServicePortEndpoints, svcChain: string, extChain: string, o: NatRuleOptions): IptablesRule[] {
  const what = `${sp.servicePortName} external destinations`;
  if (!sp.externalPolicyLocal) {
    return [
      { chain: extChain, comment: `masquerade traffic for ${what}`, jump: 'KUBE-MARK-MASQ' },
      { chain: extChain, comment: '', jump: svcChain },
    ];
  }
  const out: IptablesRule[] = [];
  // pods may reach a Local service through its node port too, as if it were a cluster IP
  if (o.clusterCIDR) out.push({ chain: extChain, comment: `pod traffic for ${what}`, source: o.clusterCIDR, jump: svcChain });
  out.push(
    { chain: extChain, comment: `masquerade LOCAL traffic for ${what}`, srcType: 'LOCAL', jump: 'KUBE-MARK-MASQ' },
    { chain: extChain, comment: `route LOCAL traffic for ${what}`, srcType: 'LOCAL', jump: svcChain },
  );
  if (sp.localEndpoints.length > 0) out.push({ chain: extChain, comment: '', jump: localChainName(sp.servicePortName, sp.protocol) });
  return out;
}

/** A chain that picks one endpoint with 1/(n-i) probabilities, and each endpoint's KUBE-SEP chain. */
function pickEndpoint(sp: ServicePortEndpoints, chain: string, endpoints: readonly string[]): IptablesRule[] {
  const picks: IptablesRule[] = [];
  const seps: IptablesRule[] = [];
  const n = endpoints.length;
  endpoints.forEach((ep, i) => {
    const sepChain = endpointChainName(sp.servicePortName, sp.protocol, ep);
    picks.push({
      chain, comment: `${sp.servicePortName} -> ${ep}`, jump: sepChain,
      ...(i < n - 1 ? { probability: 1 / (n - i) } : {}),
    });
    seps.push({ chain: sepChain, comment: sp.servicePortName, source: `${ep.split(':')[0] ?? ''}/32`, jump: 'KUBE-MARK-MASQ' });
    seps.push({ chain: sepChain, comment: sp.servicePortName, protocol: sp.protocol, jump: 'DNAT', toDestination: ep });
  });
  return [...picks, ...seps];
}

/** One rule as `iptables-save -t nat` prints it. */
export function renderRule(r: IptablesRule): string {
  const parts = [`-A ${r.chain}`];
  if (r.source) parts.push(`-s ${r.source}`);
  if (r.destination) parts.push(`-d ${r.destination}`);
  if (r.protocol) parts.push(`-p ${r.protocol}`);
  if (r.comment) parts.push(`-m comment --comment ${r.comment.includes(' ') ? `"${r.comment}"` : r.comment}`);
  if (r.srcType) parts.push(`-m addrtype --src-type ${r.srcType}`);
  if (r.dstType) parts.push(`-m addrtype --dst-type ${r.dstType}`);
  if (r.protocol && r.dport !== undefined) parts.push(`-m ${r.protocol} --dport ${r.dport}`);
  else if (r.protocol && r.toDestination) parts.push(`-m ${r.protocol}`);
  if (r.probability !== undefined) parts.push(`-m statistic --mode random --probability ${r.probability.toFixed(10)}`);
  parts.push(`-j ${r.jump}`);
  if (r.jump === 'REJECT') parts.push('--reject-with icmp-port-unreachable');
  if (r.toDestination) parts.push(`--to-destination ${r.toDestination}`);
  return parts.join(' ');
}
