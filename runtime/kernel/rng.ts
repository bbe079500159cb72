/**
 * Seeded pseudo-random numbers: sfc32 (Chris Doty-Humphrey's Small Fast Counting generator, 128-bit
 * state) seeded through splitmix32. Every random choice in the runtime comes from one of these, so
 * the same seed replays the same run. `fork(label)` derives an independent stream from the seed and
 * the label alone (it does not consume the parent's state), so adding a component that forks its
 * own stream does not perturb the numbers any other component sees.
 */
export interface Rng {
  /** The 32-bit seed this stream was created from. */
  readonly seed: number;
  /** A uniform unsigned 32-bit integer. */
  nextU32(): number;
  /** A uniform integer in [0, n); n must be a positive integer. */
  nextInt(n: number): number;
  /** A uniform float in [0, 1). */
  nextFloat(): number;
  /** True with probability p (p <= 0 never, p >= 1 always). */
  chance(p: number): boolean;
  /** An independent stream derived from this stream's seed and `label` (same label, same stream). */
  fork(label: string): Rng;
}

const TWO_POW_32 = 4294967296;

/** One splitmix32 step: returns the mixed output for `state + golden ratio`. */
export function splitmix32(state: number): number {
  let z = (state + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** FNV-1a 32 over the UTF-16 code units of a string (used to turn fork labels into seeds). */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

class Sfc32 implements Rng {
  readonly seed: number;
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    let s = this.seed;
    const next = (): number => {
      s = (s + 0x9e3779b9) | 0;
      return splitmix32(s);
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    // Discard the first outputs, as the generator's author recommends, to mix the state.
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  nextInt(n: number): number {
    if (!(n >= 1) || !Number.isInteger(n)) {
      throw new Error(`invariant violated: nextInt(n) needs a positive integer n (got ${n})`);
    }
    // Multiply-shift mapping (Lemire); the bias for n far below 2^32 is negligible here.
    return Math.floor((this.nextU32() / TWO_POW_32) * n);
  }

  nextFloat(): number {
    return this.nextU32() / TWO_POW_32;
  }

  chance(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.nextFloat() < p;
  }

  fork(label: string): Rng {
    return new Sfc32(splitmix32(this.seed ^ fnv1a32(label)));
  }
}

/** A seeded stream; the seed is taken modulo 2^32. */
export function createRng(seed: number): Rng {
  return new Sfc32(seed);
}

/**
 * A version-4 UUID (uuid.New(), what apimachinery's uuid.NewUUID returns) drawn from a seeded
 * stream: 32 hex digits, then the variant's two bits, so the same stream gives the same UUID.
 */
export function randomUUID(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => rng.nextInt(16).toString(16));
  hex[12] = '4';
  hex[16] = (8 + rng.nextInt(4)).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
