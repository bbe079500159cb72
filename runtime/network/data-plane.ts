// The simulated network data plane shared by all machines: each node's CNI (pod IPs from its
// podCIDR, a table from pod IP to pod), each node's IP, and each node's rules as its kube-proxy
// programmed them, and each node's routes to the other nodes' podCIDRs as its kindnet programmed
// them (routes.ts). It is the Linux kernel and the wires, not a component: kubelets, kube-proxies
// and kindnets program it, and `sendRequest` / `sendExternalRequest` walk a packet through the
// rules of the node that handles it (packet-walk.ts), then along that node's route to the pod
// that answers.
import { CLUSTER_DOMAIN, NOT_RUNNING, type DnsServer } from './coredns.ts';
import { PodCidrIpam } from './ipam.ts';
import { renderRule, type IptablesRule } from './iptables.ts';
import { inCidr, walkPacket, type Packet, type Trail } from './packet-walk.ts';
import { NODE_INTERFACE, RouteTables, routeLine, type PodRoute, type RouteChange } from './routes.ts';

export interface PodRef {
  namespace: string;
  name: string;
  uid: string;
  node: string;
}

/** What a node's kubelet uses: the CNI ADD and DEL operations, and the pods' network namespaces. */
export interface NodeCni {
  readonly nodeName: string;
  readonly podCIDR: string;
  /** CNI ADD: an IP for the pod's sandbox; undefined when the range is exhausted. */
  setUpPod(pod: Omit<PodRef, 'node'>): string | undefined;
  /** CNI DEL: the IP goes back to the pool. */
  tearDownPod(ip: string): void;
  /** The network namespace of the pod with this IP: what a process in it (an exec'd command) can reach. */
  podNetwork(podIP: string): PodNetwork;
}

/** Connections and lookups from inside one pod. */
export interface PodNetwork {
  readonly nameserver: string;
  httpGet(host: string, port: number): PodHttpResult;
  lookup(name: string): { ok: true; name: string; addresses: string[] } | { ok: false; timedOut: boolean };
}

/** An HTTP GET / from a pod: the answering server's body and the address connected to, or why it failed. */
export type PodHttpResult =
  | { ok: true; body: string; address: string; pod: PodRef }
  | { ok: false; failure: 'resolve' | 'refused' | 'timeout' | 'unreachable'; address?: string };

/**
 * What listens in a node's pods: the body a pod answers to GET / on a port, or undefined when
 * nothing listens there (its kernel refuses the connection). The node's container runtime knows.
 */
export type PodSockets = (pod: PodRef, port: number) => string | undefined;

/** The pod-network route a packet took from one node to another node's pod. */
export interface RouteHop {
  /** The node that forwarded the packet. */
  node: string;
  /** The route it matched, as `ip route` prints it (10.244.9.0/24 via 192.168.49.11 dev eth0). */
  route: string;
}

/** How a pod's resolver found a name: each query it sent (search list order) and the CoreDNS pod that answered. */
export interface DnsLookup {
  name: string;
  addresses: string[];
  /** The CNAME the name led to (an ExternalName Service). */
  cname?: string;
  queries: { name: string; rcode: string; cname?: string }[];
  /** The CoreDNS pod the last query reached through the kube-dns Service. */
  server?: PodRef & { podIP: string };
}

export type LookupResult = ({ ok: true } & DnsLookup) | { ok: false; error: string; queries: { name: string; rcode: string; cname?: string }[] };

export type RequestResult =
  | {
    ok: true; pod: PodRef; podIP: string; targetPort: number; chains: string[]; rules: string[];
    /** The node whose rules handled the packet (undefined when it went straight to a pod IP). */
    node?: string;
    /** The source address the pod sees: the client's, or a node's after masquerading (SNAT). */
    clientIP: string;
    /** The route to the pod's node, when the pod runs on another node than the one forwarding the packet. */
    route?: RouteHop;
    /** How the target's name was resolved, when it was a name. */
    dns?: DnsLookup;
  }
  | {
    ok: false; error: string; chains: string[]; rules: string[]; node?: string;
    /** Why the packet got no further, when the error text alone does not say (a missing pod route). */
    reason?: string;
  };

/** The machines' network gateway (kind's docker network: the first address of 192.168.49.0/24). */
const MACHINE_GATEWAY = '192.168.49.1';

/** The address an outside client (sendExternalRequest) connects from: TEST-NET-2, RFC 5737. */
export const EXTERNAL_CLIENT_IP = '198.51.100.7';

export class ClusterNetwork {
  private readonly pods = new Map<string, PodRef>();
  private readonly nat = new Map<string, IptablesRule[]>();
  private readonly cnis = new Map<string, NodeCni>();
  /** node IP -> node name, and back. */
  private readonly nodeByIP = new Map<string, string>();
  private readonly ipOfNode = new Map<string, string>();
  private readonly routes = new RouteTables();
  private readonly gatewayRoutesPods: boolean;
  /** Each node's CoreDNS, registered by the program in its CoreDNS container. */
  private readonly dnsServers = new Map<string, DnsServer>();
  /** The kube-dns Service's cluster IP: the kubelet's --cluster-dns, every ClusterFirst pod's nameserver. */
  readonly clusterDNS: string;

  /**
   * options.gatewayRoutesPodCIDRs: the machines' gateway routes every node's podCIDR to that node
   * (as a cloud VPC's route table does), so a node without its own route still reaches other
   * nodes' pods through its default route; without it (kind) only the nodes' own routes do.
   */
  constructor(private readonly rng: { nextFloat(): number }, options: { gatewayRoutesPodCIDRs?: boolean; clusterDNS?: string } = {}) {
    this.gatewayRoutesPods = options.gatewayRoutesPodCIDRs ?? false;
    this.clusterDNS = options.clusterDNS ?? '10.96.0.10';
  }

  /** Each node's sockets (what its pods' processes listen on), set by whoever runs the node's containers. */
  private readonly sockets = new Map<string, PodSockets>();

  setSockets(nodeName: string, sockets: PodSockets): void {
    this.sockets.set(nodeName, sockets);
  }

  /**
   * A process in the pod at fromPodIP connects to host:port and sends GET /: the name through the
   * pod's resolver, the connection through the rules and routes (sendPodRequest), then whatever
   * listens on the answering pod's port.
   */
  httpGetFromPod(fromPodIP: string, host: string, port: number): PodHttpResult {
    let ip = host;
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(host)) {
      const found = this.lookup(fromPodIP, host);
      if (!found.ok) return { ok: false, failure: 'resolve' };
      ip = found.addresses[0]!;
    }
    const address = `${ip}:${port}`;
    const r = this.sendPodRequest(fromPodIP, address);
    if (!r.ok) {
      const failure = r.error.endsWith('connection refused') ? 'refused' : r.error.endsWith('i/o timeout') ? 'timeout' : 'unreachable';
      return { ok: false, failure, address };
    }
    const body = this.sockets.get(r.pod.node)?.(r.pod, r.targetPort);
    return body === undefined ? { ok: false, failure: 'refused', address } : { ok: true, body, address, pod: r.pod };
  }

  /** A CoreDNS process on nodeName started (each incarnation registers; a dead one answers nothing). */
  setDnsServer(nodeName: string, server: DnsServer): void {
    this.dnsServers.set(nodeName, server);
  }

  /**
   * The pod's resolver (resolv.conf: nameserver <clusterDNS>, search <ns>.svc.cluster.local
   * svc.cluster.local cluster.local, options ndots:5): a name with fewer than 5 dots is tried with
   * each search domain first, then as given. Each query is a UDP packet to the kube-dns Service
   * through the pod's node's rules to a CoreDNS pod, whose program answers from its informers.
   */
  lookup(fromPodIP: string, name: string): LookupResult {
    const from = this.pods.get(fromPodIP);
    const queries: { name: string; rcode: string; cname?: string }[] = [];
    const where = `lookup ${name} on ${this.clusterDNS}:53`;
    if (!from) return { ok: false, error: `${where}: no pod has the address ${fromPodIP}`, queries };
    const search = [`${from.namespace}.svc.${CLUSTER_DOMAIN}`, `svc.${CLUSTER_DOMAIN}`, CLUSTER_DOMAIN];
    const absolute = name.endsWith('.');
    const dots = name.split('.').length - 1;
    const candidates = absolute ? [name.slice(0, -1)] : dots >= 5 ? [name, ...search.map((d) => `${name}.${d}`)] : [...search.map((d) => `${name}.${d}`), name];
    for (const candidate of candidates) {
      const packet: Packet = { sourceIP: fromPodIP, destIP: this.clusterDNS, dport: 53, protocol: 'udp', srcLocal: false, dstLocal: false };
      const reached = this.deliver(from.node, packet, `${this.clusterDNS}:53`);
      // no endpoint: kube-proxy's REJECT answers with ICMP port unreachable; anything else is silence
      if (!reached.ok) {
        const why = reached.error.endsWith('connection refused') ? 'read: connection refused' : 'i/o timeout';
        return { ok: false, error: `${where}: read udp ${fromPodIP}->${this.clusterDNS}:53: ${why}`, queries };
      }
      const server = { ...reached.pod, podIP: reached.podIP };
      const answer = this.dnsServers.get(reached.pod.node)?.answer(candidate) ?? { rcode: 'SERVFAIL' as const, why: NOT_RUNNING };
      if (answer.rcode === 'SERVFAIL' && answer.why === NOT_RUNNING) {
        return { ok: false, error: `${where}: read udp ${fromPodIP}->${this.clusterDNS}:53: i/o timeout`, queries };
      }
      const cname = answer.rcode !== 'SERVFAIL' ? answer.cname : undefined;
      queries.push({ name: candidate, rcode: answer.rcode, ...(cname ? { cname } : {}) });
      if (answer.rcode === 'NOERROR' && answer.addresses.length > 0) {
        return { ok: true, name: candidate, addresses: answer.addresses, queries, server, ...(cname ? { cname } : {}) };
      }
      if (answer.rcode === 'SERVFAIL') return { ok: false, error: `${where}: server misbehaving`, queries };
      // NXDOMAIN, or an answer without addresses (a CNAME out of the cluster): the next name
    }
    return { ok: false, error: `${where}: no such host`, queries };
  }

  /** The CNI plugin of a node (one per node; asking twice gives the same one); nodeIP is its InternalIP. */
  attachNode(nodeName: string, podCIDR: string, nodeIP?: string): NodeCni {
    if (nodeIP) {
      this.nodeByIP.set(nodeIP, nodeName);
      this.ipOfNode.set(nodeName, nodeIP);
    }
    const existing = this.cnis.get(nodeName);
    if (existing) return existing;
    const ipam = new PodCidrIpam(podCIDR);
    const cni: NodeCni = {
      nodeName, podCIDR,
      setUpPod: (pod) => {
        const ip = ipam.allocate();
        if (ip) this.pods.set(ip, { ...pod, node: nodeName });
        return ip;
      },
      tearDownPod: (ip) => {
        ipam.release(ip);
        this.pods.delete(ip);
      },
      podNetwork: (podIP) => ({
        nameserver: this.clusterDNS,
        httpGet: (host, port) => this.httpGetFromPod(podIP, host, port),
        lookup: (name) => {
          const found = this.lookup(podIP, name);
          if (found.ok) return { ok: true, name: found.name, addresses: found.addresses };
          return { ok: false, timedOut: !found.error.endsWith('no such host') };
        },
      }),
    };
    this.cnis.set(nodeName, cni);
    return cni;
  }

  /** kube-proxy's iptables-restore: replaces the node's rules (filter and nat). */
  programRules(nodeName: string, rules: IptablesRule[]): void {
    this.nat.set(nodeName, rules);
  }

  /** The machine rebooted: iptables lives in the kernel, so its rules are gone until kube-proxy syncs again. */
  flushRules(nodeName: string): void {
    this.nat.delete(nodeName);
  }

  rulesOf(nodeName: string): IptablesRule[] {
    return this.nat.get(nodeName) ?? [];
  }

  nodeIP(nodeName: string): string | undefined {
    return this.ipOfNode.get(nodeName);
  }

  /** kindnetd's syncRoute on a node: the route to another node's podCIDR through its InternalIP. */
  ensureRoute(nodeName: string, route: PodRoute): RouteChange {
    return this.routes.ensure(nodeName, route);
  }

  /** The node's routes to other nodes' podCIDRs. */
  routesOf(nodeName: string): PodRoute[] {
    return this.routes.routesOf(nodeName);
  }

  /** The machine rebooted: its routing table is gone until kindnet programs it again. */
  flushRoutes(nodeName: string): void {
    this.routes.flush(nodeName);
  }

  /** `ip route` on a node: the default route, then the pod-network routes. */
  ipRoute(nodeName: string): string {
    return [`default via ${MACHINE_GATEWAY} dev ${NODE_INTERFACE}`, ...this.routes.routesOf(nodeName).map(routeLine)].join('\n');
  }

  /** `iptables-save` on a node (the KUBE-* part): the filter table, then nat. */
  iptablesSave(nodeName: string): string {
    const rules = this.rulesOf(nodeName);
    const table = (name: string, rs: IptablesRule[], always: string[]): string[] => {
      const chains = [...new Set([...always, ...rs.map((r) => r.chain)])];
      return [`*${name}`, ...chains.map((c) => `:${c} - [0:0]`), ...rs.map(renderRule), 'COMMIT'];
    };
    return [
      ...table('filter', rules.filter((r) => r.table === 'filter'), ['KUBE-EXTERNAL-SERVICES', 'KUBE-SERVICES']),
      ...table('nat', rules.filter((r) => r.table === undefined), ['KUBE-NODEPORTS', 'KUBE-SERVICES']),
    ].join('\n');
  }

  podAt(ip: string): PodRef | undefined {
    return this.pods.get(ip);
  }

  /**
   * Sends a TCP connection from a process on fromNode to "ip:port". A cluster IP or load balancer
   * IP goes through fromNode's rules (a random endpoint, as `-m statistic` picks it); another
   * node's IP goes to that node, whose KUBE-NODEPORTS rules catch a node port; a pod IP goes
   * straight to the pod.
   */
  sendRequest(fromNode: string, target: string): RequestResult {
    const { ip, port } = parseTarget(target);
    const sourceIP = this.ipOfNode.get(fromNode) ?? '';
    const owner = this.nodeByIP.get(ip);
    const node = owner ?? fromNode;
    // a node process's packet leaves through OUTPUT on its own node; one for another node's IP
    // matches nothing there (no rule captures a remote node IP) and is handled where it arrives
    const packet: Packet = { sourceIP, destIP: ip, dport: port, protocol: 'tcp', srcLocal: owner === undefined || owner === fromNode, dstLocal: owner !== undefined };
    return this.deliver(node, packet, target);
  }

  /**
   * Sends a TCP connection from the pod whose address is fromPodIP to "ip:port": the packet leaves
   * the pod's veth into its node (PREROUTING: the node's rules see a source that is not LOCAL),
   * and the answer must find its way back to the pod's address, along the answering node's route
   * when the pod sees the caller's own address (pod-to-pod traffic is not masqueraded).
   */
  sendPodRequest(fromPodIP: string, target: string): RequestResult {
    const from = this.pods.get(fromPodIP);
    if (!from) return { ok: false, error: `dial tcp ${target}: no pod has the address ${fromPodIP}`, chains: [], rules: [] };
    const { ip: host, port } = parseTarget(target);
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(host)) {
      // a name: the pod's resolver first (Go's net.Dial: "dial tcp: lookup web on 10.96.0.10:53: no such host")
      const found = this.lookup(fromPodIP, host);
      if (!found.ok) return { ok: false, error: `dial tcp: ${found.error}`, chains: [], rules: [] };
      const { ok: _ok, ...dns } = found;
      const result = this.sendPodRequest(fromPodIP, `${found.addresses[0]!}:${port}`);
      return result.ok ? { ...result, dns } : result;
    }
    const ip = host;
    const owner = this.nodeByIP.get(ip);
    const packet: Packet = { sourceIP: fromPodIP, destIP: ip, dport: port, protocol: 'tcp', srcLocal: false, dstLocal: owner !== undefined };
    return this.deliver(owner ?? from.node, packet, target);
  }

  /**
   * Sends a TCP connection from a client outside the cluster (EXTERNAL_CLIENT_IP) to "ip:port":
   * a node's IP reaches that node; a load balancer IP reaches a node the load balancer picks
   * (viaNode, else a random node whose health check passes: with externalTrafficPolicy Local only
   * nodes with a local endpoint pass, as the healthCheckNodePort answers).
   */
  sendExternalRequest(target: string, options: { viaNode?: string } = {}): RequestResult {
    const { ip, port } = parseTarget(target);
    const packet: Packet = { sourceIP: EXTERNAL_CLIENT_IP, destIP: ip, dport: port, protocol: 'tcp', srcLocal: false, dstLocal: false };
    const owner = this.nodeByIP.get(ip);
    if (owner) return this.deliver(owner, { ...packet, dstLocal: true }, target);
    const node = options.viaNode ?? this.loadBalancerBackend(ip, port);
    if (!node) return { ok: false, error: `dial tcp ${target}: connect: no route to host`, chains: [], rules: [] };
    return this.deliver(node, packet, target);
  }

  /** The nodes a load balancer for ip:port would send to, as its health checks see them; one at random. */
  private loadBalancerBackend(ip: string, port: number): string | undefined {
    const nodes = [...this.cnis.keys()].sort();
    const serving = nodes.filter((n) => this.rulesOf(n).some((r) => r.chain === 'KUBE-SERVICES' && r.destination === `${ip}/32` && r.dport === port));
    if (serving.length === 0) return undefined;
    const healthy = serving.filter((n) => healthCheckPasses(this.rulesOf(n), ip, port));
    // with no healthy backend, cloud load balancers spread over all of them (fail open)
    const pool = healthy.length > 0 ? healthy : serving;
    return pool[Math.floor(this.rng.nextFloat() * pool.length)];
  }

  private deliver(node: string, packet: Packet, target: string): RequestResult {
    const walk = walkPacket(this.rulesOf(node), packet, this.rng);
    const seen = { chains: walk.trail.chains, rules: walk.trail.rules, node };
    switch (walk.verdict.kind) {
      case 'reject':
        return { ok: false, error: `dial tcp ${target}: connect: connection refused`, ...seen };
      case 'drop':
        return { ok: false, error: `dial tcp ${target}: i/o timeout`, ...seen };
      case 'dnat': {
        const { ip, port } = parseTarget(walk.verdict.to);
        const clientIP = walk.trail.masquerade ? (this.ipOfNode.get(node) ?? packet.sourceIP) : packet.sourceIP;
        return this.direct({ ip, port, target }, walk.trail, node, node, clientIP);
      }
      case 'accept':
        if (packet.dstLocal) return { ok: false, error: `dial tcp ${target}: connect: connection refused`, ...seen };
        return this.direct({ ip: packet.destIP, port: packet.dport, target }, { chains: [], rules: [], masquerade: false }, undefined, node, packet.sourceIP);
    }
  }

  /**
   * The packet leaves `forwarder` for ip:port: along its route to the pod's node when the address is
   * another node's pod, then to the pod. `node` is the node reported as having handled it.
   */
  private direct(
    to: { ip: string; port: number; target: string }, trail: Trail, node: string | undefined, forwarder: string, clientIP: string,
  ): RequestResult {
    const seen = { chains: trail.chains, rules: trail.rules, ...(node ? { node } : {}) };
    const hop = this.podRoute(forwarder, to.ip);
    if (hop.kind === 'lost') return { ok: false, error: `dial tcp ${to.target}: i/o timeout`, reason: hop.reason, ...seen };
    const pod = this.pods.get(to.ip);
    if (!pod) return { ok: false, error: `dial tcp ${to.ip}:${to.port}: connect: no route to host`, ...seen };
    const back = this.podRoute(pod.node, clientIP);
    if (back.kind === 'lost') return { ok: false, error: `dial tcp ${to.target}: i/o timeout`, reason: `the answer from ${to.ip} is lost: ${back.reason}`, ...seen };
    return { ok: true, pod, podIP: to.ip, targetPort: to.port, clientIP, ...seen, ...(hop.kind === 'routed' ? { route: hop.route } : {}) };
  }

  /**
   * How a packet for ip leaves node: straight to a local pod's veth (the ptp plugin's host route),
   * along the node's route to the podCIDR of the node that holds ip, or, with no such route, out
   * of the default route to the machines' gateway, which drops it unless it routes podCIDRs itself.
   * Addresses outside every node's podCIDR are not the pod network's business.
   */
  private podRoute(nodeName: string, ip: string): { kind: 'local' | 'off-pod-network' } | { kind: 'routed'; route: RouteHop } | { kind: 'lost'; reason: string } {
    const owner = [...this.cnis.values()].find((c) => inCidr(ip, c.podCIDR));
    if (!owner) return { kind: 'off-pod-network' };
    if (owner.nodeName === nodeName) return { kind: 'local' };
    const route = this.routes.lookup(nodeName, ip);
    if (!route && this.gatewayRoutesPods) return { kind: 'routed', route: { node: nodeName, route: `default via ${MACHINE_GATEWAY} dev ${NODE_INTERFACE}` } };
    if (!route) {
      return {
        kind: 'lost',
        reason: `${nodeName} has no route to ${owner.podCIDR} (${owner.nodeName}'s podCIDR): kindnet adds it while it runs on ${nodeName}; `
          + `the packet left by the default route via ${MACHINE_GATEWAY} and was dropped`,
      };
    }
    const gateway = this.nodeByIP.get(route.via);
    if (gateway !== owner.nodeName) {
      return { kind: 'lost', reason: `${nodeName} routes ${route.dst} via ${route.via} (${gateway ?? 'no node'}), but ${ip} is on ${owner.nodeName}` };
    }
    return { kind: 'routed', route: { node: nodeName, route: routeLine(route) } };
  }
}

function parseTarget(target: string): { ip: string; port: number } {
  const [ip = '', portText = ''] = target.split(':');
  return { ip, port: Number(portText) };
}

/**
 * What a load balancer's health check would see on a node: for a Local service, the
 * healthCheckNodePort answers 200 only where an endpoint runs (KUBE-EXT goes on to KUBE-SVL);
 * for a Cluster service every node with the rule serves.
 */
function healthCheckPasses(rules: readonly IptablesRule[], ip: string, port: number): boolean {
  const entry = rules.find((r) => r.chain === 'KUBE-SERVICES' && r.destination === `${ip}/32` && r.dport === port);
  if (!entry) return false;
  return rules.some((r) => r.chain === entry.jump && r.source === undefined && r.srcType === undefined && r.jump !== 'KUBE-MARK-MASQ');
}
