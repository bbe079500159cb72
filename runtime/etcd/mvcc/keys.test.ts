import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeys, inRange, prefixEnd, rangesOverlap, utf8Length } from './keys.ts';

describe('prefixEnd (client/v3 GetPrefixRangeEnd)', () => {
  it.each([
    ['foo', 'fop'],
    ['/registry/pods/', '/registry/pods0'],
    ['a\uffff', 'b'],
    ['\uffff', '\0'],
    ['', '\0'],
  ])('prefix %j ends at %j', (prefix, end) => {
    expect(prefixEnd(prefix)).toBe(end);
  });
});

describe('compareKeys orders by UTF-8 bytes', () => {
  it.each([
    ['a', 'b', -1],
    ['a', 'aa', -1],
    ['b', 'a', 1],
    ['x', 'x', 0],
    // U+FF5E (3 UTF-8 bytes, EF BD 9E) sorts before U+1F600 (4 bytes, F0 ...), unlike UTF-16.
    ['\uff5e', '\u{1f600}', -1],
  ])('%j vs %j', (a, b, sign) => {
    expect(Math.sign(compareKeys(a, b))).toBe(sign);
  });
});

describe('inRange and rangesOverlap', () => {
  it.each([
    ['foo', 'foo', undefined, true],
    ['foo1', 'foo', undefined, false],
    ['foo1', 'foo', 'fop', true],
    ['fop', 'foo', 'fop', false],
    ['zzz', 'b', '\0', true],
    ['a', 'b', '\0', false],
  ])('%j in [%j, %j)', (key, start, end, want) => {
    expect(inRange(key, start, end)).toBe(want);
  });
  it('detects overlap between a single key and a range', () => {
    expect(rangesOverlap('foo', undefined, 'f', 'g')).toBe(true);
    expect(rangesOverlap('a', 'c', 'c', 'd')).toBe(false);
    expect(rangesOverlap('a', 'd', 'c', '\0')).toBe(true);
  });
  it('counts UTF-8 bytes', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('€')).toBe(3);
    expect(utf8Length('\u{1f600}')).toBe(4);
  });

  it('counts long values the same, every time', () => {
    const long = `{"name":"${'é€a\u{1f600}'.repeat(200)}"}`;
    const expected = 11 + 200 * (2 + 3 + 1 + 4);
    expect([utf8Length(long), utf8Length(long), utf8Length(long.slice(0, -2) + '"}')]).toEqual([expected, expected, expected]);
    expect(utf8Length('a'.repeat(5000))).toBe(5000);
  });
});

// replay a failure with FC_SEED=<seed> npm run test:unit -- runtime/etcd/mvcc/keys
const envSeed = Number((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.FC_SEED);
const seed = Number.isFinite(envSeed) ? envSeed : 20261130;

describe(`utf8Length agrees with an independent UTF-8 encoding (seed ${seed})`, () => {
  it('for any string of valid code points, short or long', () => {
    const bytes = (s: string): number => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, 'x').length;
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.nat(300), (s, pad) => {
        const long = 'a'.repeat(pad) + s;
        expect(utf8Length(s)).toBe(bytes(s));
        expect(utf8Length(long)).toBe(bytes(long));
      }),
      { seed, numRuns: 300, verbose: 1 },
    );
  });
});

describe('utf8Length of strings longer than its scratch buffer', () => {
  it('counts them in pieces without splitting a character', () => {
    // 4-byte characters straddle every 64 KB boundary somewhere in 100,000 of them
    const long = '\u{1f600}é'.repeat(50_000) + 'a';
    expect(utf8Length(long)).toBe(50_000 * (4 + 2) + 1);
    expect(utf8Length('x'.repeat(1_000_000))).toBe(1_000_000);
  });
});
