// The simulated network data plane shared by all machines: each node's CNI (pod IPs from its
// podCIDR, a table from pod IP to pod) and each node's nat table as its kube-proxy programmed it.
// It is the Linux kernel and the wires, not a component: kubelets and kube-proxies program it,
// and `sendRequest` walks a packet through one node's rules to the pod that answers.
import { PodCidrIpam } from './ipam.ts';
import { renderRule, type IptablesRule } from './iptables.ts';

export interface PodRef {
  namespace: string;
  name: string;
  uid: string;
  node: string;
}

/** What a node's kubelet uses: the CNI ADD and DEL operations. */
export interface NodeCni {
  readonly nodeName: string;
  readonly podCIDR: string;
  /** CNI ADD: an IP for the pod's sandbox; undefined when the range is exhausted. */
  setUpPod(pod: Omit<PodRef, 'node'>): string | undefined;
  /** CNI DEL: the IP goes back to the pool. */
  tearDownPod(ip: string): void;
}

export type RequestResult =
  | { ok: true; pod: PodRef; podIP: string; targetPort: number; chains: string[]; rules: string[] }
  | { ok: false; error: string; chains: string[]; rules: string[] };

export class ClusterNetwork {
  private readonly pods = new Map<string, PodRef>();
  private readonly nat = new Map<string, IptablesRule[]>();
  private readonly cnis = new Map<string, NodeCni>();

  constructor(private readonly rng: { nextFloat(): number }) {}

  /** The CNI plugin of a node (one per node; asking twice gives the same one). */
  attachNode(nodeName: string, podCIDR: string): NodeCni {
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
    };
    this.cnis.set(nodeName, cni);
    return cni;
  }

  /** kube-proxy's iptables-restore: replaces the node's nat rules. */
  programRules(nodeName: string, rules: IptablesRule[]): void {
    this.nat.set(nodeName, rules);
  }

  rulesOf(nodeName: string): IptablesRule[] {
    return this.nat.get(nodeName) ?? [];
  }

  /** `iptables-save -t nat` on a node (the KUBE-* part). */
  iptablesSave(nodeName: string): string {
    const rules = this.rulesOf(nodeName);
    const chains = [...new Set(['KUBE-SERVICES', ...rules.map((r) => r.chain)])];
    return ['*nat', ...chains.map((c) => `:${c} - [0:0]`), ...rules.map(renderRule), 'COMMIT'].join('\n');
  }

  podAt(ip: string): PodRef | undefined {
    return this.pods.get(ip);
  }

  /**
   * Sends a TCP connection from a process on fromNode to "ip:port": a cluster IP goes through the
   * node's nat rules (a random endpoint, as `-m statistic` picks it); a pod IP goes straight to it.
   */
  sendRequest(fromNode: string, target: string): RequestResult {
    const [ip = '', portText = ''] = target.split(':');
    const port = Number(portText);
    const rules = this.rulesOf(fromNode);
    const matched = rules.find((r) => r.chain === 'KUBE-SERVICES' && r.destination === `${ip}/32` && r.dport === port && r.protocol === 'tcp');
    if (!matched) return this.direct(ip, port, [], []);
    const trail = { chains: ['KUBE-SERVICES'], rules: [renderRule(matched)] };
    if (matched.jump === 'REJECT') return { ok: false, error: `dial tcp ${target}: connect: connection refused`, ...trail };
    trail.chains.push(matched.jump);
    const svcRules = rules.filter((r) => r.chain === matched.jump);
    const picked = svcRules.find((r) => r.probability === undefined || this.rng.nextFloat() < r.probability);
    if (!picked) throw new Error(`invariant violated: ${matched.jump} ends with an unconditional jump`);
    trail.rules.push(renderRule(picked));
    trail.chains.push(picked.jump);
    const dnat = rules.find((r) => r.chain === picked.jump && r.jump === 'DNAT');
    if (!dnat?.toDestination) throw new Error(`invariant violated: ${picked.jump} has a DNAT rule`);
    trail.rules.push(renderRule(dnat));
    const [podIP = '', podPort = ''] = dnat.toDestination.split(':');
    return this.direct(podIP, Number(podPort), trail.chains, trail.rules);
  }

  private direct(ip: string, port: number, chains: string[], rules: string[]): RequestResult {
    const pod = this.pods.get(ip);
    if (!pod) return { ok: false, error: `dial tcp ${ip}:${port}: connect: no route to host`, chains, rules };
    return { ok: true, pod, podIP: ip, targetPort: port, chains, rules };
  }
}
