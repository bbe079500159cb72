// kube-proxy's iptables mode, as pure functions: Services and EndpointSlices in, nat-table rules
// out. mirrors pkg/proxy/iptables/proxier.go syncProxyRules: KUBE-SERVICES matches a cluster IP and
// port and jumps to KUBE-SVC-<hash>; that chain picks one endpoint with `-m statistic --mode random
// --probability 1/(n-i)` rules (the last one unconditional) and jumps to KUBE-SEP-<hash>, which
// DNATs to the pod. Chain names are the first 16 base32 characters of sha256(servicePortName +
// protocol [+ endpoint]) exactly as portProtoHash and servicePortEndpointChainName compute them.
import type { EndpointSlice, Service } from '../api/index.ts';
import { base32, sha256 } from './sha256.ts';

export interface IptablesRule {
  chain: string;
  comment: string;
  destination?: string;
  source?: string;
  protocol?: string;
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
  endpoints: string[];
}

const hash16 = (text: string): string => base32(sha256(text)).slice(0, 16);

export function servicePortChainName(servicePortName: string, protocol: string): string {
  return `KUBE-SVC-${hash16(servicePortName + protocol)}`;
}

export function endpointChainName(servicePortName: string, protocol: string, endpoint: string): string {
  return `KUBE-SEP-${hash16(servicePortName + protocol + endpoint)}`;
}

/** Go's %0.10f of 1/n, as the proxier writes the probability. */
export function probabilityText(n: number): string {
  return (1 / n).toFixed(10);
}

/** Joins Services with their EndpointSlices: the ready endpoints behind each service port. */
export function servicePorts(services: readonly Service[], slices: readonly EndpointSlice[]): ServicePortEndpoints[] {
  const out: ServicePortEndpoints[] = [];
  for (const svc of services) {
    const ip = svc.spec?.clusterIP;
    if (!ip || ip === 'None' || svc.spec?.type === 'ExternalName') continue;
    const ns = svc.metadata.namespace ?? 'default';
    const own = slices.filter((s) => s.metadata.namespace === ns && s.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name);
    for (const port of svc.spec?.ports ?? []) {
      const protocol = (port.protocol ?? 'TCP').toLowerCase();
      const name = `${ns}/${svc.metadata.name ?? ''}${port.name ? `:${port.name}` : ''}`;
      const endpoints = new Set<string>();
      for (const slice of own) {
        const sp = (slice.ports ?? []).find((p) => (p.name ?? '') === (port.name ?? '') && (p.protocol ?? 'TCP').toLowerCase() === protocol);
        if (sp?.port === undefined) continue;
        for (const ep of slice.endpoints) {
          if (ep.conditions?.ready === false) continue;
          for (const addr of ep.addresses) endpoints.add(`${addr}:${sp.port}`);
        }
      }
      out.push({ servicePortName: name, clusterIP: ip, port: port.port, protocol, endpoints: [...endpoints].sort(compareEndpoints) });
    }
  }
  return out.sort((a, b) => (a.servicePortName < b.servicePortName ? -1 : a.servicePortName > b.servicePortName ? 1 : 0));
}

function compareEndpoints(a: string, b: string): number {
  const key = (e: string): number[] => e.split(/[.:]/).map(Number);
  const ka = key(a), kb = key(b);
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] ?? 0) - (kb[i] ?? 0);
  return 0;
}

/** The nat rules for every service port (syncProxyRules, cluster-IP traffic only). */
export function buildNatRules(ports: readonly ServicePortEndpoints[]): IptablesRule[] {
  const services: IptablesRule[] = [];
  const chains: IptablesRule[] = [];
  for (const sp of ports) {
    const svcChain = servicePortChainName(sp.servicePortName, sp.protocol);
    const match = { destination: `${sp.clusterIP}/32`, protocol: sp.protocol, dport: sp.port };
    if (sp.endpoints.length === 0) {
      // in the filter table: REJECT, so the client sees "connection refused"
      services.push({ chain: 'KUBE-SERVICES', comment: `${sp.servicePortName} has no endpoints`, ...match, jump: 'REJECT' });
      continue;
    }
    services.push({ chain: 'KUBE-SERVICES', comment: `${sp.servicePortName} cluster IP`, ...match, jump: svcChain });
    const n = sp.endpoints.length;
    sp.endpoints.forEach((ep, i) => {
      const sepChain = endpointChainName(sp.servicePortName, sp.protocol, ep);
      chains.push({
        chain: svcChain, comment: `${sp.servicePortName} -> ${ep}`, jump: sepChain,
        ...(i < n - 1 ? { probability: 1 / (n - i) } : {}),
      });
      chains.push({ chain: sepChain, comment: sp.servicePortName, source: `${ep.split(':')[0] ?? ''}/32`, jump: 'KUBE-MARK-MASQ' });
      chains.push({ chain: sepChain, comment: sp.servicePortName, protocol: sp.protocol, jump: 'DNAT', toDestination: ep });
    });
  }
  return [...services, ...chains];
}

/** One rule as `iptables-save -t nat` prints it. */
export function renderRule(r: IptablesRule): string {
  const parts = [`-A ${r.chain}`];
  if (r.source) parts.push(`-s ${r.source}`);
  if (r.destination) parts.push(`-d ${r.destination}`);
  if (r.protocol) parts.push(`-p ${r.protocol}`);
  parts.push(`-m comment --comment ${r.comment.includes(' ') ? `"${r.comment}"` : r.comment}`);
  if (r.protocol && r.dport !== undefined) parts.push(`-m ${r.protocol} --dport ${r.dport}`);
  else if (r.protocol && r.toDestination) parts.push(`-m ${r.protocol}`);
  if (r.probability !== undefined) parts.push(`-m statistic --mode random --probability ${r.probability.toFixed(10)}`);
  parts.push(`-j ${r.jump}`);
  if (r.jump === 'REJECT') parts.push('--reject-with icmp-port-unreachable');
  if (r.toDestination) parts.push(`--to-destination ${r.toDestination}`);
  return parts.join(' ');
}
