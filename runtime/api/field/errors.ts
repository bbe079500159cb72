// Validation errors with field paths, printed exactly like field.Error.Error() upstream:
//   spec.containers[0].image: Required value
//   metadata.name: Invalid value: "Foo": a lowercase RFC 1123 subdomain must consist of ...
// mirrors staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go
import type { Path } from './path.ts';

export type ErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const TYPE_TEXT: Record<ErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Marker for "do not print the value" (upstream's omitValue). */
export const OMIT_VALUE: unique symbol = Symbol('omitValue');

export interface FieldError {
  readonly type: ErrorType;
  /** The dotted path, e.g. "spec.containers[0].image"; "<nil>" when there is no path. */
  readonly field: string;
  readonly badValue: unknown;
  readonly detail: string;
}

export type ErrorList = FieldError[];

function pathText(path: Path | undefined): string {
  return path === undefined ? '<nil>' : path.toString();
}

/** Prints a value the way Go's %v / %q / %#v would for the JSON-ish values we validate. */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) {
    const strings = value.every((v) => typeof v === 'string');
    const inner = value.map((v) => goValue(v)).join(', ');
    return strings ? `[]string{${inner}}` : `[]interface {}{${inner}}`;
  }
  if (
    typeof value === 'object' &&
    typeof (value as { toString?: unknown }).toString === 'function' &&
    !isPlainObject(value)
  ) {
    return String(value);
  }
  // Go prints maps with sorted keys; a map of strings is a map[string]string (labels, selectors)
  const keys = Object.keys(value as object).sort();
  const obj = value as Record<string, unknown>;
  const entries = keys.map((k) => `${JSON.stringify(k)}:${goValue(obj[k])}`);
  const allStrings = keys.every((k) => typeof obj[k] === 'string');
  return `map[string]${allStrings ? 'string' : 'interface {}'}{${entries.join(', ')}}`;
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The part after "field: ", also used as StatusCause.message. mirrors Error.ErrorBody. */
export function errorBody(e: FieldError): string {
  let s = TYPE_TEXT[e.type];
  const valueless =
    e.type === 'FieldValueRequired' ||
    e.type === 'FieldValueForbidden' ||
    e.type === 'FieldValueTooLong' ||
    e.type === 'InternalError' ||
    e.badValue === OMIT_VALUE;
  if (!valueless) s += `: ${goValue(e.badValue)}`;
  if (e.detail.length !== 0) s += `: ${e.detail}`;
  return s;
}

/** field.Error.Error(): "<field>: <body>". */
export function errorString(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

const make = (
  type: ErrorType,
  path: Path | undefined,
  badValue: unknown,
  detail: string,
): FieldError => Object.freeze({ type, field: pathText(path), badValue, detail });

export const required = (path: Path | undefined, detail = ''): FieldError =>
  make('FieldValueRequired', path, '', detail);
export const invalid = (path: Path | undefined, value: unknown, detail: string): FieldError =>
  make('FieldValueInvalid', path, value, detail);
export const duplicate = (path: Path | undefined, value: unknown): FieldError =>
  make('FieldValueDuplicate', path, value, '');
export const notFound = (path: Path | undefined, value: unknown): FieldError =>
  make('FieldValueNotFound', path, value, '');
export const forbidden = (path: Path | undefined, detail: string): FieldError =>
  make('FieldValueForbidden', path, '', detail);
/** A value of the wrong JSON type (upstream fails decoding; we report it on the field). */
export const typeInvalid = (path: Path | undefined, value: unknown, detail: string): FieldError =>
  make('FieldValueTypeInvalid', path, value, detail);
export const internalError = (path: Path | undefined, message: string): FieldError =>
  make('InternalError', path, undefined, message);

/** NotSupported: `Unsupported value: "x": supported values: "Always", "Never"`. */
export function notSupported(
  path: Path | undefined,
  value: unknown,
  validValues: readonly string[],
): FieldError {
  const detail =
    validValues.length > 0
      ? `supported values: ${validValues.map((v) => JSON.stringify(v)).join(', ')}`
      : '';
  return make('FieldValueNotSupported', path, value, detail);
}

/** TooLong: the value is omitted; "may not be more than 63 bytes". */
export function tooLong(path: Path | undefined, maxLength: number): FieldError {
  const detail =
    maxLength >= 0
      ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}`
      : 'value is too long';
  return make('FieldValueTooLong', path, OMIT_VALUE, detail);
}

/** TooMany: "Too many: 5: must have at most 3 items". */
export function tooMany(path: Path | undefined, actual: number, max: number): FieldError {
  const detail =
    max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
  return make('FieldValueTooMany', path, actual < 0 ? OMIT_VALUE : actual, detail);
}

/**
 * ErrorList.ToAggregate().Error(): one message alone, several as "[a, b]"; duplicates removed.
 * Returns '' for an empty list.
 */
export function aggregateMessage(errs: readonly FieldError[]): string {
  return aggregateText(errs.map(errorString));
}

/**
 * utilerrors.NewAggregate(errs).Error(): one message alone, several as "[a, b]", each message once.
 * Returns '' for none.
 */
export function aggregateText(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return '';
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
