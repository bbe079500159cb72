// CNI-style pod IP allocation from a node's podCIDR, as the host-local IPAM plugin does for the
// bridge/ptp plugins: .0 is the network, .1 the node's bridge (cni0) gateway, .255 broadcast, so a
// /24 hands out .2 to .254, lowest free first after the last one given (host-local rotates).

export class PodCidrIpam {
  private readonly base: number[];
  private readonly used = new Set<number>();
  private last = 1;

  constructor(readonly podCIDR: string) {
    const m = /^(\d+)\.(\d+)\.(\d+)\.0\/24$/.exec(podCIDR);
    if (!m) throw new Error(`invariant violated: podCIDR ${podCIDR} is a /24 (10.244.N.0/24)`);
    this.base = [Number(m[1]), Number(m[2]), Number(m[3])];
  }

  /** The next free address, or undefined when the range is exhausted. */
  allocate(): string | undefined {
    for (let i = 0; i < 253; i++) {
      const host = ((this.last - 1 + i) % 253) + 2;
      if (!this.used.has(host)) {
        this.used.add(host);
        this.last = host;
        return `${this.base.join('.')}.${host}`;
      }
    }
    return undefined;
  }

  release(ip: string): void {
    const host = Number(ip.split('.')[3]);
    this.used.delete(host);
  }

  get allocated(): number {
    return this.used.size;
  }
}

/**
 * Service cluster IPs from the service CIDR (10.96.0.0/12 by default in kubeadm). In Kubernetes
 * the API server allocates them (pkg/registry/core/service/ipallocator); our API server does not,
 * so the cluster calls this allocator when it stores a Service. .1 is the kubernetes Service and
 * .10 kube-dns, by convention; others are picked at random from the kernel RNG, as upstream does.
 */
export class ClusterIpAllocator {
  private readonly used = new Set<string>();
  private static readonly SIZE = 1 << 20; // a /12

  constructor(private readonly rng: { nextInt(n: number): number }) {}

  allocate(): string {
    for (let tries = 0; tries < 1000; tries++) {
      const offset = 1 + this.rng.nextInt(ClusterIpAllocator.SIZE - 2);
      const ip = offsetToIp(offset);
      if (!this.used.has(ip) && offset !== 1 && offset !== 10) {
        this.used.add(ip);
        return ip;
      }
    }
    throw new Error('invariant violated: the service CIDR 10.96.0.0/12 has free addresses');
  }

  /** Reserves a specific address (spec.clusterIP set by the user); false when it is taken. */
  allocateSpecific(ip: string): boolean {
    if (this.used.has(ip)) return false;
    this.used.add(ip);
    return true;
  }

  release(ip: string): void {
    this.used.delete(ip);
  }
}

function offsetToIp(offset: number): string {
  const n = (10 << 24) + (96 << 16) + offset;
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}
