// Which fields each kind lets you select on, and their values for an object.
// mirrors pkg/registry/core/pod/strategy.go ToSelectableFields, node/strategy.go, event/strategy.go,
// namespace/strategy.go, and generic.ObjectMetaFieldsSet (metadata.name, metadata.namespace).
import type { KubeObject } from '../types/meta.ts';
import type { Fields } from './selector.ts';

type Getter = (o: Record<string, unknown>) => string;

const get = (o: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (v, k) =>
        v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined,
      o,
    );
const str =
  (path: string): Getter =>
  (o) => {
    const v = get(o, path);
    return v === undefined || v === null ? '' : String(v);
  };

const METADATA: Record<string, Getter> = {
  'metadata.name': str('metadata.name'),
  'metadata.namespace': str('metadata.namespace'),
};

const PER_KIND: Record<string, Record<string, Getter>> = {
  Pod: {
    'spec.nodeName': str('spec.nodeName'),
    'spec.restartPolicy': str('spec.restartPolicy'),
    'spec.schedulerName': str('spec.schedulerName'),
    'spec.serviceAccountName': str('spec.serviceAccountName'),
    'spec.hostNetwork': (o) => String(get(o, 'spec.hostNetwork') === true),
    'status.phase': str('status.phase'),
    'status.podIP': str('status.podIP'),
    'status.nominatedNodeName': str('status.nominatedNodeName'),
  },
  Node: { 'spec.unschedulable': (o) => String(get(o, 'spec.unschedulable') === true) },
  Namespace: { 'status.phase': str('status.phase') },
  Event: {
    'involvedObject.kind': str('involvedObject.kind'),
    'involvedObject.namespace': str('involvedObject.namespace'),
    'involvedObject.name': str('involvedObject.name'),
    'involvedObject.uid': str('involvedObject.uid'),
    'involvedObject.apiVersion': str('involvedObject.apiVersion'),
    'involvedObject.resourceVersion': str('involvedObject.resourceVersion'),
    'involvedObject.fieldPath': str('involvedObject.fieldPath'),
    reason: str('reason'),
    reportingComponent: str('reportingComponent'),
    source: str('source.component'),
    type: str('type'),
  },
  ReplicaSet: { 'status.replicas': (o) => String(get(o, 'status.replicas') ?? 0) },
};

/** The field names a kind supports in --field-selector. */
export function selectableFieldNames(kind: string): string[] {
  return [...Object.keys(METADATA), ...Object.keys(PER_KIND[kind] ?? {})];
}

/** The selectable field values of an object (ToSelectableFields). */
export function selectableFields(kind: string, obj: KubeObject): Fields {
  const o = obj as unknown as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [name, getter] of Object.entries({ ...METADATA, ...(PER_KIND[kind] ?? {}) }))
    out[name] = getter(o);
  return out;
}

/**
 * The API server's check that a selector only names supported fields; the error text is what
 * the field label conversion returns: `field label not supported: spec.foo`.
 */
export function checkSelectableFields(kind: string, fields: readonly string[]): string | undefined {
  const known = new Set(selectableFieldNames(kind));
  const bad = fields.find((f) => !known.has(f));
  return bad === undefined ? undefined : `field label not supported: ${bad}`;
}
