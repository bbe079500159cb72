// Output helpers that reproduce the Go libraries etcdctl prints with:
// dustin/go-humanize Bytes, olekukonko/tablewriter (v0.0.5 defaults), Go's time.Duration String,
// and encoding/json's base64 for []byte.
import { encodeBase64Utf8 } from '../../api/index.ts';

const SI_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** mirrors humanize.Bytes: SI units, one decimal below 10, none from 10 up ("25 kB", "2.1 MB"). */
export function humanizeBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const e = Math.floor(Math.log(n) / Math.log(1000));
  const val = Math.floor((n / Math.pow(1000, e)) * 10 + 0.5) / 10;
  return `${val < 10 ? val.toFixed(1) : goRound(val)} ${SI_UNITS[e]}`;
}

/** Go's %.0f rounds half to even. */
function goRound(v: number): string {
  const floor = Math.floor(v);
  const frac = v - floor;
  if (frac === 0.5) return String(floor % 2 === 0 ? floor : floor + 1);
  return String(Math.round(v));
}

/**
 * Renders a table like tablewriter with SetAlignment(ALIGN_RIGHT): upper-case centered headers
 * (underscores become spaces), '+---+' borders, one space of padding, right-aligned cells.
 */
export function renderTable(header: string[], rows: string[][]): string {
  const head = header.map((h) => h.toUpperCase().replace(/_/g, ' '));
  const widths = head.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const border = '+' + widths.map((w) => '-'.repeat(w + 2)).join('+') + '+';
  const line = (cells: string[], pad: (s: string, w: number) => string): string =>
    '|' + cells.map((c, i) => ' ' + pad(c, widths[i]!) + ' ').join('|') + '|';
  const out = [border, line(head, center), border];
  for (const r of rows) out.push(line(header.map((_, i) => r[i] ?? ''), padLeft));
  out.push(border);
  return out.join('\n') + '\n';
}

function displayWidth(s: string): number {
  return [...s].length;
}

function center(s: string, width: number): string {
  const gap = width - displayWidth(s);
  const left = Math.floor(gap / 2);
  return ' '.repeat(left) + s + ' '.repeat(gap - left);
}

function padLeft(s: string, width: number): string {
  return ' '.repeat(width - displayWidth(s)) + s;
}

/** Base64 of the UTF-8 bytes of a string (Go's encoding/json for []byte). */
export const base64Utf8 = encodeBase64Utf8;

/** A uint64 given as 16 hex digits, printed in decimal (how Go's JSON prints etcd IDs). */
export function hexToDecimal(hex: string): string {
  return BigInt('0x' + (hex || '0')).toString(10);
}

/** A JSON number token for an integer that may be larger than 2^53 (written from decimal text). */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** JSON.stringify that writes RawNumber values verbatim and drops undefined, like Go's omitempty. */
export function goJson(value: unknown): string {
  const tokens: string[] = [];
  const body = JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof RawNumber) {
      tokens.push(v.text);
      return `\u0000${tokens.length - 1}\u0000`;
    }
    return v;
  });
  return body.replace(/"\\u0000(\d+)\\u0000"/g, (_m, i: string) => tokens[Number(i)]!);
}


