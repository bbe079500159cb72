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
 * The service CIDR's address arithmetic for the cluster IP allocator (the allocator itself keeps
 * its state in IPAddress objects, runtime/cluster/service-ips.ts). mirrors
 * pkg/registry/core/service/ipallocator/ipallocator.go (NewIPAllocator: first = network + 1, last =
 * broadcast - 1 for IPv4; allocateNextService: a random offset in the upper band, then a wrapping
 * scan, then the lower band; ipIterator) and bitmap.go (calculateRangeOffset: min(max(16, size/16),
 * 256), 0 for a /28 or smaller): the lower band stays free for users who ask for a specific IP.
 */
export class ServiceIpRange {
  readonly network: number;
  readonly prefixBits: number;
  readonly first: number;
  readonly last: number;
  readonly rangeOffset: number;

  constructor(readonly cidr: string) {
    const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(cidr);
    const base = m ? ipToNumber(m[1]!) : undefined;
    const bits = m ? Number(m[2]) : NaN;
    if (base === undefined || !(bits >= 1 && bits <= 30)) throw new Error(`invariant violated: service CIDR ${cidr} is an IPv4 CIDR of /1 to /30`);
    const size = 2 ** (32 - bits);
    this.prefixBits = bits;
    this.network = base - (base % size);
    this.first = this.network + 1;
    this.last = this.network + size - 2;
    this.rangeOffset = size <= 16 ? 0 : Math.min(Math.max(16, Math.floor(size / 16)), 256);
  }

  contains(ip: string): boolean {
    const n = ipToNumber(ip);
    return n !== undefined && n >= this.first && n <= this.last;
  }

  /**
   * Every usable address in the order allocateNextService tries them: from a random start in the
   * upper band [first + rangeOffset, last], wrapping inside it, then from a random start in the
   * lower band. Lazy: the caller stops at the first free one.
   */
  *candidates(rng: { nextInt(n: number): number }): Generator<string> {
    const upper = this.first + this.rangeOffset;
    yield* scan(upper, this.last, rng.nextInt(this.last - upper + 1));
    if (this.rangeOffset > 0) yield* scan(this.first, upper - 1, rng.nextInt(this.rangeOffset));
  }
}

function* scan(from: number, to: number, start: number): Generator<string> {
  const size = to - from + 1;
  for (let i = 0; i < size; i++) yield numberToIp(from + ((start + i) % size));
}

/** A dotted IPv4 address as an unsigned number; undefined when it is not one. */
export function ipToNumber(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

export function numberToIp(n: number): string {
  return [Math.floor(n / 2 ** 24) % 256, Math.floor(n / 2 ** 16) % 256, Math.floor(n / 256) % 256, n % 256].join('.');
}
