// JSON as kubectl prints `-o json`: the object is decoded into unstructured maps, so every key is
// sorted (Go's encoding/json sorts map keys by bytes), indented by four spaces
// (json.MarshalIndent(obj, "", "    ") in cli-runtime/pkg/printers/json.go), with Go's HTML-safe
// escaping of <, > and &.

export function toJSON(value: unknown): string {
  return `${encode(value, '')}\n`;
}

const INDENT = '    ';

function encode(value: unknown, indent: string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  const inner = indent + INDENT;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + encode(v, inner)).join(',\n')}\n${indent}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort(byteCompare);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${quote(k)}: ${encode(record[k], inner)}`).join(',\n')}\n${indent}}`;
}

export function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compact JSON with sorted keys and Go's escaping (for jsonpath and the last-applied annotation). */
export function compactJSON(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'object') return typeof value === 'string' ? quote(value) : String(value);
  if (Array.isArray(value)) return `[${value.map(compactJSON).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort(byteCompare);
  return `{${keys.map((k) => `${quote(k)}:${compactJSON(record[k])}`).join(',')}}`;
}

function quote(s: string): string {
  return JSON.stringify(s).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
