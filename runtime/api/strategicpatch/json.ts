// JSON helpers shared by the patch code: type tests, deep copy and equality, Go's %v rendering
// (upstream's error messages print maps and lists with fmt's %v), and the patch error type.
import { cloneJson } from '../json-clone.ts';

export type JsonMap = Record<string, unknown>;

export const isMap = (v: unknown): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

export const clone = <T>(v: T): T => (v === undefined ? v : cloneJson(v));

/** reflect.DeepEqual on decoded JSON. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

/** The kind of a JSON value as reflect.Kind sees it after json.Unmarshal. */
export type JsonKind = 'map' | 'slice' | 'string' | 'float64' | 'bool' | 'nil';

export function kindOf(v: unknown): JsonKind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'float64';
  return 'bool';
}

/** fmt.Sprintf("%v", v) for decoded JSON: maps print their keys sorted, as Go does. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goValue(v[k])}`).join(' ')}]`;
  }
  return String(v);
}

/** A malformed patch (mergepatch's errors); caught at the package boundary and returned as a value. */
export class PatchFormatError extends Error {
  /** 'bad-request' for the errors upstream maps to 400, 'invalid' for 422. */
  constructor(message: string, readonly kind: 'bad-request' | 'invalid' = 'bad-request') {
    super(message);
  }
}

/** mergepatch/errors.go texts. */
export const ERR = {
  badJSONDoc: 'invalid JSON document',
  noListOfLists: 'lists of lists are not supported',
  primitiveList: 'invalid patch format of primitive list',
  retainKeys: 'invalid patch format of retainKeys',
  setElementOrder: 'invalid patch format of setElementOrder list',
  badPatchType: (t: unknown, m: unknown): string => `unknown patch type: ${goValue(t)} in map: ${goValue(m)}`,
  noMergeKey: (m: unknown, k: string): string => `map: ${goValue(m)} does not contain declared merge key: ${k}`,
} as const;
