// Shared validation helpers: type guards that turn malformed JSON into field errors instead of
// exceptions, and ObjectMeta validation.
// mirrors staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go and generic.go, and
// staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go (ValidateLabels,
// ValidateLabelSelector).
import type { Path } from '../field/path.ts';
import {
  forbidden,
  invalid,
  required,
  tooLong,
  typeInvalid,
  type FieldError,
} from '../field/errors.ts';
import {
  byteLength,
  isDNS1123Label,
  isDNS1123Subdomain,
  isDNS1035Label,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
} from './names.ts';

export type Json = unknown;
export type JsonObject = Record<string, unknown>;
export type NameValidator = (name: string, prefix: boolean) => string[];

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads an optional object field; reports a wrong type. */
export function optObject(v: unknown, path: Path, errs: FieldError[]): JsonObject | undefined {
  if (v === undefined || v === null) return undefined;
  if (isObject(v)) return v;
  errs.push(typeInvalid(path, v, 'expected an object'));
  return undefined;
}

export function optArray(v: unknown, path: Path, errs: FieldError[]): unknown[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  errs.push(typeInvalid(path, v, 'expected an array'));
  return [];
}

/** A list of strings ([]string): each element that is not a string is a type error. Returns the list. */
export function optStringArray(v: unknown, path: Path, errs: FieldError[]): unknown[] {
  const list = optArray(v, path, errs);
  list.forEach((s, i) => {
    if (typeof s !== 'string') errs.push(typeInvalid(path.at(i), s, 'expected a string'));
  });
  return list;
}

export function optString(v: unknown, path: Path, errs: FieldError[]): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  errs.push(typeInvalid(path, v, 'expected a string'));
  return undefined;
}

export function optInt(v: unknown, path: Path, errs: FieldError[]): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  errs.push(typeInvalid(path, v, 'expected an integer'));
  return undefined;
}

export function optBool(v: unknown, path: Path, errs: FieldError[]): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  errs.push(typeInvalid(path, v, 'expected a boolean'));
  return undefined;
}

/** Reads a map of strings (labels, annotations, nodeSelector, data). */
export function optStringMap(v: unknown, path: Path, errs: FieldError[]): Record<string, string> {
  const o = optObject(v, path, errs);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(o ?? {})) {
    if (typeof val === 'string') out[k] = val;
    else errs.push(typeInvalid(path.key(k), val, 'expected a string'));
  }
  return out;
}

/** ValidateNonnegativeField. */
export function nonNegative(value: number | undefined, path: Path): FieldError[] {
  return value !== undefined && value < 0
    ? [invalid(path, value, 'must be greater than or equal to 0')]
    : [];
}

// ---------------------------------------------------------------- name validators (apimachinery/pkg/api/validation/generic.go)

/** maskTrailingDash: a generateName prefix may end in '-'. */
const maskTrailingDash = (name: string): string =>
  name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;

export const nameIsDNSSubdomain: NameValidator = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameValidator = (name, prefix) =>
  isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameValidator = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name);
/** ValidatePathSegmentName: RBAC objects may use almost any name. */
export const nameIsPathSegment: NameValidator = (name, prefix) =>
  prefix
    ? isValidPathSegmentName(name).filter((m) => !m.includes("'..'"))
    : isValidPathSegmentName(name);

// ---------------------------------------------------------------- labels and annotations

/** ValidateLabels: each bad key or value is reported on the map's path. */
export function validateLabels(labels: Record<string, string>, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(path, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(invalid(path, v, msg));
  }
  return errs;
}

const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;

/** ValidateAnnotations: keys are qualified names (checked lower-cased); total size at most 256 KiB. */
export function validateAnnotations(annotations: Record<string, string>, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, msg));
    size += byteLength(k) + byteLength(v);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}

/** ValidateLabelSelector (metav1 validation): operators, values, keys. */
export function validateLabelSelector(sel: JsonObject, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(
    ...validateLabels(
      optStringMap(sel.matchLabels, path.child('matchLabels'), errs),
      path.child('matchLabels'),
    ),
  );
  optArray(sel.matchExpressions, path.child('matchExpressions'), errs).forEach((raw, i) => {
    const p = path.child('matchExpressions').at(i);
    const e = optObject(raw, p, errs);
    if (!e) return;
    const op = optString(e.operator, p.child('operator'), errs) ?? '';
    const values = optArray(e.values, p.child('values'), errs);
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0)
        errs.push(
          required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"),
        );
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length > 0)
        errs.push(
          forbidden(
            p.child('values'),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        );
    } else {
      errs.push(invalid(p.child('operator'), op, 'not a valid selector operator'));
    }
    const key = optString(e.key, p.child('key'), errs) ?? '';
    for (const msg of isQualifiedName(key)) errs.push(invalid(p.child('key'), key, msg));
  });
  return errs;
}

// ---------------------------------------------------------------- ObjectMeta

export interface MetaRules {
  namespaced: boolean;
  nameFn: NameValidator;
}

/** ValidateObjectMeta: name or generateName, namespace scope, labels, annotations, owners, finalizers. */
export function validateObjectMeta(rawMeta: unknown, rules: MetaRules, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const meta = optObject(rawMeta, path, errs) ?? {};
  const name = optString(meta.name, path.child('name'), errs) ?? '';
  const generateName = optString(meta.generateName, path.child('generateName'), errs) ?? '';
  if (generateName !== '') {
    for (const msg of rules.nameFn(generateName, true))
      errs.push(invalid(path.child('generateName'), generateName, msg));
  }
  if (name === '') {
    if (generateName === '')
      errs.push(required(path.child('name'), 'name or generateName is required'));
  } else {
    for (const msg of rules.nameFn(name, false)) errs.push(invalid(path.child('name'), name, msg));
  }
  const namespace = optString(meta.namespace, path.child('namespace'), errs) ?? '';
  if (rules.namespaced) {
    if (namespace === '') errs.push(required(path.child('namespace'), ''));
    else
      for (const msg of isDNS1123Label(namespace))
        errs.push(invalid(path.child('namespace'), namespace, msg));
  } else if (namespace !== '') {
    errs.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  errs.push(
    ...nonNegative(
      optInt(meta.generation, path.child('generation'), errs),
      path.child('generation'),
    ),
  );
  errs.push(
    ...validateLabels(optStringMap(meta.labels, path.child('labels'), errs), path.child('labels')),
  );
  errs.push(
    ...validateAnnotations(
      optStringMap(meta.annotations, path.child('annotations'), errs),
      path.child('annotations'),
    ),
  );
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, path.child('finalizers')));
  return errs;
}

function validateOwnerReferences(raw: unknown, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  let controllers = 0;
  optArray(raw, path, errs).forEach((r, i) => {
    const ref = optObject(r, path.at(i), errs);
    if (!ref) return;
    const apiVersion = optString(ref.apiVersion, path.at(i).child('apiVersion'), errs) ?? '';
    const kind = optString(ref.kind, path.at(i).child('kind'), errs) ?? '';
    // upstream reports owner reference fields on the unindexed list path
    if (apiVersion === '')
      errs.push(invalid(path.child('apiVersion'), apiVersion, 'version must not be empty'));
    if (kind === '') errs.push(invalid(path.child('kind'), kind, 'kind must not be empty'));
    if ((optString(ref.name, path.at(i).child('name'), errs) ?? '') === '')
      errs.push(invalid(path.child('name'), '', 'name must not be empty'));
    if ((optString(ref.uid, path.at(i).child('uid'), errs) ?? '') === '')
      errs.push(invalid(path.child('uid'), '', 'uid must not be empty'));
    if (optBool(ref.controller, path.at(i).child('controller'), errs) === true) controllers++;
  });
  if (controllers > 1)
    errs.push(invalid(path, raw, 'Only one reference can have Controller set to true'));
  return errs;
}

function validateFinalizers(raw: unknown, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  optArray(raw, path, errs).forEach((f, i) => {
    const name = optString(f, path.at(i), errs);
    if (name === undefined) return;
    for (const msg of isQualifiedName(name)) errs.push(invalid(path, name, msg));
    if (seen.has(name)) errs.push(invalid(path, name, 'duplicate finalizer'));
    seen.add(name);
  });
  return errs;
}
