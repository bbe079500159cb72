// Service node ports from the --service-node-port-range (30000-32767 by default): the bitmap the
// API server keeps in etcd as a RangeAllocation (runtime/cluster/service-node-ports.ts reads it,
// changes it and writes it back with optimistic concurrency). This file is the pure part.
// mirrors pkg/registry/core/service/portallocator/allocator.go (Allocate, AllocateNext, Release,
// calculateRangeOffset, Snapshot/Restore) and pkg/registry/core/service/allocator/bitmap.go
// (randomScanStrategyWithOffset; the snapshot is big.Int.Bytes() of the bitmap, bit i = base + i):
// a random port comes from the upper part of the range first, so the lower part (86 ports for the
// default range) stays free for users who ask for a port.

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

export type AllocateResult = { ok: true } | { ok: false; error: string };

export class NodePortBitmap {
  private readonly taken = new Set<number>();
  private readonly offset: number;

  constructor(readonly range: PortRange = DEFAULT_NODE_PORT_RANGE) {
    this.offset = rangeOffset(range.size);
  }

  /** Restore: the bitmap of a stored snapshot (base64 big-endian bytes, as RangeAllocation.data). */
  static fromSnapshot(range: PortRange, data: string): NodePortBitmap {
    const bitmap = new NodePortBitmap(range);
    const bytes = base64Decode(data);
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[bytes.length - 1 - i]!;
      for (let b = 0; b < 8; b++) if (byte & (1 << b) && i * 8 + b < range.size) bitmap.taken.add(range.base + i * 8 + b);
    }
    return bitmap;
  }

  /** Snapshot: the bitmap as big.Int.Bytes() (no leading zero bytes), base64. */
  snapshot(): string {
    const top = Math.max(-1, ...[...this.taken].map((p) => p - this.range.base));
    const bytes = new Uint8Array(Math.floor(top / 8) + 1);
    for (const port of this.taken) {
      const bit = port - this.range.base;
      bytes[bytes.length - 1 - Math.floor(bit / 8)]! |= 1 << (bit % 8);
    }
    return base64Encode(bytes);
  }

  /** Allocate(port): free, else ErrAllocated; outside the range, ErrNotInRange. */
  allocate(port: number): AllocateResult {
    if (port < this.range.base || port >= this.range.base + this.range.size) return { ok: false, error: notInRange(this.range) };
    if (this.taken.has(port)) return { ok: false, error: ERR_ALLOCATED };
    this.taken.add(port);
    return { ok: true };
  }

  /** AllocateNext: a random free port of the upper band, else of the lower band; undefined when full. */
  allocateNext(rng: { nextInt(n: number): number }): number | undefined {
    const at = this.scan(rng, this.offset, this.range.size) ?? this.scan(rng, 0, this.offset);
    if (at === undefined) return undefined;
    this.taken.add(this.range.base + at);
    return this.range.base + at;
  }

  /** A random start in [from, to), then the first free offset after it, wrapping inside the band. */
  private scan(rng: { nextInt(n: number): number }, from: number, to: number): number | undefined {
    const size = to - from;
    if (size <= 0) return undefined;
    const start = rng.nextInt(size);
    for (let i = 0; i < size; i++) {
      const at = from + ((start + i) % size);
      if (!this.taken.has(this.range.base + at)) return at;
    }
    return undefined;
  }

  release(port: number): void {
    this.taken.delete(port);
  }

  has(port: number): boolean {
    return this.taken.has(port);
  }

  get used(): number {
    return this.taken.size;
  }

  /** The taken ports, ascending. */
  ports(): number[] {
    return [...this.taken].sort((a, b) => a - b);
  }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with padding (encoding/json's []byte form). */
export function base64Encode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = [18, 12, 6, 0].map((shift) => B64[(n >> shift) & 63]!);
    const kept = Math.min(4, bytes.length - i + 1);
    out += chars.slice(0, kept).join('') + '='.repeat(4 - kept);
  }
  return out;
}

export function base64Decode(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '');
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of clean) {
    const v = B64.indexOf(ch);
    if (v < 0) continue;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 255);
    }
  }
  return Uint8Array.from(out);
}
