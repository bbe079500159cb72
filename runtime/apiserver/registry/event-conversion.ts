// events.k8s.io/v1 Event <-> core/v1 Event, the two faces of one stored object.
// mirrors pkg/apis/events/v1/conversion.go (Convert_v1_Event_To_core_Event,
// Convert_core_Event_To_v1_Event, AddFieldLabelConversionsForEvent) composed with the core/v1 <->
// internal conversion (core/v1's reportingComponent is the internal ReportingController): events of
// both groups live under /registry/events in the core/v1 shape, so a write through events.k8s.io is
// converted to it and every read, list and watch through events.k8s.io is converted back.
// Both directions produce what Go's encoding/json writes: struct fields without a pointer are always
// present (regarding, deprecatedSource: {}), a zero metav1.Time or MicroTime is null, empty strings
// and zero counts with omitempty are absent, and core/v1's reportingComponent and reportingInstance
// (no omitempty) are "" rather than absent.
import type { CoreEvent, Event, KubeObject, ObjectReference, ResourceInfo } from '../../api/index.ts';

export const EVENTS_V1_API_VERSION = 'events.k8s.io/v1';

/** Whether a request addresses events through events.k8s.io (so its bodies need converting). */
export function isEventsV1(r: Pick<ResourceInfo, 'group' | 'resource'>): boolean {
  return r.group === 'events.k8s.io' && r.resource === 'events';
}

type Loose = Record<string, unknown>;

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';
const nonZero = (v: unknown): v is number => typeof v === 'number' && v !== 0;
const orNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const objectOr = <T>(v: unknown, fallback: T): T => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as T) : fallback);

/** Copies `value` into `out[key]` only when `keep` says it is set (omitempty). */
function put<T>(out: Loose, key: string, value: unknown, keep: (v: unknown) => v is T): void {
  if (keep(value)) out[key] = value;
}

const present = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** core/v1 (storage) -> events.k8s.io/v1 (Convert_core_Event_To_v1_Event). */
export function coreEventToV1(core: CoreEvent): Event {
  const c = core as unknown as Loose;
  const out: Loose = { apiVersion: EVENTS_V1_API_VERSION, kind: 'Event', metadata: core.metadata };
  out.eventTime = orNull(c.eventTime);
  put(out, 'series', c.series, present);
  put(out, 'reportingController', c.reportingComponent, nonEmpty);
  put(out, 'reportingInstance', c.reportingInstance, nonEmpty);
  put(out, 'action', c.action, nonEmpty);
  put(out, 'reason', c.reason, nonEmpty);
  out.regarding = objectOr<ObjectReference>(c.involvedObject, {});
  put(out, 'related', c.related, present);
  put(out, 'note', c.message, nonEmpty);
  put(out, 'type', c.type, nonEmpty);
  out.deprecatedSource = objectOr(c.source, {});
  out.deprecatedFirstTimestamp = orNull(c.firstTimestamp);
  out.deprecatedLastTimestamp = orNull(c.lastTimestamp);
  put(out, 'deprecatedCount', c.count, nonZero);
  return out as unknown as Event;
}

/** events.k8s.io/v1 -> core/v1 (storage) (Convert_v1_Event_To_core_Event). */
export function v1EventToCore(event: Event): CoreEvent {
  const e = event as unknown as Loose;
  const out: Loose = { apiVersion: 'v1', kind: 'Event', metadata: event.metadata };
  out.involvedObject = objectOr<ObjectReference>(e.regarding, {});
  put(out, 'reason', e.reason, nonEmpty);
  put(out, 'message', e.note, nonEmpty);
  out.source = objectOr(e.deprecatedSource, {});
  out.firstTimestamp = orNull(e.deprecatedFirstTimestamp);
  out.lastTimestamp = orNull(e.deprecatedLastTimestamp);
  put(out, 'count', e.deprecatedCount, nonZero);
  put(out, 'type', e.type, nonEmpty);
  out.eventTime = orNull(e.eventTime);
  put(out, 'series', e.series, present);
  put(out, 'action', e.action, nonEmpty);
  put(out, 'related', e.related, present);
  out.reportingComponent = typeof e.reportingController === 'string' ? e.reportingController : '';
  out.reportingInstance = typeof e.reportingInstance === 'string' ? e.reportingInstance : '';
  return out as unknown as CoreEvent;
}

/**
 * A stored object as the request's group shows it: events through events.k8s.io are converted,
 * everything else (and anything that is not an Event, such as a Status) is returned as is.
 */
export function toRequestedVersion<T>(r: Pick<ResourceInfo, 'group' | 'resource'>, obj: T): T {
  if (!isEventsV1(r) || !isCoreEvent(obj)) return obj;
  return coreEventToV1(obj) as unknown as T;
}

/** A decoded events.k8s.io body in the storage shape; other resources' bodies are returned as is. */
export function toStorageVersion(r: Pick<ResourceInfo, 'group' | 'resource'>, obj: KubeObject): KubeObject {
  if (!isEventsV1(r)) return obj;
  return v1EventToCore(obj as Event);
}

function isCoreEvent(obj: unknown): obj is CoreEvent {
  if (typeof obj !== 'object' || obj === null) return false;
  const o = obj as Loose;
  // list items carry no kind; a stored event always has its involvedObject
  return (o.kind === 'Event' && o.apiVersion === 'v1') || (o.kind === undefined && 'involvedObject' in o && 'metadata' in o);
}

/** AddFieldLabelConversionsForEvent: events.k8s.io field labels -> the stored object's selectable fields. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  reason: 'reason',
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reportingController: 'reportingComponent',
  source: 'source',
  type: 'type',
  'metadata.namespace': 'metadata.namespace',
  'metadata.name': 'metadata.name',
};

/**
 * Rewrites an events.k8s.io field selector into the stored shape's labels. Returns the error text
 * upstream gives for a label it does not map, or the rewritten selector.
 */
export function convertEventFieldSelector(selector: string): { ok: true; selector: string } | { ok: false; error: string } {
  const parts: string[] = [];
  // a backslash escapes a comma inside a value (fields.EscapeValue)
  for (const term of selector.split(/(?<!\\),/)) {
    if (term.trim() === '') continue;
    const m = /^\s*([^!=\s]+)\s*(==|!=|=)(.*)$/.exec(term);
    if (!m) return { ok: true, selector }; // malformed: the parser reports it
    const mapped = FIELD_LABELS[m[1]!];
    if (mapped === undefined) return { ok: false, error: `field label not supported: ${m[1]!}` };
    parts.push(`${mapped}${m[2]!}${m[3]!}`);
  }
  return { ok: true, selector: parts.join(',') };
}
