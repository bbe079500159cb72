// Service node ports from the --service-node-port-range (30000-32767 by default). In Kubernetes
// the API server allocates them (pkg/registry/core/service/portallocator over a bitmap kept in
// etcd); our API server does not, so the cluster calls this allocator from an admission plugin
// (runtime/cluster/service-node-ports.ts).
// mirrors pkg/registry/core/service/portallocator/allocator.go (Allocate, AllocateNext, Release,
// calculateRangeOffset) and pkg/registry/core/service/allocator/bitmap.go
// (randomScanStrategyWithOffset): a random port comes from the upper part of the range first, so
// the lower part (86 ports for the default range) stays free for users who ask for a port.
//
// Every port also records its owner ("namespace/name") and whether the write that took it was
// accepted (committed) or is still in flight (pending). Upstream reverts a failed request's
// allocations in the same call (alloc.go's transaction); our admission plugin cannot see how the
// write ends, so it commits after validation and drops its owner's pending ports on the next try.

export interface PortRange {
  base: number;
  size: number;
}

export const DEFAULT_NODE_PORT_RANGE: PortRange = { base: 30000, size: 2768 };

/** The upstream error texts (portallocator.ErrAllocated, ErrNotInRange, ErrFull). */
export const ERR_ALLOCATED = 'provided port is already allocated';
export const ERR_FULL = 'range is full';
export const notInRange = (r: PortRange): string =>
  `provided port is not in the valid range. The range of valid ports is ${rangeText(r)}`;

export const rangeText = (r: PortRange): string => `${r.base}-${r.base + r.size - 1}`;

/** calculateRangeOffset: min(max(16, size/32), 128), 0 for ranges of 16 ports or fewer. */
export function rangeOffset(size: number): number {
  if (size <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(size / 32)), 128);
}

interface Holder {
  owner: string;
  committed: boolean;
}

export type AllocateResult = { ok: true } | { ok: false; error: string };

export class NodePortAllocator {
  private readonly held = new Map<number, Holder>();
  private readonly offset: number;

  constructor(
    private readonly rng: { nextInt(n: number): number },
    readonly range: PortRange = DEFAULT_NODE_PORT_RANGE,
  ) {
    this.offset = rangeOffset(range.size);
  }

  /** Allocate(port): free, or already held by the same owner (a retried write), else an error text. */
  allocate(port: number, owner: string): AllocateResult {
    if (port < this.range.base || port >= this.range.base + this.range.size) return { ok: false, error: notInRange(this.range) };
    const holder = this.held.get(port);
    if (holder && holder.owner !== owner) return { ok: false, error: ERR_ALLOCATED };
    if (!holder) this.held.set(port, { owner, committed: false });
    return { ok: true };
  }

  /** AllocateNext: a random free port of the upper band, else of the lower band; undefined when full. */
  allocateNext(owner: string): number | undefined {
    const at = this.scan(this.offset, this.range.size) ?? this.scan(0, this.offset);
    if (at === undefined) return undefined;
    const port = this.range.base + at;
    this.held.set(port, { owner, committed: false });
    return port;
  }

  /** A random start in [from, to), then the first free offset after it, wrapping inside the band. */
  private scan(from: number, to: number): number | undefined {
    const size = to - from;
    if (size <= 0) return undefined;
    const start = this.rng.nextInt(size);
    for (let i = 0; i < size; i++) {
      const at = from + ((start + i) % size);
      if (!this.held.has(this.range.base + at)) return at;
    }
    return undefined;
  }

  release(port: number): void {
    this.held.delete(port);
  }

  has(port: number): boolean {
    return this.held.has(port);
  }

  ownerOf(port: number): string | undefined {
    return this.held.get(port)?.owner;
  }

  /** The ports an owner holds, ascending. */
  ownedBy(owner: string, which: 'all' | 'pending' = 'all'): number[] {
    const out: number[] = [];
    for (const [port, h] of this.held) if (h.owner === owner && (which === 'all' || !h.committed)) out.push(port);
    return out.sort((a, b) => a - b);
  }

  /**
   * The write that took these ports was accepted: they stay the owner's until released. A port
   * nobody holds is claimed (the allocator forgot it, as after an etcd restore); one held by
   * another owner stays theirs, a double allocation that upstream's repair loop would report.
   */
  commit(owner: string, ports: readonly number[]): void {
    for (const port of ports) {
      const h = this.held.get(port);
      if (!h) this.held.set(port, { owner, committed: true });
      else if (h.owner === owner) h.committed = true;
    }
  }

  /** Moves an owner's ports to another owner (a generateName create learns its name). */
  rename(from: string, to: string): void {
    if (from === to) return;
    for (const h of this.held.values()) if (h.owner === from) h.owner = to;
  }

  get used(): number {
    return this.held.size;
  }
}
