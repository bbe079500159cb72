// resource.Quantity: Kubernetes' fixed-point number for CPU, memory and other resources.
// mirrors staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go, suffix.go and amount.go.
//
// Upstream keeps an int64 fast path and an arbitrary-precision inf.Dec slow path. We keep one exact
// representation (a bigint mantissa times a power of ten) and reproduce what a learner can see: what
// parses, what errors say, how values round, and the canonical String() (including the quirk that a
// parsed string is echoed verbatim when the fast path judged it canonical, e.g. "+1").

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** The text of upstream's splitREString, quoted in ErrFormatWrong. */
export const QUANTITY_REGEX = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${QUANTITY_REGEX}'`;
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
export const ERR_SUFFIX = "unable to parse quantity's suffix";

export type QuantityParseResult = { ok: true; quantity: Quantity } | { ok: false; error: string };

const MAX_INT64 = (1n << 63n) - 1n;
const MAX_INT32 = 2_147_483_647;
/** Scale (power of ten) of the smallest representable step: 1n. */
const NANO = -9;
/** Beyond this many decimal digits of alignment we refuse to materialize a power of ten. */
const MAX_ALIGN_DIGITS = 100_000;

const DECIMAL_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
]);
const BINARY_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['Ki', 10],
  ['Mi', 20],
  ['Gi', 30],
  ['Ti', 40],
  ['Pi', 50],
  ['Ei', 60],
]);
const DECIMAL_SUFFIX_BY_EXPONENT = new Map([...DECIMAL_SUFFIXES].map(([s, e]) => [e, s]));
const BINARY_SUFFIX_BY_EXPONENT = new Map([...BINARY_SUFFIXES].map(([s, e]) => [e, s]));

const pow10 = (n: number): bigint => {
  if (n > MAX_ALIGN_DIGITS)
    throw new RangeError(`quantity: refusing to build 10^${n} (exponent spread too large)`);
  return 10n ** BigInt(n);
};
const abs = (n: bigint): bigint => (n < 0n ? -n : n);
const digitCount = (n: bigint): number => (n === 0n ? 0 : abs(n).toString().length);

/** Divides by 10^shift rounding away from zero (inf.RoundUp), as upstream rounds quantities. */
function divRoundAwayFromZero(value: bigint, shift: number): bigint {
  if (value === 0n) return 0n;
  if (shift > digitCount(value)) return value < 0n ? -1n : 1n;
  const d = pow10(shift);
  const q = value / d;
  if (q * d === value) return q;
  return value < 0n ? q - 1n : q + 1n;
}

function removeFactors(value: bigint, base: bigint): { rest: bigint; times: number } {
  let rest = value;
  let times = 0;
  while (rest !== 0n && rest % base === 0n) {
    rest /= base;
    times++;
  }
  return { rest, times };
}

/** Interprets a suffix: mirrors suffixHandler.interpret (tables first, then e/E exponents within int32). */
function interpretSuffix(
  suffix: string,
): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  const dec = DECIMAL_SUFFIXES.get(suffix);
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BINARY_SUFFIXES.get(suffix);
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const text = suffix.slice(1);
    if (!/^[+-]?[0-9]+$/.test(text)) return undefined; // strconv.ParseInt syntax
    const exponent = Number(text);
    if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_INT32) return undefined;
    return { base: 10, exponent: exponent === 0 ? 0 : exponent, format: 'DecimalExponent' };
  }
  return undefined;
}

interface ScannedQuantity {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** The hand-written scanner of parseQuantityString: sign, digits, optional fraction, suffix. */
export function scanQuantity(str: string): ScannedQuantity | undefined {
  let pos = 0;
  let positive = true;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;
  while (str[pos] === '0') pos++;
  if (pos >= str.length) return { positive, num: '0', denom: '', suffix: '' };
  const numStart = pos;
  while (isDigit(str[pos])) pos++;
  const num = str.slice(numStart, pos) || '0';
  let denom = '';
  if (str[pos] === '.') {
    const denomStart = ++pos;
    while (isDigit(str[pos])) pos++;
    denom = str.slice(denomStart, pos);
  }
  const suffixStart = pos;
  while (pos < str.length && 'eEinumkKMGTP'.includes(str[pos]!)) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (isDigit(str[pos])) pos++;
  if (pos < str.length) return undefined;
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

/**
 * Whether upstream's int64 fast path would keep the input string as the cached String().
 * mirrors the "if the number is in canonical form, reuse the string" branch of ParseQuantity.
 */
function fastPathKeepsString(
  s: ScannedQuantity,
  base: number,
  exponent: number,
  format: QuantityFormat,
): boolean {
  const shifted = s.num + s.denom;
  let precision: number;
  let multiplier = 1n;
  if (format === 'BinarySI') {
    if (s.denom.length !== 0) return false;
    multiplier = 1n << BigInt(exponent);
    precision = 15 - s.num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else {
    precision = 18 - shifted.length;
  }
  if (precision < 0) return false;
  const scale = (base === 10 ? exponent : 0) - s.denom.length;
  if (scale < NANO) return false;
  const value = BigInt(shifted);
  if (value > MAX_INT64 || value * multiplier > MAX_INT64) return false;
  if (format === 'BinarySI') return exponent % 10 === 0 && (value & 7n) !== 0n;
  return scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
}

export class Quantity {
  /** The value is mantissa * 10^exponent; the mantissa carries no trailing zeros (0 is 0 * 10^0). */
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
  /** The string upstream would remember from parsing (Quantity.s), echoed by String() and JSON. */
  private readonly cached: string | undefined;

  private constructor(mantissa: bigint, exponent: number, format: QuantityFormat, cached?: string) {
    const { rest, times } = removeFactors(mantissa, 10n);
    this.mantissa = rest;
    this.exponent = rest === 0n ? 0 : exponent + times;
    this.format = format;
    this.cached = cached;
  }

  // ------------------------------------------------------------------ construction

  /** ParseQuantity: a Quantity, or the exact upstream error text. */
  static parse(str: string): QuantityParseResult {
    if (str.length === 0) return { ok: false, error: ERR_FORMAT_WRONG };
    if (str === '0') return { ok: true, quantity: new Quantity(0n, 0, 'DecimalSI', '0') };
    const scanned = scanQuantity(str);
    if (!scanned) return { ok: false, error: ERR_FORMAT_WRONG };
    const suffix = interpretSuffix(scanned.suffix);
    if (!suffix) return { ok: false, error: ERR_SUFFIX };
    const { base, exponent } = suffix;
    let format = suffix.format;
    // The slow path re-reads the number with inf.Dec, which rejects a number without digits ("-.").
    const hasDigits = /[0-9]/.test(str.slice(0, str.length - scanned.suffix.length));
    if (!hasDigits && base === 10 && exponent - scanned.denom.length < NANO)
      return { ok: false, error: ERR_NUMERIC };
    const sign = scanned.positive ? 1n : -1n;
    let mantissa = BigInt(scanned.num + scanned.denom);
    let exp10 = -scanned.denom.length;
    if (base === 10) exp10 += exponent;
    else mantissa <<= BigInt(exponent);
    // Round non-zero values up to 1n: "if you want some resources, you should get some".
    if (exp10 < NANO) {
      mantissa = divRoundAwayFromZero(mantissa, NANO - exp10);
      exp10 = NANO;
    }
    if (format === 'BinarySI') {
      const integerPart = exp10 >= 0 ? mantissa * pow10(exp10) : mantissa / pow10(-exp10);
      if (
        integerPart > MAX_INT64 ||
        (integerPart === MAX_INT64 && exp10 < 0 && mantissa % pow10(-exp10) !== 0n)
      ) {
        mantissa = MAX_INT64; // the max is just a simple cap, BinarySI only
        exp10 = 0;
      } else if (mantissa !== 0n && integerPart === 0n) {
        format = 'DecimalSI'; // 0 < |x| < 1 in BinarySI "avoids rounding and hopefully confusion"
      }
    }
    const cached = fastPathKeepsString(scanned, base, exponent, suffix.format) ? str : undefined;
    return { ok: true, quantity: new Quantity(sign * mantissa, exp10, format, cached) };
  }

  /** MustParse: for literals known to be valid; throws on a malformed quantity. */
  static mustParse(str: string): Quantity {
    const r = Quantity.parse(str);
    if (!r.ok) throw new Error(`cannot parse '${str}': ${r.error}`);
    return r.quantity;
  }

  /** NewQuantity(value, format). */
  static fromInt(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(value), 0, format);
  }

  /** NewMilliQuantity(value, format): value / 1000. */
  static fromMilli(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(value), -3, format);
  }

  /** NewScaledQuantity(value, scale): value * 10^scale, DecimalSI. */
  static fromScaled(value: number | bigint, scale: number): Quantity {
    return new Quantity(BigInt(value), scale, 'DecimalSI');
  }

  /** A quantity with an explicit decimal value, e.g. fromDecimal(901n, -2, 'DecimalSI') is 9.01. */
  static fromDecimal(mantissa: bigint, exponent: number, format: QuantityFormat): Quantity {
    return new Quantity(mantissa, exponent, format);
  }

  // ------------------------------------------------------------------ inspection

  isZero(): boolean {
    return this.mantissa === 0n;
  }

  sign(): -1 | 0 | 1 {
    return this.mantissa === 0n ? 0 : this.mantissa < 0n ? -1 : 1;
  }

  /** Cmp: -1, 0 or 1. Compares magnitudes before aligning, so huge exponents stay cheap. */
  cmp(y: Quantity): -1 | 0 | 1 {
    const sx = this.sign();
    const sy = y.sign();
    if (sx !== sy || sx === 0) return sx < sy ? -1 : sx > sy ? 1 : 0;
    const magX = digitCount(this.mantissa) + this.exponent;
    const magY = digitCount(y.mantissa) + y.exponent;
    if (magX !== magY) return (magX > magY ? 1 : -1) * sx > 0 ? 1 : -1;
    const [a, b] = align(this, y);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  cmpInt(y: number | bigint): -1 | 0 | 1 {
    return this.cmp(Quantity.fromInt(y));
  }

  equals(y: Quantity): boolean {
    return this.cmp(y) === 0;
  }

  /** ScaledValue: ceil(q / 10^scale) away from zero, as a number (±Infinity beyond float range). */
  scaledValue(scale: number): number {
    const shift = scale - this.exponent;
    if (this.mantissa === 0n) return 0;
    if (-shift > 400) return this.mantissa < 0n ? -Infinity : Infinity;
    const big =
      shift <= 0 ? this.mantissa * pow10(-shift) : divRoundAwayFromZero(this.mantissa, shift);
    return Number(big);
  }

  /** Value: the integer value rounded away from zero (1500m -> 2, -1500m -> -2). */
  value(): number {
    return this.scaledValue(0);
  }

  /** MilliValue: ceil(q * 1000) away from zero. */
  milliValue(): number {
    return this.scaledValue(-3);
  }

  /** AsApproximateFloat64. */
  asApproximateFloat64(): number {
    if (this.exponent > 400)
      return this.mantissa < 0n ? -Infinity : this.mantissa > 0n ? Infinity : 0;
    return Number(`${this.mantissa}e${this.exponent}`);
  }

  /** RoundUp(scale): the value rounded away from zero to a multiple of 10^scale, and whether that was exact. */
  roundUp(scale: number): { quantity: Quantity; exact: boolean } {
    if (this.exponent >= scale) return { quantity: this, exact: true };
    const rounded = divRoundAwayFromZero(this.mantissa, scale - this.exponent);
    const quantity = new Quantity(rounded, scale, this.format);
    return { quantity, exact: quantity.cmp(this) === 0 };
  }

  // ------------------------------------------------------------------ arithmetic (immutable)

  /** Add: the sum; a zero receiver takes y's format (TestQuantityAddZeroPreservesSuffix). */
  add(y: Quantity): Quantity {
    const format = this.isZero() ? y.format : this.format;
    const [a, b, exponent] = align(this, y);
    return new Quantity(a + b, exponent, format);
  }

  sub(y: Quantity): Quantity {
    const format = this.isZero() ? y.format : this.format;
    const [a, b, exponent] = align(this, y);
    return new Quantity(a - b, exponent, format);
  }

  neg(): Quantity {
    return new Quantity(-this.mantissa, this.exponent, this.format);
  }

  /**
   * Mul by an integer. `exact` mirrors upstream's flag: false when the product's unscaled value
   * leaves int64 (the value itself is always exact here).
   */
  mul(y: number | bigint): { quantity: Quantity; exact: boolean } {
    const product = this.mantissa * BigInt(y);
    return {
      quantity: new Quantity(product, this.exponent, this.format),
      exact: product >= -MAX_INT64 - 1n && product <= MAX_INT64,
    };
  }

  // ------------------------------------------------------------------ printing

  /** String(): the canonical form (or the remembered parse string), exactly as upstream prints it. */
  toString(): string {
    return this.cached ?? this.canonical();
  }

  /** MarshalJSON emits the same text as String(). */
  toJSON(): string {
    return this.toString();
  }

  /** The canonical form, ignoring any remembered parse string (CanonicalizeBytes). */
  canonical(): string {
    if (this.isZero()) return '0';
    if (this.format === 'BinarySI') {
      const small = this.cmpInt(-1024) > 0 && this.cmpInt(1024) < 0;
      if (!small && this.exponent >= 0 && this.exponent <= MAX_ALIGN_DIGITS) {
        const binary = binaryCanonical(this.mantissa * pow10(this.exponent));
        if (binary !== undefined) return binary;
      }
    }
    return decimalCanonical(
      this.mantissa,
      this.exponent,
      this.format === 'DecimalExponent' ? 'DecimalExponent' : 'DecimalSI',
    );
  }
}

/** Brings both mantissas to the smaller exponent: [a, b, exponent]. */
function align(x: Quantity, y: Quantity): [bigint, bigint, number] {
  if (x.isZero()) return [0n, y.mantissa, y.exponent];
  if (y.isZero()) return [x.mantissa, 0n, x.exponent];
  const exponent = Math.min(x.exponent, y.exponent);
  return [
    x.mantissa * pow10(x.exponent - exponent),
    y.mantissa * pow10(y.exponent - exponent),
    exponent,
  ];
}

/**
 * Decimal canonical form: the exponent is a multiple of 3, as large as possible without losing
 * digits (AsCanonicalBytes). DecimalSI uses n u m "" k M G T P E, and falls back to e-notation
 * outside that range; DecimalExponent always uses e-notation ("1e3", "80e-3").
 */
function decimalCanonical(
  mantissa: bigint,
  exponent: number,
  format: 'DecimalSI' | 'DecimalExponent',
): string {
  let m = mantissa;
  let e = exponent;
  const r = ((e % 3) + 3) % 3;
  if (r === 1) {
    m *= 10n;
    e -= 1;
  } else if (r === 2) {
    m *= 100n;
    e -= 2;
  }
  if (format === 'DecimalSI') {
    const suffix = DECIMAL_SUFFIX_BY_EXPONENT.get(e);
    if (suffix !== undefined) return `${m}${suffix}`;
  }
  return e === 0 ? `${m}` : `${m}e${e}`;
}

/** Binary canonical form of an integer: strip factors of 1024 (AsCanonicalBase1024Bytes). */
function binaryCanonical(value: bigint): string | undefined {
  const { rest, times } = removeFactors(value, 1024n);
  if (times === 0) return `${value}`;
  const suffix = BINARY_SUFFIX_BY_EXPONENT.get(times * 10);
  return suffix === undefined ? undefined : `${rest}${suffix}`;
}

/** Parses or throws; for callers that validated the text already. */
export function parseQuantity(str: string): QuantityParseResult {
  return Quantity.parse(str);
}
