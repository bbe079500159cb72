// The field order of the JSON the real API server writes: Go's encoding/json follows struct field
// order, so an object starts with kind, apiVersion and metadata (TypeMeta, then ObjectMeta in its
// declared order: apimachinery/pkg/apis/meta/v1/types.go) and a list with kind, apiVersion,
// metadata, items. Only `get --raw` shows the server's bytes; kubectl's own printers re-encode.
// Below metadata, fields keep the order they were stored in.

const OBJECT_META_ORDER = [
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
];
const TYPE_META_ORDER = ['kind', 'apiVersion', 'metadata'];

/** A copy of `o` with `first` keys first (those present), then the rest in their order. */
function ordered(o: Record<string, unknown>, first: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of first) if (o[k] !== undefined) out[k] = o[k];
  for (const k of Object.keys(o)) if (!(k in out)) out[k] = o[k];
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object or list as the API server's JSON serializer orders its top-level and metadata fields. */
export function inGoFieldOrder(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const out = ordered(body, TYPE_META_ORDER);
  if (isRecord(out.metadata) && !Array.isArray(out.items)) out.metadata = ordered(out.metadata, OBJECT_META_ORDER);
  if (Array.isArray(out.items)) out.items = out.items.map((item) => (isRecord(item) ? inGoFieldOrder(item) : item));
  return out;
}
