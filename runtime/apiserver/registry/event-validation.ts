// Validation of Events, which depends on the API group the request came through.
// mirrors pkg/apis/core/validation/events.go (ValidateEventCreate, ValidateEventUpdate,
// validateV1EventSeries, legacyValidateEvent): every event passes the legacy rules; a write
// through events.k8s.io/v1 also meets the strict ones (eventTime, Normal/Warning, no deprecated
// fields on create; the identifying fields immutable on update). Objects here are in the storage
// (core/v1) shape: an events.k8s.io body has been converted first, as upstream validates the
// internal object.
import {
  Path, byteLength, invalid, isDNS1123Subdomain, isQualifiedName, required, type CoreEvent, type FieldError,
} from '../../api/index.ts';

export const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
export const ACTION_LENGTH_LIMIT = 128;
export const REASON_LENGTH_LIMIT = 128;
export const NOTE_LENGTH_LIMIT = 1024;

/** The group version a write came through: core/v1 keeps the old rules for compatibility. */
export type EventRequestVersion = 'v1' | 'events.k8s.io/v1';

type Loose = Record<string, unknown>;
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const isSet = (v: unknown): boolean => typeof v === 'string' && v !== '';

export function validateEventCreate(event: CoreEvent, version: EventRequestVersion): FieldError[] {
  const errs = legacyValidateEvent(event);
  if (version === 'v1') return errs;
  const e = event as unknown as Loose;
  errs.push(...validateV1EventSeries(event));
  if (!isSet(e.eventTime)) errs.push(required(Path.of('eventTime')));
  if (e.type !== 'Normal' && e.type !== 'Warning') errs.push(invalid(Path.of('type'), '', `has invalid value: ${text(e.type)}`));
  if (isSet(e.firstTimestamp)) errs.push(invalid(Path.of('firstTimestamp'), '', 'needs to be unset'));
  if (isSet(e.lastTimestamp)) errs.push(invalid(Path.of('lastTimestamp'), '', 'needs to be unset'));
  if (typeof e.count === 'number' && e.count !== 0) errs.push(invalid(Path.of('count'), '', 'needs to be unset'));
  if (isSet(event.source?.component) || isSet(event.source?.host)) errs.push(invalid(Path.of('source'), '', 'needs to be unset'));
  return errs;
}

/** The fields an events.k8s.io update may not change, in upstream's order (reason is listed twice there too). */
const IMMUTABLE: readonly string[] = [
  'involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'reason', 'type',
  'eventTime', 'action', 'related', 'reportingComponent', 'reportingInstance',
];
/** Fields that are pointers in Go (*EventSeries, *ObjectReference): nil differs from an empty struct. */
const POINTERS: ReadonlySet<string> = new Set(['series', 'related']);
/** The internal field names the errors use (core/v1's reportingComponent is ReportingController inside). */
const FIELD_NAMES: Readonly<Record<string, string>> = { reportingComponent: 'reportingController' };

export function validateEventUpdate(next: CoreEvent, old: CoreEvent, version: EventRequestVersion): FieldError[] {
  const errs = legacyValidateEvent(next);
  if (version === 'v1') return errs;
  const n = next as unknown as Loose;
  const o = old as unknown as Loose;
  if (!samePointee(n.series, o.series)) errs.push(...validateV1EventSeries(next));
  for (const field of IMMUTABLE) {
    const same = POINTERS.has(field) ? samePointee(n[field], o[field]) : semanticEqual(n[field], o[field]);
    if (!same) errs.push(invalid(Path.of(FIELD_NAMES[field] ?? field), n[field] ?? '', 'field is immutable'));
  }
  return errs;
}

function validateV1EventSeries(event: CoreEvent): FieldError[] {
  const series = (event as unknown as Loose).series as Loose | undefined | null;
  if (series === undefined || series === null) return [];
  const errs: FieldError[] = [];
  if (typeof series.count !== 'number' || series.count < 2) errs.push(invalid(Path.of('series.count'), '', 'should be at least 2'));
  if (!isSet(series.lastObservedTime)) errs.push(required(Path.of('series.lastObservedTime')));
  return errs;
}

function legacyValidateEvent(event: CoreEvent): FieldError[] {
  const errs: FieldError[] = [];
  const e = event as unknown as Loose;
  const namespace = event.metadata.namespace ?? '';
  const involvedNamespace = text(event.involvedObject?.namespace);
  const mismatch = (): FieldError => invalid(Path.of('involvedObject', 'namespace'), involvedNamespace, 'does not match event.namespace');
  if (!isSet(e.eventTime)) {
    // "old" events (no eventTime): the namespaces agree, or a cluster-scoped object's event sits in "" or default
    if (involvedNamespace === '' ? namespace !== '' && namespace !== 'default' : namespace !== involvedNamespace) errs.push(mismatch());
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== 'kube-system') errs.push(mismatch());
    errs.push(...validateReporting(e));
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(invalid(Path.of('namespace'), namespace, msg));
  return errs;
}

/** The rules for "new" events (eventTime set): who reported them, what was done, and the lengths. */
function validateReporting(e: Loose): FieldError[] {
  const errs: FieldError[] = [];
  const controller = text(e.reportingComponent);
  if (controller === '') errs.push(required(Path.of('reportingController')));
  for (const msg of isQualifiedName(controller)) errs.push(invalid(Path.of('reportingController'), controller, msg));
  const limited = (field: string, value: string, limit: number, mustBeSet: boolean): void => {
    if (mustBeSet && value === '') errs.push(required(Path.of(field)));
    if (byteLength(value) > limit) errs.push(invalid(Path.of(field), '', `can have at most ${limit} characters`));
  };
  limited('reportingInstance', text(e.reportingInstance), REPORTING_INSTANCE_LENGTH_LIMIT, true);
  limited('action', text(e.action), ACTION_LENGTH_LIMIT, true);
  limited('reason', text(e.reason), REASON_LENGTH_LIMIT, true);
  limited('message', text(e.message), NOTE_LENGTH_LIMIT, false);
  return errs;
}

/**
 * apiequality.Semantic.DeepEqual on Go structs: a field absent from the JSON is its zero value, so
 * absent, null, "", 0 and {} compare equal.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(goZero(a)) === JSON.stringify(goZero(b));
}

/** DeepEqual of two pointers: both nil, or both set to semantically equal structs. */
function samePointee(a: unknown, b: unknown): boolean {
  const nilA = a === undefined || a === null;
  const nilB = b === undefined || b === null;
  return nilA || nilB ? nilA === nilB : semanticEqual(a, b);
}

function goZero(v: unknown): unknown {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(goZero);
  if (typeof v !== 'object') return v;
  const out: Loose = {};
  for (const k of Object.keys(v).sort()) {
    const z = goZero((v as Loose)[k]);
    if (z !== undefined) out[k] = z;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}
