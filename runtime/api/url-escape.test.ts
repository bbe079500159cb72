// URL escaping that never throws: what a reader pastes (a lone surrogate, "%zz", "%ff") once made
// encodeURIComponent or decodeURIComponent throw inside kubectl, the REST client or the API server.
import { describe, expect, it } from 'vitest';
import { escapeComponent, unescapeComponent, urlParseError, wellFormed } from './url-escape.ts';

describe('url-escape', () => {
  it.each([
    ['a\ud800b', 'a\ufffdb'],
    ['\udc00', '\ufffd'],
    ['😀', '😀'],
    ['\ud83d\ude00\ud83d', '😀\ufffd'],
  ])('wellFormed(%j) is %j', (text, want) => expect(wellFormed(text)).toBe(want));

  it.each([
    ['a b', 'a%20b'],
    ['\ud800', '%EF%BF%BD'],
  ])('escapeComponent(%j) is %j', (text, want) => expect(escapeComponent(text)).toBe(want));

  it.each([
    ['d%C3%A9fault', 'défault'],
    ['%ff', '\ufffd'],
    ['%e2%82', '\ufffd\ufffd'],
    ['50%', '50%'],
    ['%zz%41', '%zzA'],
    ['plain', 'plain'],
  ])('unescapeComponent(%j) is %j', (text, want) => expect(unescapeComponent(text)).toBe(want));

  it.each([
    ['/api/v1/pods', undefined],
    ['/api/%41', undefined],
    ['/api/%zz', 'parse "/api/%zz": invalid URL escape "%zz"'],
    ['/readyz?x=%', 'parse "/readyz?x=%": invalid URL escape "%"'],
    ['/a%4', 'parse "/a%4": invalid URL escape "%4"'],
    ['/a\u0001', 'parse "/a\\u0001": net/url: invalid control character in URL'],
  ])('urlParseError(%j) is %j', (uri, want) => expect(urlParseError(uri)).toBe(want));
});
