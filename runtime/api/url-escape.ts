// URL escaping that never throws. encodeURIComponent throws a URIError on a lone surrogate, and
// decodeURIComponent on an escape that is not UTF-8 ("%ff") or not an escape ("%zz"); Go's url
// package works on bytes and has neither problem. A reader can paste either into the terminal.
import { utf8Text } from './base64.ts';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The text with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed): what its
 * UTF-8 bytes hold, as Go's string from the terminal's bytes would.
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** encodeURIComponent of the well-formed text. */
export const escapeComponent = (text: string): string => encodeURIComponent(wellFormed(text));

/**
 * decodeURIComponent, leniently: the bytes of %XX escapes are read as UTF-8 with U+FFFD for what is
 * not (as Go's strings would print), and a "%" that does not start an escape stays as it is.
 */
export function unescapeComponent(text: string): string {
  if (!text.includes('%')) return text;
  let out = '';
  let bytes: number[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
      continue;
    }
    if (bytes.length > 0) {
      out += utf8Text(bytes);
      bytes = [];
    }
    out += text[i];
    i++;
  }
  return bytes.length > 0 ? out + utf8Text(bytes) : out;
}

/**
 * What Go's url.Parse refuses in a request URI, as kubectl prints it (`parse "<uri>": ...`): an
 * ASCII control character, or a "%" not followed by two hex digits.
 */
export function urlParseError(uri: string): string | undefined {
  // Go's stringContainsCTLByte
  if (/[\x00-\x1f\x7f]/.test(uri)) return `parse ${JSON.stringify(uri)}: net/url: invalid control character in URL`;
  for (let i = uri.indexOf('%'); i >= 0; i = uri.indexOf('%', i + 1)) {
    if (!/^[0-9a-fA-F]{2}$/.test(uri.slice(i + 1, i + 3))) return `parse ${JSON.stringify(uri)}: invalid URL escape ${JSON.stringify(uri.slice(i, i + 3))}`;
  }
  return undefined;
}
