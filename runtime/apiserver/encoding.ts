// Decoding request bodies and encoding objects for etcd.
// mirrors what the apiserver's JSON serializer enforces before any handler runs
// (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json and the strict/unknown field
// handling of fieldValidation): the body is a JSON object of the expected kind, typed fields have
// their types, and unknown fields are rejected (Strict) or dropped with a warning (Warn, Ignore).
import {
  apiVersionOf, cloneJson, decodeBase64, encodeBase64Utf8, invalid, kindSchema, newBadRequest, newInvalid, Path, unknownFields, type KubeObject, type ResourceInfo, type Status,
} from '../api/index.ts';
import { FifoMemo } from '../kernel/index.ts';

/** kube-apiserver's --max-request-body-bytes default (3 MiB): larger bodies get 413. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

const COMMON_FIELDS = ['apiVersion', 'kind', 'metadata'];
const SPEC_STATUS = ['spec', 'status'];
const KIND_FIELDS: Record<string, string[]> = {
  ConfigMap: ['data', 'binaryData', 'immutable'],
  Secret: ['data', 'stringData', 'type', 'immutable'],
  ServiceAccount: ['secrets', 'imagePullSecrets', 'automountServiceAccountToken'],
  ControllerRevision: ['data', 'revision'],
  EndpointSlice: ['addressType', 'endpoints', 'ports'],
  Role: ['rules'],
  ClusterRole: ['rules', 'aggregationRule'],
  RoleBinding: ['subjects', 'roleRef'],
  ClusterRoleBinding: ['subjects', 'roleRef'],
  PriorityClass: ['value', 'globalDefault', 'description', 'preemptionPolicy'],
  Endpoints: ['subsets'],
};
const CORE_EVENT_FIELDS = ['involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count',
  'type', 'eventTime', 'series', 'action', 'related', 'reportingComponent', 'reportingInstance'];
const EVENTS_V1_FIELDS = ['eventTime', 'series', 'reportingController', 'reportingInstance', 'action', 'reason',
  'regarding', 'related', 'note', 'type', 'deprecatedSource', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp',
  'deprecatedCount'];

const METADATA_FIELDS: Record<string, 'string' | 'number' | 'map' | 'array'> = {
  name: 'string', generateName: 'string', namespace: 'string', selfLink: 'string', uid: 'string',
  resourceVersion: 'string', generation: 'number', creationTimestamp: 'string', deletionTimestamp: 'string',
  deletionGracePeriodSeconds: 'number', labels: 'map', annotations: 'map', ownerReferences: 'array',
  finalizers: 'array', managedFields: 'array',
};

/** The top-level fields of a resource's objects, listed once per resource (every body is checked against them). */
const knownFieldLists = new WeakMap<ResourceInfo, readonly string[]>();

function knownFields(r: ResourceInfo): readonly string[] {
  let fields = knownFieldLists.get(r);
  if (fields === undefined) {
    fields = r.kind === 'Event'
      ? [...COMMON_FIELDS, ...(r.group === '' ? CORE_EVENT_FIELDS : EVENTS_V1_FIELDS)]
      : [...COMMON_FIELDS, ...(KIND_FIELDS[r.kind] ?? SPEC_STATUS)];
    knownFieldLists.set(r, fields);
  }
  return fields;
}

export type DecodeResult = { ok: true; object: KubeObject; warnings: string[] } | { ok: false; status: Status };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep copy as through JSON, or undefined when the value cannot be serialized (cycles, too deep). */
export function jsonClone<T>(value: T): T | undefined {
  try {
    return cloneJson(value);
  } catch {
    return undefined;
  }
}

/** JSON.stringify's text, undefined for a value it cannot represent, null when it throws (cycles, too deep). */
function jsonText(value: unknown): string | undefined | null {
  try {
    return JSON.stringify(value);
  } catch {
    return null;
  }
}

/** Request bodies freshly parsed from the wire, with the length of their text (see adoptWireBody). */
const wireBodies = new WeakMap<object, number>();
/** Wire bodies whose text holds no "null" (so no null array element to fill: fillNullElements skips them). */
const nullFreeBodies = new WeakSet<object>();

/**
 * Marks a body the server just parsed from a request's text: nobody else holds it, so decodeBody may
 * decode it in place instead of copying it, and its size is its text's length (what the real limit
 * measures) instead of a second serialization.
 */
export function adoptWireBody(body: unknown, textLength: number, text?: string): void {
  if (!isPlainObject(body)) return;
  wireBodies.set(body, textLength);
  if (text !== undefined && !text.includes('null')) nullFreeBodies.add(body);
}

/** The 400 of a body the decoder cannot take (a function, not a closure made for every body). */
function cannotHandle(r: ResourceInfo, detail: string): DecodeResult {
  return { ok: false, status: newBadRequest(`${r.kind} in version ${JSON.stringify(r.version)} cannot be handled as a ${r.kind}: ${detail}`) };
}

/**
 * Decodes a request body into an object of resource `r`. `patch` is the patch a PATCH applied to
 * get this body: its unknown fields are then refused as applyPatchToObject does (a 422 on "patch"),
 * not as a decode error.
 */
export function decodeBody(body: unknown, r: ResourceInfo, fieldValidation: 'Strict' | 'Warn' | 'Ignore' = 'Warn', patch?: unknown): DecodeResult {
  const expected = apiVersionOf(r);
  const wireLength = isPlainObject(body) ? wireBodies.get(body) : undefined;
  // anything but a wire body is copied, since the caller still holds it: its text gives the size too
  const text = wireLength === undefined ? jsonText(body) : undefined;
  if ((wireLength ?? (text === null ? Number.POSITIVE_INFINITY : (text?.length ?? 0))) > MAX_REQUEST_BODY_BYTES) {
    return { ok: false, status: { ...newBadRequest(`Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`), code: 413, reason: 'RequestEntityTooLarge' } };
  }
  // a wire body is decoded in place, once
  if (wireLength !== undefined) wireBodies.delete(body as object);
  const copy = wireLength !== undefined ? body : text == null ? undefined : cloneJson(body);
  if (!isPlainObject(copy)) return cannotHandle(r, `json: cannot unmarshal ${jsonType(copy)} into Go value of type struct`);
  if (copy.apiVersion !== undefined && copy.apiVersion !== expected) {
    if (typeof copy.apiVersion !== 'string') return cannotHandle(r, typeError(copy.apiVersion, 'TypeMeta.apiVersion', 'string'));
    return { ok: false, status: newBadRequest(`the API version in the data (${copy.apiVersion}) does not match the expected API version (${expected})`) };
  }
  if (copy.kind !== undefined && copy.kind !== r.kind) {
    if (typeof copy.kind !== 'string') return cannotHandle(r, typeError(copy.kind, 'TypeMeta.kind', 'string'));
    return { ok: false, status: newBadRequest(`the kind in the data (${copy.kind}) does not match the expected kind (${r.kind})`) };
  }
  const metadata = copy.metadata ?? {};
  if (!isPlainObject(metadata)) return cannotHandle(r, typeError(metadata, `${r.kind}.metadata`, 'v1.ObjectMeta'));
  const metaError = checkMetadataTypes(metadata);
  if (metaError) return cannotHandle(r, metaError);
  const specType = SPEC_STRUCTS[r.kind];
  if (specType !== undefined) {
    // the Spec field is a struct, not a pointer: absent or null, it decodes as an empty one
    const spec = copy.spec ?? {};
    if (!isPlainObject(spec)) return cannotHandle(r, typeError(spec, `${r.kind}.spec`, specType));
    copy.spec = spec;
    const replicasError = REPLICAS_INT32.has(r.kind) ? int32Error(spec.replicas, `${r.kind}Spec.spec.replicas`) : undefined;
    if (replicasError) return cannotHandle(r, replicasError);
  }
  if (!(wireLength !== undefined ? nullFreeBodies.has(copy) : text?.includes('null') === false)) fillNullElements(copy);

  const unknown: string[] = [];
  const schema = kindSchema(r.group, r.kind);
  // the kinds described field by field (api/known-fields.ts) are walked whole, in document order
  const nested = schema === undefined ? undefined : unknownFields(copy, schema);
  if (nested !== undefined) {
    for (let i = 0; i < nested.length; i++) unknown.push(nested[i]!.path);
  } else {
    const allowed = knownFields(r);
    // index loops: every request body passes here, and iterators are not free
    const keys = Object.keys(copy);
    for (let i = 0; i < keys.length; i++) if (!allowed.includes(keys[i]!)) unknown.push(keys[i]!);
    const metaKeys = Object.keys(metadata);
    for (let i = 0; i < metaKeys.length; i++) if (!Object.hasOwn(METADATA_FIELDS, metaKeys[i]!)) unknown.push(`metadata.${metaKeys[i]!}`);
  }
  if (unknown.length > 0 && fieldValidation === 'Strict') {
    const strict = `strict decoding error: ${unknown.map((u) => `unknown field ${JSON.stringify(u)}`).join(', ')}`;
    // patch.go applyPatchToObject: field.Invalid(field.NewPath("patch"), fmt.Sprintf("%+v", patchMap), ...)
    if (patch !== undefined) return { ok: false, status: newInvalid({ group: '', kind: '' }, '', [invalid(Path.of('patch'), goPlusV(patch), strict)]) };
    // create.go / update.go transformDecodeError: "<Kind> in version "v1" cannot be handled as a <Kind>: ..."
    return cannotHandle(r, strict);
  }
  // unknown fields are dropped, as decoding into the Go struct drops them
  if (nested !== undefined) {
    for (let i = nested.length - 1; i >= 0; i--) delete nested[i]!.parent[nested[i]!.key];
  } else {
    for (const k of unknown) {
      if (k.startsWith('metadata.')) delete metadata[k.slice('metadata.'.length)];
      else delete copy[k];
    }
  }
  const converted = convertBytes(copy, r);
  if (converted !== undefined) return cannotHandle(r, converted);
  copy.apiVersion = expected;
  copy.kind = r.kind;
  copy.metadata = metadata;
  const warnings = fieldValidation === 'Warn' ? unknown.map((u) => `unknown field ${JSON.stringify(u)}`) : [];
  return { ok: true, object: copy as unknown as KubeObject, warnings };
}

/**
 * Go's %+v of a value json.Unmarshal made (k8s.io/apimachinery/pkg/util/json keeps integers as
 * int64): maps as map[k:v ...] with sorted keys, slices as [a b], strings bare, null as <nil>.
 */
export function goPlusV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goPlusV).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((k) => `${k}:${goPlusV(o[k])}`).join(' ')}]`;
  }
  return String(v);
}

/** %v of a float64: 'g' with the shortest digits, in exponent form for exponents below -4 or from 6 (strconv's eprec). */
function goFloat(x: number): string {
  const abs = Math.abs(x);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e6)) {
    const [mant, exp] = x.toExponential().split('e') as [string, string];
    const sign = exp.startsWith('-') ? '-' : '+';
    const digits = exp.replace(/^[+-]/, '').padStart(2, '0');
    return `${mant}e${sign}${digits}`;
  }
  return String(x);
}

/**
 * The []byte fields of v1 objects: JSON carries them in base64, which decoding checks (Go's
 * encoding/json reports the first bad byte); a Secret's stringData is merged into data, as the
 * v1 -> internal conversion does (Convert_v1_Secret_To_core_Secret), so it is never stored.
 * Returns the decode error, if any.
 */
function convertBytes(obj: Record<string, unknown>, r: ResourceInfo): string | undefined {
  const field = r.kind === 'Secret' ? 'data' : r.kind === 'ConfigMap' && r.group === '' ? 'binaryData' : undefined;
  if (field === undefined) return undefined;
  const bytes = obj[field];
  if (isPlainObject(bytes)) {
    for (const v of Object.values(bytes)) {
      if (typeof v !== 'string') continue;
      const d = decodeBase64(v);
      if (!d.ok) return d.error;
    }
  }
  if (r.kind !== 'Secret' || !isPlainObject(obj.stringData)) return undefined;
  const data: Record<string, unknown> = isPlainObject(bytes) ? { ...bytes } : {};
  for (const [k, v] of Object.entries(obj.stringData)) if (typeof v === 'string') data[k] = encodeBase64Utf8(v);
  obj.data = data;
  delete obj.stringData;
  return undefined;
}

const METADATA_FIELD_TYPES = Object.entries(METADATA_FIELDS);

const metadataPath = (field: string): string => `ObjectMeta.metadata.${field}`;

function checkMetadataTypes(m: Record<string, unknown>): string | undefined {
  for (let i = 0; i < METADATA_FIELD_TYPES.length; i++) {
    const field = METADATA_FIELD_TYPES[i]![0];
    const type = METADATA_FIELD_TYPES[i]![1];
    const v = m[field];
    if (v === undefined || v === null) continue;
    // the field's path is spelled out only for an error
    if (type === 'string' && typeof v !== 'string') return typeError(v, metadataPath(field), 'string');
    if (type === 'number' && (typeof v !== 'number' || !Number.isInteger(v))) return typeError(v, metadataPath(field), 'int64');
    if (type === 'array' && !Array.isArray(v)) return typeError(v, metadataPath(field), '[]string');
    if (type === 'map') {
      if (!isPlainObject(v)) return typeError(v, metadataPath(field), 'map[string]string');
      for (const val of Object.values(v)) if (typeof val !== 'string') return typeError(val, metadataPath(field), 'string');
    }
  }
  const finalizers = m.finalizers;
  if (Array.isArray(finalizers) && finalizers.some((f) => typeof f !== 'string')) {
    return typeError(finalizers.find((f) => typeof f !== 'string'), 'ObjectMeta.metadata.finalizers', 'string');
  }
  const owners = m.ownerReferences;
  if (Array.isArray(owners) && owners.some((o) => !isPlainObject(o))) {
    return typeError(owners.find((o) => !isPlainObject(o)), 'ObjectMeta.metadata.ownerReferences', 'v1.OwnerReference');
  }
  return undefined;
}

/** The kinds whose Go type holds its Spec as a struct (not a pointer), with that struct's type name. */
const SPEC_STRUCTS: Record<string, string> = {
  Pod: 'v1.PodSpec', Node: 'v1.NodeSpec', Namespace: 'v1.NamespaceSpec', Service: 'v1.ServiceSpec',
  LimitRange: 'v1.LimitRangeSpec', ResourceQuota: 'v1.ResourceQuotaSpec', Deployment: 'v1.DeploymentSpec',
  ReplicaSet: 'v1.ReplicaSetSpec', DaemonSet: 'v1.DaemonSetSpec', PodDisruptionBudget: 'v1.PodDisruptionBudgetSpec',
  Lease: 'v1.LeaseSpec', IPAddress: 'v1.IPAddressSpec', ServiceCIDR: 'v1.ServiceCIDRSpec',
  SelfSubjectAccessReview: 'v1.SelfSubjectAccessReviewSpec', SelfSubjectRulesReview: 'v1.SelfSubjectRulesReviewSpec',
};
/** Kinds whose spec.replicas is an *int32. */
const REPLICAS_INT32 = new Set(['Deployment', 'ReplicaSet']);

/** encoding/json's error for a JSON number an int32 field cannot hold (a fraction, or out of range). */
function int32Error(v: unknown, field: string): string | undefined {
  if (typeof v !== 'number' || (Number.isInteger(v) && v >= -2147483648 && v <= 2147483647)) return undefined;
  return `json: cannot unmarshal number ${String(v)} into Go struct field ${field} of type int32`;
}

/**
 * encoding/json decodes a null element of a slice as the element type's zero value: an empty
 * struct, "", 0 or false. Without the Go types at hand, an element takes the zero value of the
 * type of its array's other elements (an empty object when they are all null, as most lists in
 * the API are lists of structs). Changes `v` in place.
 */
function fillNullElements(v: unknown): void {
  if (Array.isArray(v)) {
    let zero: unknown;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null) {
        fillNullElements(x);
        continue;
      }
      zero ??= zeroElement(v);
      v[i] = typeof zero === 'object' ? (Array.isArray(zero) ? [] : {}) : zero;
    }
  } else if (isPlainObject(v)) {
    for (const k in v) fillNullElements(v[k]);
  }
}

function zeroElement(list: readonly unknown[]): unknown {
  const sample = list.find((x) => x !== null);
  if (typeof sample === 'string') return '';
  if (typeof sample === 'number') return 0;
  if (typeof sample === 'boolean') return false;
  return Array.isArray(sample) ? [] : {};
}

function jsonType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** encoding/json's UnmarshalTypeError text. */
function typeError(v: unknown, field: string, goType: string): string {
  return `json: cannot unmarshal ${jsonType(v)} into Go struct field ${field} of type ${goType}`;
}

/** The JSON stored in etcd: the object without its resourceVersion (etcd's mod_revision is the truth). */
export function encodeForStorage(obj: KubeObject): string {
  return JSON.stringify({ ...obj, metadata: copyWithout(obj.metadata, 'resourceVersion') });
}

/**
 * A shallow copy of a plain object without the named keys, the others in the same order: what
 * object rest (`const { a, ...rest } = o`) makes, which V8 builds on a slow path that allocates
 * several times the copy's size (on every write, and every request with a body).
 */
export function copyWithout<T extends object>(o: T, skip: string, skip2?: string): Omit<T, never> {
  const copy: Record<string, unknown> = {};
  const from = o as Record<string, unknown>;
  for (const k in from) if (k !== skip && k !== skip2 && Object.hasOwn(from, k)) copy[k] = from[k];
  return copy as Omit<T, never>;
}

/** An object read from etcd, with resourceVersion set from the key's mod_revision. */
export function decodeFromStorage(value: string, modRevision: number): KubeObject | undefined {
  try {
    const obj = JSON.parse(value) as KubeObject;
    if (!isPlainObject(obj) || !isPlainObject(obj.metadata)) return undefined;
    obj.metadata.resourceVersion = String(modRevision);
    return obj;
  } catch {
    return undefined;
  }
}

/**
 * Decoded objects shared by every watch cache that reads the same stored value: the replicas of an
 * HA control plane watch the same etcd values (one string, shared by the simulated members), so
 * one frozen decoded object can stand for all of them instead of one copy per API server. Frozen,
 * because a cached object must never be changed in place (the cacher hands the same object to every
 * reader). Keyed by the mod revision, a small integer (a Map keyed by the value text hashed every
 * new multi-kilobyte value once); a hit must also have the same value, which for the one string
 * the members share is a pointer comparison. Several clusters in one process, or a txn writing
 * several keys at one revision, just miss. 8,192 entries cover the lag between the replicas'
 * watches during a burst of writes.
 */
const sharedDecoded = new FifoMemo<number, { value: string; object: KubeObject }>(8192);

/** decodeFromStorage for the watch cache: the same frozen object for the same value and revision. */
export function decodeShared(value: string, modRevision: number): KubeObject | undefined {
  const hit = sharedDecoded.get(modRevision);
  if (hit !== undefined && hit.value === value) return hit.object;
  const object = decodeFromStorage(value, modRevision);
  if (object === undefined) return undefined;
  deepFreeze(object);
  sharedDecoded.set(modRevision, { value, object });
  return object;
}

/**
 * The texts this process's API servers wrote, by the revision that wrote them: encodeForStorage's
 * output, so decoding one and encoding it again gives the same text. Bounded like sharedDecoded.
 */
const writtenTexts = new FifoMemo<number, string>(8192);

/** The store wrote `value` (encodeForStorage's text) at `revision`. */
export function rememberWritten(revision: number, value: string): void {
  writtenTexts.set(revision, value);
}

/**
 * encodeForStorage(obj) without encoding, when `obj` is the watch cache's object decoded from a
 * text an API server wrote: that text. Else undefined (a value written some other way, e.g. by
 * etcdctl, may be formatted differently, so it is encoded as upstream encodes the cached object).
 */
export function storedTextOf(obj: KubeObject): string | undefined {
  const rv = Number(obj.metadata.resourceVersion);
  const hit = sharedDecoded.get(rv);
  if (hit === undefined || hit.object !== obj) return undefined;
  const written = writtenTexts.get(rv);
  return written !== undefined && written === hit.value ? written : undefined;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
