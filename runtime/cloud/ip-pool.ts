// Public addresses of the simulated cloud, handed out from one /24 (203.0.113.0/24 by default,
// TEST-NET-3 of RFC 5737, reserved for documentation, so no learner mistakes it for a real host).
// Allocation is deterministic: the next free host address after the last one given out, wrapping
// around, as a cloud's address pool moves on rather than reusing a just-released address at once.

export class IpPool {
  private readonly prefix: string;
  private readonly used = new Set<number>();
  private last = 0;

  /** cidr must be an IPv4 /24 ("203.0.113.0/24"). */
  constructor(readonly cidr: string) {
    const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.0\/24$/.exec(cidr);
    if (!m || [m[1], m[2], m[3]].some((o) => Number(o) > 255)) {
      throw new Error(`IpPool: "${cidr}" is not an IPv4 /24 such as 203.0.113.0/24`);
    }
    this.prefix = `${m[1]}.${m[2]}.${m[3]}.`;
  }

  /** The next free address (.1 to .254), or undefined when all 254 are taken. */
  allocate(): string | undefined {
    for (let step = 1; step <= 254; step++) {
      const host = ((this.last + step - 1) % 254) + 1;
      if (this.used.has(host)) continue;
      this.used.add(host);
      this.last = host;
      return this.prefix + String(host);
    }
    return undefined;
  }

  release(ip: string): void {
    if (!ip.startsWith(this.prefix)) return;
    this.used.delete(Number(ip.slice(this.prefix.length)));
  }

  get inUse(): number {
    return this.used.size;
  }
}
