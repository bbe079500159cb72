// Which objects a list or watch asks for: namespace, name, label selector, field selector.
// mirrors staging/src/k8s.io/apiserver/pkg/storage/selection_predicate.go (SelectionPredicate.Matches)
import {
  parseFieldSelector, parseSelector, selectableFields, newBadRequest, checkSelectableFields,
  type FieldSelector, type Fields, type KubeObject, type Selector, type Status,
} from '../../api/index.ts';

export interface Predicate {
  namespace?: string;
  name?: string;
  label?: Selector;
  field?: FieldSelector;
  kind: string;
}

export type PredicateResult = { ok: true; predicate: Predicate } | { ok: false; status: Status };

export function buildPredicate(
  kind: string,
  opts: { namespace?: string; name?: string; labelSelector?: string; fieldSelector?: string },
): PredicateResult {
  const p: Predicate = { kind };
  if (opts.namespace) p.namespace = opts.namespace;
  if (opts.name) p.name = opts.name;
  if (opts.labelSelector) {
    const r = parseSelector(opts.labelSelector);
    if (!r.ok) return { ok: false, status: newBadRequest(r.error) };
    p.label = r.selector;
  }
  if (opts.fieldSelector) {
    const r = parseFieldSelector(opts.fieldSelector);
    if (!r.ok) return { ok: false, status: newBadRequest(r.error) };
    const unsupported = checkSelectableFields(kind, r.selector.requirements.map((q) => q.field));
    if (unsupported) return { ok: false, status: newBadRequest(unsupported) };
    p.field = r.selector;
  }
  return { ok: true, predicate: p };
}

export function matches(p: Predicate, obj: KubeObject): boolean {
  const m = obj.metadata;
  if (p.namespace !== undefined && m.namespace !== p.namespace) return false;
  if (p.name !== undefined && m.name !== p.name) return false;
  if (p.label && !p.label.matches(m.labels ?? {})) return false;
  if (p.field && !p.field.matches(fieldsOf(p.kind, obj))) return false;
  return true;
}

/**
 * The selectable fields of a cached object, computed once per object rather than once per watcher
 * (cacher.go keeps them beside each cached object: storeElement.Fields). Cached objects are never
 * modified after decoding; an update decodes a new object.
 */
const fieldsMemo = new WeakMap<KubeObject, Fields>();
function fieldsOf(kind: string, obj: KubeObject): Fields {
  let f = fieldsMemo.get(obj);
  if (f === undefined) fieldsMemo.set(obj, (f = selectableFields(kind, obj)));
  return f;
}
