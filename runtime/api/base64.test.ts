import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64, encodeBase64Utf8, utf8Bytes, utf8Text } from './base64.ts';

describe('base64 as Go encoding/base64 StdEncoding', () => {
  it.each([
    ['', ''], ['f', 'Zg=='], ['fo', 'Zm8='], ['foo', 'Zm9v'], ['foob', 'Zm9vYg=='], ['fooba', 'Zm9vYmE='], ['foobar', 'Zm9vYmFy'], // RFC 4648 section 10
    ['héllo', 'aMOpbGxv'], ['日本', '5pel5pys'], ['😀', '8J+YgA=='],
  ])('%j encodes to %s and back', (text, b64) => {
    expect(encodeBase64Utf8(text)).toBe(b64);
    expect(decodeBase64(b64)).toEqual({ ok: true, bytes: utf8Bytes(text) });
  });

  it('round-trips every byte value', () => {
    const bytes = Array.from({ length: 256 }, (_, i) => i);
    expect(decodeBase64(encodeBase64(bytes))).toEqual({ ok: true, bytes });
  });

  // where Go's decoder reports a CorruptInputError (encoding/base64 decodeQuantum)
  it.each([
    ['abc', 0], ['a', 0], ['a!bc', 1], ['Zg=', 3], ['Zg=x', 2], ['Z===', 1], ['Zm9v=', 4], ['Zg==Zg==', 4], ['Zm8=x', 4],
  ])('%s is illegal at input byte %i', (input, at) => {
    expect(decodeBase64(input)).toEqual({ ok: false, error: `illegal base64 data at input byte ${at}` });
  });

  // Go reads a string's runes with utf8.DecodeRune: each byte of an invalid sequence is one U+FFFD
  // (bytes past U+10FFFF once made String.fromCodePoint throw)
  it.each([
    [[0xff, 0xff, 0xff, 0xff], '\ufffd\ufffd\ufffd\ufffd'],
    [[0xf7, 0xbf, 0xbf, 0xbf], '\ufffd\ufffd\ufffd\ufffd'],
    [[0xed, 0xa0, 0x80], '\ufffd\ufffd\ufffd'],
    [[0xc0, 0x80], '\ufffd\ufffd'],
    [[0xe2, 0x82], '\ufffd\ufffd'],
    [[0x61, 0x80, 0x62], 'a\ufffdb'],
    [[0xf0, 0x9f, 0x98, 0x80], '😀'],
    [[0xf4, 0x90, 0x80, 0x80], '\ufffd\ufffd\ufffd\ufffd'],
  ])('utf8Text(%j) is %j', (bytes, text) => expect(utf8Text(bytes)).toBe(text));

  it('skips newlines, as Go does', () => {
    expect(decodeBase64('Zm9v\nYmFy\r\n')).toEqual({ ok: true, bytes: utf8Bytes('foobar') });
  });
});
