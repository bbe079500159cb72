// Reading `-f` manifests: multi-document YAML (block or flow style) or JSON, lists (`kind: List`,
// or any object with items) flattened into their objects, with kubectl's error texts for
// unreadable input.
//
// The yaml package parses; turning a parsed document into JSON is done here, the way kubectl's
// sigs.k8s.io/yaml does it with go-yaml v2 (decode.go) underneath, because the yaml package's own
// toJS() throws on what a reader can type (an alias bomb, an alias of an unknown anchor) and returns
// cyclic or shared objects for aliases. go-yaml expands every alias into a copy and counts as it
// goes: decodeCount for every node decoded, aliasCount for those decoded through an alias; past
// 1,000 decodes and 100 alias decodes it refuses a document whose share of alias decodes exceeds
// allowedAliasRatio ("document contains excessive aliasing"), and an alias met again inside its
// own expansion is "anchor 'a' value contains itself".
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import { decodeBase64, utf8Text, type KubeObject } from '../../api/index.ts';
import type { Ctx } from './context.ts';
import { flagStrings } from './args.ts';

export type ManifestResult = { ok: true; objects: KubeObject[] } | { ok: false; error: string };

/** Objects read from -f, each with its source as kubectl names it in errors ("STDIN" or the path). */
export type FilenameManifests = { ok: true; objects: KubeObject[]; sources: string[] } | { ok: false; error: string };

/**
 * go-yaml v2 knows only the YAML 1.1 tags it resolves (str, int, float, bool, null, binary, merge,
 * timestamp, map, seq); others (!!set, !!omap, !!pairs) leave the node as what it is, so the
 * yaml package's extra "known tags" stay off.
 */
const PARSE_OPTIONS = { resolveKnownTags: false } as const;
const BINARY_TAG = 'tag:yaml.org,2002:binary';

/** decode.go's alias_ratio_range_low and _high. */
const ALIAS_RATIO_RANGE_LOW = 400_000;
const ALIAS_RATIO_RANGE_HIGH = 4_000_000;

/** decode.go allowedAliasRatio: 99% of decodes may come from aliases up to 400,000, then less and less. */
export function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - (0.89 * (decodeCount - ALIAS_RATIO_RANGE_LOW)) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW);
}

/** A refusal while converting one document: its text, as sigs.k8s.io/yaml words it after "error converting YAML to JSON: ". */
class ConvertError {
  constructor(readonly message: string) {}
}

/** Go's %#v of a decoded YAML value, for "invalid map key" (maps print with sorted keys). */
function goSyntax(v: unknown): string {
  if (v === null) return 'interface {}(nil)';
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[interface {}]interface {}{${entries.map(([k, x]) => `${JSON.stringify(k)}:${goSyntax(x)}`).join(', ')}}`;
  }
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** encoding/json's UnsupportedValueError text for a float it cannot write. */
const unsupportedFloat = (n: number): string => `json: unsupported value: ${Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf'}`;

/** Sets a key the way JSON.parse does: "__proto__" becomes an own property, not the prototype. */
function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/**
 * The JSON value of one parsed document, as go-yaml decodes it into interface{} and
 * sigs.k8s.io/yaml converts that to JSON: every alias expanded into its own copy, or the error.
 */
export function convertDocument(doc: Document.Parsed): { ok: true; value: unknown } | { ok: false; error: string } {
  // go-yaml's parser resolves each alias to the latest node with that anchor before it in the
  // text (a node's anchor is set before its children are read, so an alias inside the node it
  // names resolves to that node), and refuses one whose anchor is not defined yet
  const targets = new Map<Node, Node>();
  const anchors = new Map<string, Node>();
  const pending: unknown[] = [doc.contents];
  while (pending.length > 0) {
    const n = pending.pop();
    if (isAlias(n)) {
      const target = anchors.get(n.source);
      if (target === undefined) return { ok: false, error: `yaml: unknown anchor '${n.source}' referenced` };
      targets.set(n, target);
      continue;
    }
    if (!isMap(n) && !isSeq(n) && !isScalar(n)) continue;
    if (n.anchor !== undefined) anchors.set(n.anchor, n);
    // children pushed last-first, so they are visited in text order
    if (isMap(n)) for (let i = n.items.length - 1; i >= 0; i--) pending.push(n.items[i]!.value, n.items[i]!.key);
    else if (isSeq(n)) for (let i = n.items.length - 1; i >= 0; i--) pending.push(n.items[i]);
  }

  let decodeCount = 1; // the document node itself
  let aliasCount = 0;
  let aliasDepth = 0;
  const expanding = new Set<Node>();
  const unmarshal = (n: unknown): unknown => {
    decodeCount++;
    if (aliasDepth > 0) aliasCount++;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount)) {
      throw new ConvertError('yaml: document contains excessive aliasing');
    }
    if (isAlias(n)) {
      if (expanding.has(n)) throw new ConvertError(`yaml: anchor '${n.source}' value contains itself`);
      expanding.add(n);
      aliasDepth++;
      const value = unmarshal(targets.get(n));
      aliasDepth--;
      expanding.delete(n);
      return value;
    }
    if (isMap(n)) {
      const obj: Record<string, unknown> = {};
      for (const pair of n.items) {
        const key = unmarshal(pair.key);
        if (key !== null && typeof key === 'object') throw new ConvertError(`yaml: invalid map key: ${goSyntax(key)}`);
        setKey(obj, key === null ? '' : String(key), unmarshal(pair.value));
      }
      return obj;
    }
    if (isSeq(n)) return n.items.map(unmarshal);
    if (!isScalar(n)) return null; // an empty node ("a:" with nothing after it)
    if (n.tag === BINARY_TAG) {
      // go-yaml: base64.StdEncoding.DecodeString, then string(data), which JSON writes as UTF-8
      const decoded = decodeBase64(String(n.value));
      if (!decoded.ok) throw new ConvertError('yaml: !!binary value contains invalid base64 data');
      return utf8Text(decoded.bytes);
    }
    if (typeof n.value === 'number' && !Number.isFinite(n.value)) throw new ConvertError(unsupportedFloat(n.value));
    return n.value;
  };
  try {
    return { ok: true, value: unmarshal(doc.contents) };
  } catch (e) {
    if (e instanceof ConvertError) return { ok: false, error: e.message };
    // a document nested deeper than this engine's stack: go-yaml's parser stops at 10,000 levels
    if (e instanceof RangeError) return { ok: false, error: 'yaml: exceeded max depth of 10000' };
    throw e;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** encoding/json's name for a JSON value's type in an UnmarshalTypeError. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : 'object';
}

/**
 * The objects of one decoded document: a list (any object with items, as the unstructured decoder
 * sees one) is flattened as FlattenListVisitor does, breadth first, lists within lists included;
 * an item with neither kind nor apiVersion takes the list's apiVersion and its kind minus "List".
 */
function objectsOf(value: Record<string, unknown>, source: string): ManifestResult {
  const objects: KubeObject[] = [];
  const queue: Record<string, unknown>[] = [value];
  for (let i = 0; i < queue.length; i++) {
    const obj = queue[i]!;
    if (obj.items === undefined || obj.items === null) {
      const checked = checkObject(obj, source);
      if (!checked.ok) return checked;
      objects.push(checked.object);
      continue;
    }
    if (typeof obj.kind !== 'string' || obj.kind === '') return missing('Kind', obj, source);
    if (!Array.isArray(obj.items)) {
      return { ok: false, error: `error: unable to decode "${source}": json: cannot unmarshal ${jsonType(obj.items)} into Go struct field decodeList.items of type []json.RawMessage` };
    }
    const itemKind = obj.kind.endsWith('List') ? obj.kind.slice(0, -'List'.length) : obj.kind;
    for (const item of obj.items as unknown[]) {
      if (item !== null && !isPlainObject(item)) {
        return { ok: false, error: `error: unable to decode "${source}": json: cannot unmarshal ${jsonType(item)} into Go value of type map[string]interface {}` };
      }
      const o: Record<string, unknown> = item ?? {};
      if ((o.kind === undefined || o.kind === '') && (o.apiVersion === undefined || o.apiVersion === '')) {
        o.kind = itemKind;
        o.apiVersion = obj.apiVersion;
      }
      queue.push(o);
    }
  }
  return { ok: true, objects };
}

const missing = (field: 'Kind' | 'apiVersion', obj: unknown, source: string): { ok: false; error: string } => ({
  ok: false,
  error: `error: unable to decode "${source}": Object '${field}' is missing in '${JSON.stringify(obj)}'`,
});

/** One object: kind and apiVersion must be non-empty strings; metadata, when absent or null, is {}. */
function checkObject(obj: Record<string, unknown>, source: string): { ok: true; object: KubeObject } | { ok: false; error: string } {
  if (typeof obj.kind !== 'string' || obj.kind === '') return missing('Kind', obj, source);
  if (typeof obj.apiVersion !== 'string' || obj.apiVersion === '') return missing('apiVersion', obj, source);
  obj.metadata ??= {};
  return { ok: true, object: obj as unknown as KubeObject };
}

/** The objects in one manifest text; `source` is "STDIN" or the file's path, as kubectl names them. */
export function parseManifests(text: string, source: string): ManifestResult {
  const objects: KubeObject[] = [];
  for (const doc of parseAllDocuments(text, PARSE_OPTIONS)) {
    if (doc.errors.length > 0) {
      const e = doc.errors[0]!;
      const line = e.linePos?.[0]?.line ?? 0;
      return {
        ok: false,
        error: `error: error parsing ${source}: error converting YAML to JSON: yaml: line ${line}: ${e.message.split('\n')[0]}`,
      };
    }
    const converted = convertDocument(doc);
    if (!converted.ok) return { ok: false, error: `error: error parsing ${source}: error converting YAML to JSON: ${converted.error}` };
    const value = converted.value;
    if (value === null || value === undefined) continue;
    if (!isPlainObject(value)) {
      return {
        ok: false,
        error: `error: error parsing ${source}: error unmarshaling JSON: json: cannot unmarshal ${Array.isArray(value) ? 'array' : jsonType(value)} into Go value of type map[string]interface {}`,
      };
    }
    const found = objectsOf(value, source);
    if (!found.ok) return found;
    objects.push(...found.objects);
  }
  return { ok: true, objects };
}

/** All objects named by -f flags ("-" is stdin), or an error text. */
export function readFilenameFlags(ctx: Ctx): FilenameManifests {
  const objects: KubeObject[] = [];
  const sources: string[] = [];
  for (const name of flagStrings(ctx.args, 'filename')) {
    const text = name === '-' ? ctx.io.stdin : ctx.io.files?.[name];
    if (text === undefined)
      return {
        ok: false,
        error:
          name === '-'
            ? 'error: no objects passed to apply'
            : `error: the path "${name}" does not exist`,
      };
    const parsed = parseManifests(text, name === '-' ? 'STDIN' : name);
    if (!parsed.ok) return parsed;
    objects.push(...parsed.objects);
    for (const _ of parsed.objects) sources.push(name === '-' ? 'STDIN' : name);
  }
  if (objects.length === 0) return { ok: false, error: 'error: no objects passed to apply' };
  return { ok: true, objects, sources };
}
