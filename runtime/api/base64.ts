// Standard base64 (RFC 4648, padded), as Go's encoding/json reads and writes []byte fields: a
// Secret's data and a ConfigMap's binaryData. Decoding follows encoding/base64's StdEncoding,
// including where it reports a CorruptInputError ("illegal base64 data at input byte N"), and
// skips \r and \n as it does. Pure code: the runtime has neither btoa nor Buffer.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

/** The UTF-8 bytes of a string (what Go's string-to-[]byte conversion gives). */
export function utf8Bytes(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return out;
}

/**
 * Text from UTF-8 bytes, as Go reads a string's runes (utf8.DecodeRune) and encoding/json writes
 * them: a byte that does not start a valid sequence (a stray continuation byte, a truncated or
 * overlong sequence, a surrogate, a code point past U+10FFFF) becomes one U+FFFD. The runtime has
 * no TextDecoder.
 */
export function utf8Text(bytes: readonly number[]): string {
  let text = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      text += String.fromCharCode(b);
      i++;
      continue;
    }
    // the sequence length and smallest code point a lead byte allows (0xc0, 0xc1, 0xf5-0xff never lead)
    const n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let cp = n === 2 ? b & 0x1f : n === 3 ? b & 0x0f : b & 0x07;
    let ok = n > 0 && i + n <= bytes.length;
    for (let j = 1; ok && j < n; j++) {
      const c = bytes[i + j]!;
      if ((c & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (c & 0x3f);
    }
    const min = n === 2 ? 0x80 : n === 3 ? 0x800 : 0x10000;
    if (!ok || cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      text += '\ufffd';
      i++;
      continue;
    }
    text += String.fromCodePoint(cp);
    i += n;
  }
  return text;
}

/** The text a base64 value holds ('' for what does not decode). */
export function decodeBase64Text(b64: string): string {
  const d = decodeBase64(b64);
  return d.ok ? utf8Text(d.bytes) : '';
}

export function encodeBase64(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    out += ALPHABET[a >> 2]! + ALPHABET[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    out += b === undefined ? '=' : ALPHABET[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    out += c === undefined ? '=' : ALPHABET[c & 63]!;
  }
  return out;
}

/** base64 of a string's UTF-8 bytes (a Secret's stringData entry, as conversion stores it). */
export const encodeBase64Utf8 = (text: string): string => encodeBase64(utf8Bytes(text));

export type Base64Decoded = { ok: true; bytes: number[] } | { ok: false; error: string };

/** StdEncoding.DecodeString. */
export function decodeBase64(src: string): Base64Decoded {
  const bytes: number[] = [];
  const corrupt = (at: number): Base64Decoded => ({ ok: false, error: `illegal base64 data at input byte ${at}` });
  const skipNewlines = (i: number): number => {
    while (i < src.length && (src[i] === '\n' || src[i] === '\r')) i++;
    return i;
  };
  let si = 0;
  while (si < src.length) {
    // one quantum of four characters (decodeQuantum)
    const q: number[] = [];
    let padded = false;
    while (q.length < 4) {
      if (si === src.length) {
        if (q.length === 0) return { ok: true, bytes };
        return corrupt(si - q.length);
      }
      const ch = src[si++]!;
      const v = VALUE.get(ch);
      if (v !== undefined) {
        q.push(v);
        continue;
      }
      if (ch === '\n' || ch === '\r') continue;
      if (ch !== '=' || q.length < 2) return corrupt(si - 1);
      // "=" after two characters needs a second "="
      if (q.length === 2) {
        si = skipNewlines(si);
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== '=') return corrupt(si - 1);
        si++;
      }
      si = skipNewlines(si);
      if (si < src.length) return corrupt(si); // data after the padding
      padded = true;
      break;
    }
    const [a, b, c, d] = q as [number, number, number | undefined, number | undefined];
    bytes.push(((a << 2) | (b >> 4)) & 255);
    if (c !== undefined) bytes.push(((b << 4) | (c >> 2)) & 255);
    if (d !== undefined) bytes.push(((c! << 6) | d) & 255);
    if (padded) break;
  }
  return { ok: true, bytes };
}
