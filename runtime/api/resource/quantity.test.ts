// Table tests ported from staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go.
// dec(i, e, f) is upstream's decQuantity(i, e, f): the value i * 10^e in format f.
import { describe, expect, it } from 'vitest';
import {
  ERR_FORMAT_WRONG,
  ERR_NUMERIC,
  ERR_SUFFIX,
  Quantity,
  scanQuantity,
  type QuantityFormat,
} from './quantity.ts';

const dec = (i: number | bigint, e: number, f: QuantityFormat): Quantity =>
  Quantity.fromDecimal(BigInt(i), e, f);
const mostPositive = (1n << 63n) - 1n;
const mostNegative = -(1n << 63n);
const maxAllowed = dec(mostPositive, 0, 'BinarySI');
const parse = (s: string): Quantity => Quantity.mustParse(s);

describe('parseQuantityString (TestParseQuantityString)', () => {
  const table: [string, boolean, string, string, string][] = [
    ['0.025Ti', true, '0', '025', 'Ti'],
    ['1.025Ti', true, '1', '025', 'Ti'],
    ['-1.025Ti', false, '1', '025', 'Ti'],
    ['.', true, '0', '', ''],
    ['-.', false, '0', '', ''],
    ['1E-3', true, '1', '', 'E-3'],
  ];
  it.each(table)('%s', (input, positive, num, denom, suffix) => {
    expect(scanQuantity(input)).toEqual({ positive, num, denom, suffix });
  });
});

// TestQuantityParse: [input, expected value, expected format]
const parseTable: [string, Quantity][] = [
  ['0', dec(0, 0, 'DecimalSI')],
  ['0n', dec(0, 0, 'DecimalSI')],
  ['0u', dec(0, 0, 'DecimalSI')],
  ['0m', dec(0, 0, 'DecimalSI')],
  ['0Ki', dec(0, 0, 'BinarySI')],
  ['0k', dec(0, 0, 'DecimalSI')],
  ['0Mi', dec(0, 0, 'BinarySI')],
  ['0M', dec(0, 0, 'DecimalSI')],
  ['0Gi', dec(0, 0, 'BinarySI')],
  ['0G', dec(0, 0, 'DecimalSI')],
  ['0Ti', dec(0, 0, 'BinarySI')],
  ['0T', dec(0, 0, 'DecimalSI')],
  ['1', dec(1, 0, 'DecimalSI')],
  ['1Ki', dec(1024, 0, 'BinarySI')],
  ['8Ki', dec(8 * 1024, 0, 'BinarySI')],
  ['7Mi', dec(7 * 1024 * 1024, 0, 'BinarySI')],
  ['6Gi', dec(6n * 1024n ** 3n, 0, 'BinarySI')],
  ['5Ti', dec(5n * 1024n ** 4n, 0, 'BinarySI')],
  ['4Pi', dec(4n * 1024n ** 5n, 0, 'BinarySI')],
  ['3Ei', dec(3n * 1024n ** 6n, 0, 'BinarySI')],
  ['10Ti', dec(10n * 1024n ** 4n, 0, 'BinarySI')],
  ['100Ti', dec(100n * 1024n ** 4n, 0, 'BinarySI')],
  ['5n', dec(5, -9, 'DecimalSI')],
  ['4u', dec(4, -6, 'DecimalSI')],
  ['3m', dec(3, -3, 'DecimalSI')],
  ['9', dec(9, 0, 'DecimalSI')],
  ['8k', dec(8, 3, 'DecimalSI')],
  ['50k', dec(5, 4, 'DecimalSI')],
  ['7M', dec(7, 6, 'DecimalSI')],
  ['6G', dec(6, 9, 'DecimalSI')],
  ['5T', dec(5, 12, 'DecimalSI')],
  ['40T', dec(4, 13, 'DecimalSI')],
  ['300T', dec(3, 14, 'DecimalSI')],
  ['2P', dec(2, 15, 'DecimalSI')],
  ['1E', dec(1, 18, 'DecimalSI')],
  ['1E-3', dec(1, -3, 'DecimalExponent')],
  ['1e3', dec(1, 3, 'DecimalExponent')],
  ['1E6', dec(1, 6, 'DecimalExponent')],
  ['1e9', dec(1, 9, 'DecimalExponent')],
  ['1E12', dec(1, 12, 'DecimalExponent')],
  ['1e15', dec(1, 15, 'DecimalExponent')],
  ['1E18', dec(1, 18, 'DecimalExponent')],
  ['1e14', dec(1, 14, 'DecimalExponent')],
  ['1e13', dec(1, 13, 'DecimalExponent')],
  ['100.035k', dec(100035, 0, 'DecimalSI')],
  ['0.001', dec(1, -3, 'DecimalSI')],
  ['0.0005k', dec(5, -1, 'DecimalSI')],
  ['0.005', dec(5, -3, 'DecimalSI')],
  ['0.05', dec(5, -2, 'DecimalSI')],
  ['0.5', dec(5, -1, 'DecimalSI')],
  ['0.00050k', dec(5, -1, 'DecimalSI')],
  ['0.00500', dec(5, -3, 'DecimalSI')],
  ['0.05000', dec(5, -2, 'DecimalSI')],
  ['0.50000', dec(5, -1, 'DecimalSI')],
  ['0.5e0', dec(5, -1, 'DecimalExponent')],
  ['0.5e-1', dec(5, -2, 'DecimalExponent')],
  ['0.5e-2', dec(5, -3, 'DecimalExponent')],
  ['10.035M', dec(10035, 3, 'DecimalSI')],
  ['1.2e3', dec(12, 2, 'DecimalExponent')],
  ['1.3E+6', dec(13, 5, 'DecimalExponent')],
  ['1.40e9', dec(14, 8, 'DecimalExponent')],
  ['1.53E12', dec(153, 10, 'DecimalExponent')],
  ['1.6e15', dec(16, 14, 'DecimalExponent')],
  ['1.7E18', dec(17, 17, 'DecimalExponent')],
  ['9.01', dec(901, -2, 'DecimalSI')],
  ['8.1k', dec(81, 2, 'DecimalSI')],
  ['7.123456M', dec(7123456, 0, 'DecimalSI')],
  ['6.987654321G', dec(6987654321, 0, 'DecimalSI')],
  ['5.444T', dec(5444, 9, 'DecimalSI')],
  ['40.1T', dec(401, 11, 'DecimalSI')],
  ['300.2T', dec(3002, 11, 'DecimalSI')],
  ['2.5P', dec(25, 14, 'DecimalSI')],
  ['1.01E', dec(101, 16, 'DecimalSI')],
  ['3.001n', dec(4, -9, 'DecimalSI')],
  ['1.1E-9', dec(2, -9, 'DecimalExponent')],
  ['0.0000000001', dec(1, -9, 'DecimalSI')],
  ['0.0000000005', dec(1, -9, 'DecimalSI')],
  ['0.00000000050', dec(1, -9, 'DecimalSI')],
  ['0.5e-9', dec(1, -9, 'DecimalExponent')],
  ['0.9n', dec(1, -9, 'DecimalSI')],
  ['0.00000012345', dec(124, -9, 'DecimalSI')],
  ['0.00000012354', dec(124, -9, 'DecimalSI')],
  ['9Ei', maxAllowed],
  ['9223372036854775807Ki', maxAllowed],
  ['12E', dec(12, 18, 'DecimalSI')],
  ['100.035Ki', dec(10243584, -2, 'BinarySI')],
  ['0.5Mi', dec(0.5 * 1024 * 1024, 0, 'BinarySI')],
  ['0.05Gi', dec(536870912, -1, 'BinarySI')],
  ['0.025Ti', dec(274877906944, -1, 'BinarySI')],
  ['0.000000000001Ki', dec(2, -9, 'DecimalSI')],
  ['.001', dec(1, -3, 'DecimalSI')],
  ['.0001k', dec(100, -3, 'DecimalSI')],
  ['1.', dec(1, 0, 'DecimalSI')],
  ['1.G', dec(1, 9, 'DecimalSI')],
];

describe('ParseQuantity (TestQuantityParse)', () => {
  it('rejects the empty string', () => {
    expect(Quantity.parse('')).toEqual({ ok: false, error: ERR_FORMAT_WRONG });
  });
  it.each(parseTable)('%s', (input, want) => {
    const got = parse(input);
    expect(got.cmp(want), `${input} -> ${got.canonical()}`).toBe(0);
    expect(got.format).toBe(want.format);
  });
  it.each(parseTable)('-%s is the negation', (input, want) => {
    const got = parse(`-${input}`);
    expect(got.cmp(want.neg())).toBe(0);
    expect(got.format).toBe(want.format);
  });
  it.each(parseTable)('+%s is the same value', (input, want) => {
    const got = parse(`+${input}`);
    expect(got.cmp(want)).toBe(0);
    expect(got.format).toBe(want.format);
  });

  const invalid = [
    '1.1.M',
    '1+1.0M',
    '0.1mi',
    '0.1am',
    'aoeu',
    '.5i',
    '1i',
    '-3.01i',
    '-3.01e-',
    '1e4294967297',
    ' 1',
    '1 ',
  ];
  it.each(invalid)('rejects %j', (input) => {
    expect(Quantity.parse(input).ok).toBe(false);
  });
  it('says which part is wrong, in upstream words', () => {
    expect(Quantity.parse('aoeu')).toEqual({ ok: false, error: ERR_FORMAT_WRONG });
    expect(Quantity.parse('0.1mi')).toEqual({ ok: false, error: ERR_SUFFIX });
    expect(ERR_FORMAT_WRONG).toBe(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    expect(ERR_SUFFIX).toBe("unable to parse quantity's suffix");
    expect(Quantity.parse('.e-20')).toEqual({ ok: false, error: ERR_NUMERIC });
    expect(Quantity.parse('-.').ok).toBe(true); // the int64 fast path never re-reads the digits
    expect(parse('-.').toString()).toBe('0');
  });
});

describe('exponent bounds (TestInterpretExponentInt32Bounds)', () => {
  const cases: [string, boolean][] = [
    ['1e14', true],
    ['1E2147483647', true],
    ['1E-2147483647', true],
    ['1E2147483648', false],
    ['1E-2147483648', false],
    ['1E4294967297', false],
    ['1E8589934592', false],
    ['1E9223372036854775807', false],
    ['1E9223372036854775808', false],
    ['1E6024865272343', false],
  ];
  it.each(cases)('%s parses: %s', (input, ok) => {
    expect(Quantity.parse(input).ok).toBe(ok);
  });
  it('keeps a huge exponent without materialising it', () => {
    expect(parse('1E2147483647').toString()).toBe('10e2147483646');
    expect(parse('1E-2147483647').toString()).toBe('1e-9'); // DecimalExponent keeps e-notation
  });
});

describe('String (TestQuantityString)', () => {
  // [value, canonical, alternate spelling that must canonicalize to it ('' for none)]
  const table: [Quantity, string, string][] = [
    [dec(1024 * 1024 * 1024, 0, 'BinarySI'), '1Gi', '1024Mi'],
    [dec(300 * 1024 * 1024, 0, 'BinarySI'), '300Mi', '307200Ki'],
    [dec(6 * 1024, 0, 'BinarySI'), '6Ki', ''],
    [dec(1001n * 1024n ** 3n, 0, 'BinarySI'), '1001Gi', '1025024Mi'],
    [dec(1024n ** 4n, 0, 'BinarySI'), '1Ti', '1024Gi'],
    [dec(5, 0, 'BinarySI'), '5', '5000m'],
    [dec(500, -3, 'BinarySI'), '500m', '0.5'],
    [dec(1, 9, 'DecimalSI'), '1G', '1000M'],
    [dec(1000, 6, 'DecimalSI'), '1G', '0.001T'],
    [dec(1000000, 3, 'DecimalSI'), '1G', ''],
    [dec(1000000000, 0, 'DecimalSI'), '1G', ''],
    [dec(1, -3, 'DecimalSI'), '1m', '1000u'],
    [dec(80, -3, 'DecimalSI'), '80m', ''],
    [dec(1080, -3, 'DecimalSI'), '1080m', '1.08'],
    [dec(108, -2, 'DecimalSI'), '1080m', '1080000000n'],
    [dec(10800, -4, 'DecimalSI'), '1080m', ''],
    [dec(300, 6, 'DecimalSI'), '300M', ''],
    [dec(1, 12, 'DecimalSI'), '1T', ''],
    [dec(1, 18, 'DecimalSI'), '1E', ''],
    [dec(1, 21, 'DecimalSI'), '1e21', '1000E'],
    [dec(5, 21, 'DecimalSI'), '5e21', '5000E'],
    [dec(1, 24, 'DecimalSI'), '1e24', '1000000E'],
    [dec(1, 70, 'BinarySI'), '10e69', ''],
    [dec(2, 70, 'BinarySI'), '20e69', ''],
    [dec(1, 72, 'BinarySI'), '1e72', ''],
    [dec(1234567, 6, 'DecimalSI'), '1234567M', ''],
    [dec(1234567, -3, 'BinarySI'), '1234567m', ''],
    [dec(3, 3, 'DecimalSI'), '3k', ''],
    [dec(1025, 0, 'BinarySI'), '1025', ''],
    [dec(0, 0, 'DecimalSI'), '0', ''],
    [dec(0, 0, 'BinarySI'), '0', ''],
    [dec(1, 9, 'DecimalExponent'), '1e9', '.001e12'],
    [dec(1, -3, 'DecimalExponent'), '1e-3', '0.001e0'],
    [dec(1, -9, 'DecimalExponent'), '1e-9', '1000e-12'],
    [dec(80, -3, 'DecimalExponent'), '80e-3', ''],
    [dec(300, 6, 'DecimalExponent'), '300e6', ''],
    [dec(1, 12, 'DecimalExponent'), '1e12', ''],
    [dec(1, 3, 'DecimalExponent'), '1e3', ''],
    [dec(3, 3, 'DecimalExponent'), '3e3', ''],
    [dec(3, 3, 'DecimalSI'), '3k', ''],
    [dec(0, 0, 'DecimalExponent'), '0', '00'],
    [dec(1, -9, 'DecimalSI'), '1n', ''],
    [dec(80, -9, 'DecimalSI'), '80n', ''],
    [dec(1080, -9, 'DecimalSI'), '1080n', ''],
    [dec(108, -8, 'DecimalSI'), '1080n', ''],
    [dec(10800, -10, 'DecimalSI'), '1080n', ''],
    [dec(1, -6, 'DecimalSI'), '1u', ''],
    [dec(80, -6, 'DecimalSI'), '80u', ''],
    [dec(1080, -6, 'DecimalSI'), '1080u', ''],
  ];
  it.each(table)('%s prints %s (alternate %j)', (q, canonical, alternate) => {
    expect(q.toString()).toBe(canonical);
    expect(parse(canonical).toString()).toBe(canonical);
    expect(parse(canonical).cmp(q)).toBe(0);
    if (alternate !== '') {
      expect(parse(alternate).toString()).toBe(canonical);
      expect(parse(alternate).canonical()).toBe(canonical);
    }
    if (!q.isZero()) expect(q.neg().toString()).toBe(`-${canonical}`);
  });

  it('falls back to e-notation below nano (TestQuantityStringBelowNano)', () => {
    expect(dec(1, -12, 'DecimalSI').toString()).toBe('1e-12');
    expect(dec(1, -10, 'DecimalSI').toString()).toBe('100e-12');
  });
  it('prints BinarySI with a zero base-1024 exponent plainly (TestBinarySIZeroExponentString)', () => {
    expect(dec(2000, 0, 'BinarySI').toString()).toBe('2000');
    expect(dec(-2000, 0, 'BinarySI').toString()).toBe('-2000');
  });
  it('prints 2^70 grown by arithmetic as exact digits (TestBinarySIPastEiArithmeticRoundTrip)', () => {
    const q = parse('1Ei').mul(1024).quantity;
    expect(q.toString()).toBe('1180591620717411303424');
    expect(JSON.stringify({ q })).toBe('{"q":"1180591620717411303424"}');
    expect(parse(q.toString()).cmp(q)).toBe(0);
  });
  it('prints 2^63 in BinarySI as 8Ei (TestZeroSubMostNegativeInheritsFormat)', () => {
    const q = Quantity.fromInt(0, 'DecimalSI').sub(Quantity.fromInt(mostNegative, 'BinarySI'));
    expect(q.format).toBe('BinarySI');
    expect(q.toString()).toBe('8Ei');
  });
  it('negates (TestQuantityNeg, TestNegAndSubAtMostNegative)', () => {
    expect(dec(901, -2, 'DecimalSI').neg().toString()).toBe('-9010m');
    expect(Quantity.fromInt(mostNegative).neg().toString()).toBe('9223372036854775808');
    expect(Quantity.fromScaled(mostNegative, -3).neg().toString()).toBe('9223372036854775808m');
    expect(Quantity.fromInt(1).sub(Quantity.fromInt(mostNegative)).toString()).toBe(
      '9223372036854775809',
    );
    expect(Quantity.fromScaled(1, -3).sub(Quantity.fromScaled(mostNegative, -3)).toString()).toBe(
      '9223372036854775809m',
    );
    expect(Quantity.fromInt(10).sub(Quantity.fromInt(mostNegative)).toString()).toBe(
      '9223372036854775818',
    );
  });
  it('prints zero as 0 (TestQuantityParseZero, TestQuantityCanocicalizeZero)', () => {
    expect(parse('0').toString()).toBe('0');
    expect(parse('1000m').sub(parse('1')).toString()).toBe('0');
  });
});

describe('parse then print (TestQuantityParseEmit and the brief)', () => {
  const table: [string, string][] = [
    ['1Ki', '1Ki'],
    ['1Mi', '1Mi'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    // the brief's examples and common manifest values
    ['1.5Gi', '1536Mi'],
    ['0.5', '500m'],
    ['1000m', '1'],
    ['0.1m', '100u'],
    ['100m', '100m'],
    ['128Mi', '128Mi'],
    ['1.5', '1500m'],
    ['2000Mi', '2000Mi'],
    ['2048Mi', '2Gi'],
    ['1e3', '1e3'],
    ['1e-3', '1e-3'],
    ['1000', '1k'],
  ];
  it.each(table)('%s prints as %s', (input, want) => {
    expect(parse(input).toString()).toBe(want);
    if (!parse(input).isZero()) expect(parse(`-${input}`).toString()).toBe(`-${want}`);
  });

  // Upstream's int64 fast path remembers the input text when it judges it canonical; the checks
  // look at digits and scale only, so a sign, leading zeros or a trailing dot survive printing.
  const remembered: [string, string][] = [
    ['+1', '+1'],
    ['01', '01'],
    ['1.G', '1.G'],
    ['1.100k', '1.100k'],
    ['+1Ki', '+1Ki'],
    ['8Ki', '8Ki'],
    ['1.0', '1'],
    ['1.000', '1'],
    ['0.100', '100m'],
  ];
  it.each(remembered)('remembers canonical-looking input %s as %s', (input, want) => {
    expect(parse(input).toString()).toBe(want);
  });
});

describe('RoundUp (TestQuantityRoundUp)', () => {
  const table: [string, number, Quantity, boolean][] = [
    ['9.01', -3, dec(901, -2, 'DecimalSI'), true],
    ['9.01', -2, dec(901, -2, 'DecimalSI'), true],
    ['9.01', -1, dec(91, -1, 'DecimalSI'), false],
    ['9.01', 0, dec(10, 0, 'DecimalSI'), false],
    ['9.01', 1, dec(10, 0, 'DecimalSI'), false],
    ['9.01', 2, dec(100, 0, 'DecimalSI'), false],
    ['-9.01', -3, dec(-901, -2, 'DecimalSI'), true],
    ['-9.01', -2, dec(-901, -2, 'DecimalSI'), true],
    ['-9.01', -1, dec(-91, -1, 'DecimalSI'), false],
    ['-9.01', 0, dec(-10, 0, 'DecimalSI'), false],
    ['-9.01', 1, dec(-10, 0, 'DecimalSI'), false],
    ['-9.01', 2, dec(-100, 0, 'DecimalSI'), false],
  ];
  it.each(table)('%s at scale %i', (input, scale, want, exact) => {
    const r = parse(input).roundUp(scale);
    expect(r.exact).toBe(exact);
    expect(r.quantity.cmp(want)).toBe(0);
  });
});

describe('Cmp (TestQuantityCmp, TestQuantityCmpInt64AndDec)', () => {
  const strings: [string, string, number][] = [
    ['0', '0', 0],
    ['100m', '50m', 1],
    ['50m', '100m', -1],
    ['10000T', '100Gi', 1],
  ];
  it.each(strings)('%s vs %s', (x, y, want) => {
    expect(parse(x).cmp(parse(y))).toBe(want);
  });
  const table: [Quantity, Quantity, number][] = [
    [dec(901, -2, 'DecimalSI'), dec(901, -2, 'DecimalSI'), 0],
    [dec(90, -1, 'DecimalSI'), dec(901, -2, 'DecimalSI'), -1],
    [dec(901, -2, 'DecimalSI'), dec(900, -2, 'DecimalSI'), 1],
    [dec(0, 0, 'DecimalSI'), dec(0, 0, 'DecimalSI'), 0],
    [dec(0, 1, 'DecimalSI'), dec(0, -1, 'DecimalSI'), 0],
    [dec(0, -1, 'DecimalSI'), dec(0, 1, 'DecimalSI'), 0],
    [dec(800, -3, 'DecimalSI'), dec(1, 0, 'DecimalSI'), -1],
    [dec(800, -3, 'DecimalSI'), dec(79, -2, 'DecimalSI'), 1],
    [dec(mostPositive, 0, 'DecimalSI'), dec(1, -1, 'DecimalSI'), 1],
    [dec(mostPositive, 1, 'DecimalSI'), dec(1, 0, 'DecimalSI'), 1],
    [dec(mostPositive, 1, 'DecimalSI'), dec(1, 1, 'DecimalSI'), 1],
    [dec(mostPositive, 1, 'DecimalSI'), dec(0, 1, 'DecimalSI'), 1],
    [dec(mostPositive, -16, 'DecimalSI'), dec(1, 3, 'DecimalSI'), -1],
    [dec(mostNegative, 0, 'DecimalSI'), dec(0, 0, 'DecimalSI'), -1],
    [dec(mostNegative, -18, 'DecimalSI'), dec(-1, 0, 'DecimalSI'), -1],
    [dec(mostNegative, -19, 'DecimalSI'), dec(-1, 0, 'DecimalSI'), 1],
    [dec(10n ** 18n, -17, 'DecimalSI'), dec(1, 1, 'DecimalSI'), 0],
    [dec(10n ** 18n, -17, 'DecimalSI'), dec(-10, 0, 'DecimalSI'), 1],
    [dec(-(10n ** 18n), -17, 'DecimalSI'), dec(-10, 0, 'DecimalSI'), 0],
    [dec(10n ** 18n, -17, 'DecimalSI'), dec(1, 0, 'DecimalSI'), 1],
    [dec(10n ** 18n + 1n, -17, 'DecimalSI'), dec(1, 1, 'DecimalSI'), 1],
    [dec(10n ** 18n - 1n, -17, 'DecimalSI'), dec(1, 1, 'DecimalSI'), -1],
  ];
  it.each(table)('%s vs %s is %i, and inverted', (a, b, want) => {
    expect(a.cmp(b)).toBe(want);
    expect(b.cmp(a)).toBe(want === 0 ? 0 : -want);
  });
});

describe('Add, Sub, Mul (TestAdd, TestSub, TestMul, TestQuantity*ZeroPreservesSuffix)', () => {
  const zero = (f: QuantityFormat): Quantity => Quantity.fromInt(0, f);
  const adds: [Quantity, Quantity, Quantity][] = [
    [dec(10, 0, 'DecimalSI'), dec(1, 1, 'DecimalSI'), dec(20, 0, 'DecimalSI')],
    [dec(10, 0, 'DecimalSI'), dec(1, 0, 'BinarySI'), dec(11, 0, 'DecimalSI')],
    [dec(10, 0, 'BinarySI'), dec(1, 0, 'DecimalSI'), dec(11, 0, 'BinarySI')],
    [zero('DecimalSI'), dec(50, 0, 'DecimalSI'), dec(50, 0, 'DecimalSI')],
    [dec(50, 0, 'DecimalSI'), zero('DecimalSI'), dec(50, 0, 'DecimalSI')],
    [zero('DecimalSI'), zero('DecimalSI'), dec(0, 0, 'DecimalSI')],
  ];
  it.each(adds)('%s + %s', (a, b, want) => {
    const got = a.add(b);
    expect(got.cmp(want)).toBe(0);
    if (!a.isZero()) expect(got.format).toBe(want.format);
  });
  const subs: [Quantity, Quantity, Quantity][] = [
    [dec(10, 0, 'DecimalSI'), dec(1, 1, 'DecimalSI'), dec(0, 0, 'DecimalSI')],
    [dec(10, 0, 'DecimalSI'), dec(1, 0, 'BinarySI'), dec(9, 0, 'DecimalSI')],
    [dec(10, 0, 'BinarySI'), dec(1, 0, 'DecimalSI'), dec(9, 0, 'BinarySI')],
    [zero('DecimalSI'), dec(50, 0, 'DecimalSI'), dec(-50, 0, 'DecimalSI')],
    [dec(50, 0, 'DecimalSI'), zero('DecimalSI'), dec(50, 0, 'DecimalSI')],
    [zero('DecimalSI'), zero('DecimalSI'), dec(0, 0, 'DecimalSI')],
  ];
  it.each(subs)('%s - %s', (a, b, want) => {
    expect(a.sub(b).cmp(want)).toBe(0);
  });
  it.each(['100m', '1Gi'])('adding or subtracting zero keeps %s', (text) => {
    const value = parse(text);
    const z = parse('0');
    expect(value.add(z).toString()).toBe(text);
    expect(z.add(value).toString()).toBe(text);
    expect(value.sub(z).toString()).toBe(text);
    expect(z.sub(value).toString()).toBe(value.neg().toString());
  });
  const muls: [Quantity, bigint, Quantity, boolean][] = [
    [dec(10, 0, 'DecimalSI'), 10n, dec(100, 0, 'DecimalSI'), true],
    [dec(10, 0, 'DecimalSI'), 1n, dec(10, 0, 'DecimalSI'), true],
    [dec(10, 0, 'BinarySI'), 1n, dec(10, 0, 'BinarySI'), true],
    [zero('DecimalSI'), 50n, dec(0, 0, 'DecimalSI'), true],
    [dec(50, 0, 'DecimalSI'), 0n, dec(0, 0, 'DecimalSI'), true],
    [dec(10, 0, 'DecimalSI'), -10n, dec(-100, 0, 'DecimalSI'), true],
    [dec(-50, 0, 'DecimalSI'), -50n, dec(2500, 0, 'DecimalSI'), true],
    [dec(mostPositive, 0, 'DecimalSI'), 0n, dec(0, 1, 'DecimalSI'), true],
    [dec(mostPositive, 0, 'DecimalSI'), 1n, dec(mostPositive, 0, 'DecimalSI'), true],
    [dec(mostPositive, 0, 'DecimalSI'), -1n, dec(-mostPositive, 0, 'DecimalSI'), true],
    [
      dec(mostPositive / 2n, 0, 'DecimalSI'),
      2n,
      dec((mostPositive / 2n) * 2n, 0, 'DecimalSI'),
      true,
    ],
    [dec(mostPositive, 0, 'DecimalSI'), 2n, dec(mostPositive * 2n, 0, 'DecimalSI'), false],
    [dec(mostPositive, 0, 'DecimalSI'), 10n, dec(mostPositive, 1, 'DecimalSI'), false],
    [dec(mostNegative, 0, 'DecimalSI'), 1n, dec(mostNegative, 0, 'DecimalSI'), true],
    [dec(mostNegative, 0, 'DecimalSI'), -1n, dec(mostPositive + 1n, 0, 'DecimalSI'), false],
    [dec(mostNegative / 2n, 0, 'DecimalSI'), 2n, dec(mostNegative, 0, 'DecimalSI'), true],
    [dec(mostNegative, 0, 'DecimalSI'), 2n, dec(mostNegative * 2n, 0, 'DecimalSI'), false],
    [dec(mostNegative, 0, 'DecimalSI'), -10n, dec(mostPositive + 1n, 1, 'DecimalSI'), false],
  ];
  it.each(muls)('%s * %s', (a, y, want, exact) => {
    const r = a.mul(y);
    expect(r.quantity.cmp(want)).toBe(0);
    expect(r.exact).toBe(exact);
  });
});

describe('constructors and values (TestMilliNewSet, TestNewSet, TestNewScaledSet, TestScaledValue)', () => {
  it.each([
    [1, 'DecimalSI', '1m'],
    [1000, 'DecimalSI', '1'],
    [1234000, 'DecimalSI', '1234'],
    [1024, 'BinarySI', '1024m'],
    [1024 * 1024, 'BinarySI', '1048576m'],
  ] as const)('fromMilli(%i, %s) prints %s', (value, format, want) => {
    expect(Quantity.fromMilli(value, format).toString()).toBe(want);
    expect(parse(want).milliValue()).toBe(value);
  });
  it.each([
    [1, 'DecimalSI', '1'],
    [1000, 'DecimalSI', '1k'],
    [1234000, 'DecimalSI', '1234k'],
    [1024, 'BinarySI', '1Ki'],
    [1000000, 'DecimalExponent', '1e6'],
    [1024 * 1024, 'BinarySI', '1Mi'],
  ] as const)('fromInt(%i, %s) prints %s', (value, format, want) => {
    expect(Quantity.fromInt(value, format).toString()).toBe(want);
    expect(parse(want).value()).toBe(value);
  });
  it.each([
    [1, -9, '1n'],
    [1000, -9, '1u'],
    [1, -6, '1u'],
    [1000, -6, '1m'],
    [1, -3, '1m'],
    [1000, -3, '1'],
    [1, 0, '1'],
    [0, -9, '0'],
    [0, -6, '0'],
    [0, -3, '0'],
    [0, 0, '0'],
  ])('fromScaled(%i, %i) prints %s', (value, scale, want) => {
    expect(Quantity.fromScaled(value, scale).toString()).toBe(want);
    expect(parse(want).scaledValue(scale)).toBe(value);
  });
  it.each([
    [-9, -9, 1],
    [-9, -6, 1],
    [-9, -3, 1],
    [-9, 0, 1],
    [-6, -9, 1000],
    [-6, -6, 1],
    [-6, -3, 1],
    [-6, 0, 1],
    [-3, -9, 1000 * 1000],
    [-3, -6, 1000],
    [-3, -3, 1],
    [-3, 0, 1],
    [0, -9, 1000 * 1000 * 1000],
    [0, -6, 1000 * 1000],
    [0, -3, 1000],
    [0, 0, 1],
    [2, -2, 100 * 100],
  ])('1 at scale %i read at scale %i is %i', (from, to, want) => {
    expect(Quantity.fromScaled(1, from).scaledValue(to)).toBe(want);
  });
});

describe('Value and MilliValue round away from zero (TestNegativeValueRoundsAwayFromZero)', () => {
  const table: [string, number, number][] = [
    ['-.484785E-7466', -1, -1],
    ['.484785E-7466', 1, 1],
    ['-.484785E-1', -1, -49],
    ['.484785E-1', 1, 49],
    ['-0.0005', -1, -1],
    ['0.0005', 1, 1],
    ['-1500m', -2, -1500],
    ['1500m', 2, 1500],
    ['-9.5000000001Gi', -10200547329, -10200547328108],
    ['9.5000000001Gi', 10200547329, 10200547328108],
    ['-1', -1, -1000],
    ['1', 1, 1000],
    ['0', 0, 0],
  ];
  it.each(table)('%s', (input, value, milli) => {
    expect(parse(input).value()).toBe(value);
    expect(parse(input).milliValue()).toBe(milli);
  });
});

describe('AsApproximateFloat64 (TestStringQuantityAsApproximateFloat64)', () => {
  it.each([
    ['2Ki', 2048],
    ['1.1Ki', 1126.4],
    ['1Mi', 1.048576e6],
    ['2Gi', 2.147483648e9],
  ] as const)('%s is %d', (input, want) => {
    expect(parse(input).asApproximateFloat64()).toBe(want);
  });
  it('overflows to infinity', () => {
    expect(dec(12, 500, 'DecimalSI').asApproximateFloat64()).toBe(Infinity);
    expect(dec(-12, 500, 'DecimalSI').asApproximateFloat64()).toBe(-Infinity);
    expect(dec(12, 18, 'DecimalSI').asApproximateFloat64()).toBe(1.2e19);
  });
});
