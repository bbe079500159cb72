// Mutant "duplicates-kept": Endpoints are not de-duplicated across slices.
// A plausible wrong solution; the hidden suite must fail it.
// The kube-proxy lab: from a Service and its EndpointSlices to the rules kube-proxy's iptables mode
// writes on every node: which endpoints are used, and how KUBE-SVC spreads connections over them.
// Read lab.mdx first. Run the visible examples with `npm run grade -- kube-proxy --examples`;
// grade with `npm run grade -- kube-proxy`.
//
// Only `import type` is allowed here: the graded file must run on its own.
import type { EndpointSlice, Service, ServicePort } from '../../../runtime/api/index.ts';

/** One rule of a KUBE-SVC chain: jump to this endpoint's KUBE-SEP chain (which DNATs to it). */
export interface EndpointPick {
  /** "ip:port": the Pod IP and the port from the EndpointSlice (the target port). */
  endpoint: string;
  /** `-m statistic --mode random --probability <this>`, as iptables prints it ("0.3333333333"); null for the last rule. */
  probability: string | null;
}

/** What kube-proxy writes for one Service port. */
export interface ServicePortRules {
  /** "namespace/name:portName", or "namespace/name" for an unnamed port. */
  servicePortName: string;
  /** "tcp", "udp" or "sctp" (lower case, as in `-p tcp`). */
  protocol: string;
  clusterIP: string;
  port: number;
  /** The node port (KUBE-NODEPORTS); 0 when the port has none. */
  nodePort: number;
  /** DNAT: KUBE-SERVICES jumps to the picks below. REJECT: "<servicePortName> has no endpoints". */
  action: 'DNAT' | 'REJECT';
  /** The KUBE-SVC chain's rules, in order; empty for REJECT. */
  endpoints: EndpointPick[];
}

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** "10.244.1.5:80" before "10.244.1.12:80": the four octets, then the port, as numbers. */
function compareEndpoints(a: string, b: string): number {
  const x = a.split(/[.:]/).map(Number);
  const y = b.split(/[.:]/).map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The endpoints kube-proxy uses for one port of a Service: from the Service's EndpointSlices (same
 * namespace, label kubernetes.io/service-name), the slice port with the same name and protocol,
 * ready endpoints only, each "ip:port" once, in address order.
 */
export function endpointsFor(service: Service, port: ServicePort, slices: readonly EndpointSlice[]): string[] {
  const namespace = service.metadata.namespace ?? 'default';
  const protocol = port.protocol ?? 'TCP';
  const found: string[] = [];
  for (const slice of slices) {
    if ((slice.metadata.namespace ?? 'default') !== namespace) continue;
    if (slice.metadata.labels?.[SERVICE_NAME_LABEL] !== service.metadata.name) continue;
    const slicePort = (slice.ports ?? []).find((p) => (p.name ?? '') === (port.name ?? '') && (p.protocol ?? 'TCP') === protocol);
    if (slicePort?.port === undefined) continue;
    for (const ep of slice.endpoints) {
      // a missing ready condition means ready (EndpointConditions: "nil should be interpreted as true")
      if (ep.conditions?.ready === false) continue;
      const ip = ep.addresses[0];
      if (ip !== undefined) found.push(`${ip}:${slicePort.port}`);
    }
  }
  return found.sort(compareEndpoints);
}

/** syncProxyRules: the rules for every port of every Service that has a cluster IP, sorted by servicePortName. */
export function syncProxyRules(services: readonly Service[], slices: readonly EndpointSlice[]): ServicePortRules[] {
  const out: ServicePortRules[] = [];
  for (const service of services) {
    const clusterIP = service.spec.clusterIP;
    // headless Services (None) and ExternalName ones are DNS only: no rules
    if (!clusterIP || clusterIP === 'None' || service.spec.type === 'ExternalName') continue;
    const namespace = service.metadata.namespace ?? 'default';
    for (const port of service.spec.ports ?? []) {
      const endpoints = endpointsFor(service, port, slices);
      const n = endpoints.length;
      out.push({
        servicePortName: `${namespace}/${service.metadata.name ?? ''}${port.name ? `:${port.name}` : ''}`,
        protocol: (port.protocol ?? 'TCP').toLowerCase(),
        clusterIP,
        port: port.port,
        nodePort: port.nodePort ?? 0,
        action: n === 0 ? 'REJECT' : 'DNAT',
        // rule i is taken with probability 1/(n-i) of what reaches it: 1/n overall each; the last always
        endpoints: endpoints.map((endpoint, i) => ({ endpoint, probability: i < n - 1 ? (1 / (n - i)).toFixed(10) : null })),
      });
    }
  }
  return out.sort((a, b) => (a.servicePortName < b.servicePortName ? -1 : a.servicePortName > b.servicePortName ? 1 : 0));
}
