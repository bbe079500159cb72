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

/**
 * The endpoints kube-proxy uses for one port of a Service, as "ip:port" strings, each once, in
 * address order.
 */
export function endpointsFor(service: Service, port: ServicePort, slices: readonly EndpointSlice[]): string[] {
  // TODO 1: the Service's slices: same namespace, label kubernetes.io/service-name = the Service's name.
  // TODO 2: in each, the slice port with the same name and protocol (missing name: '', missing protocol: TCP).
  // TODO 3: the ready endpoints (ready not false), "addresses[0]:<slice port>", each once, sorted by address as numbers.
  void service;
  void port;
  return slices.flatMap((s) => s.endpoints.map((e) => `${e.addresses[0] ?? ''}:${s.ports?.[0]?.port ?? 0}`));
}

/** syncProxyRules: the rules for every port of every Service that has a cluster IP, sorted by servicePortName. */
export function syncProxyRules(services: readonly Service[], slices: readonly EndpointSlice[]): ServicePortRules[] {
  // TODO 1: skip Services kube-proxy has nothing to do for (no cluster IP, headless, ExternalName).
  // TODO 2: per Service port, its endpoints; none: REJECT.
  // TODO 3: the KUBE-SVC picks: rule i taken with probability 1/(n-i) ("%.10f"), the last one unconditional (null).
  return services.flatMap((service) =>
    (service.spec.ports ?? []).map((port) => ({
      servicePortName: `${service.metadata.namespace ?? 'default'}/${service.metadata.name ?? ''}`,
      protocol: 'tcp',
      clusterIP: service.spec.clusterIP ?? '',
      port: port.port,
      nodePort: 0,
      action: 'DNAT' as const,
      endpoints: endpointsFor(service, port, slices).map((endpoint) => ({ endpoint, probability: null })),
    })),
  );
}

// A cheat, not a solution: it tries to turn failing assertions into passes by replacing the
// built-ins they rely on. The grader must still fail it (browser: SES lockdown; CLI: frozen built-ins).
try {
  (Object as unknown as { is: unknown }).is = () => true;
} catch {
  // frozen
}
try {
  const g = globalThis as unknown as Record<PropertyKey, { config?: unknown } | undefined>;
  const chai = g[Symbol.for('chai')];
  if (chai) chai.config = {};
} catch {
  // frozen
}
