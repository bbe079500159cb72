// kubectl get --sort-by, as kubectl/pkg/cmd/get/sorter.go does it: the first JSONPath result of
// each object (decoded as unstructured JSON) compared by isLess, and the list put in order by Go's
// sort.Sort (not stable: ties come out as pdqsort leaves them). An object without the field sorts
// before the others, and so does a null (an events.k8s.io event's lastTimestamp); two strings
// that both parse as quantities compare as quantities ("500Mi" < "1Gi"), other strings in natural
// order; integers and floats do not compare with each other, nor booleans, objects or arrays with
// anything: kubectl then exits through klog.Exitf.
import { parseQuantity, type KubeObject } from '../../../api/index.ts';
import { goSortArray } from './go-sort.ts';
import { findResults, parseSteps, relaxedJSONPathExpression } from './jsonpath.ts';
import { naturalLess } from './natural-less.ts';

/** Which of sorter.go's two sorters: RuntimeSort (-o json/yaml/name...) or TableSorter (tables). */
export type SorterKind = 'runtime' | 'table';

/** A sort kubectl refuses: `message` is "error: ..." text, or `klog` a whole klog.Exitf line. */
export class SortByError extends Error {
  constructor(
    message: string,
    /** For klog.Exitf exits: the source and message of the fatal line (printed with a klog header). */
    readonly klog?: { source: string; message: string },
  ) {
    super(message);
  }
}

/**
 * Where sorter.go calls klog.Exitf on an unsortable value (RuntimeSort.Less, TableSorter.Less),
 * and what %T prints there for the object (an unstructured object; the table's parsed rows).
 */
const EXIT_SITE: Record<SorterKind, { source: string; type: string }> = {
  runtime: { source: 'sorter.go:332', type: '*unstructured.Unstructured' },
  table: { source: 'sorter.go:378', type: '[][][]reflect.Value' },
};

type Key = { found: false } | { found: true; value: unknown };

/**
 * The objects sorted by `sortBy` (a copy). Throws SortByError when no object has the field (for a
 * non-empty list) or two values cannot be compared.
 */
export function sortObjects(objects: readonly KubeObject[], sortBy: string, kind: SorterKind): KubeObject[] {
  const field = relaxedJSONPathExpression(sortBy);
  const steps = parseSteps(field.slice(1, -1));
  const keyed = objects.map((o) => {
    const results = findResults(steps, o, true);
    return { o, key: (results.length > 0 ? { found: true, value: results[0] } : { found: false }) as Key };
  });
  if (keyed.length > 0 && !keyed.some((k) => k.key.found)) {
    throw new SortByError(`couldn't find any field with path "${field}" in the list of objects`);
  }
  goSortArray(keyed, (a, b) => {
    // RuntimeSort.Less / TableSorter.Less: a missing value goes first
    if (!a.key.found) return true;
    if (!b.key.found) return false;
    const less = isLess(a.key.value, b.key.value);
    if (typeof less === 'boolean') return less;
    const site = EXIT_SITE[kind];
    const message = `Field ${field} in ${site.type} is an unsortable type: interface, err: ${less.error}`;
    throw new SortByError(message, { source: site.source, message });
  });
  return keyed.map((k) => k.o);
}

/** isLess's reflect.Interface case, on values decoded from JSON (integers as int64, others float64). */
function isLess(i: unknown, j: unknown): boolean | { error: string } {
  if (i === null && j === null) return false;
  if (i === null) return true;
  if (j === null) return false;
  const ti = goType(i);
  const tj = goType(j);
  if (ti === 'int64' || ti === 'float64') {
    return ti === tj ? (i as number) < (j as number) : { error: 'unsortable interface: interface' };
  }
  if (ti === 'string') {
    if (tj !== 'string') return { error: 'unsortable interface: interface' };
    const qi = parseQuantity(i as string);
    const qj = parseQuantity(j as string);
    if (qi.ok && qj.ok) return qi.quantity.cmp(qj.quantity) < 0;
    return naturalLess(i as string, j as string);
  }
  return { error: `unsortable type: ${ti}` };
}

/** The Go type encoding/json gives a JSON value in an unstructured object (%T). */
function goType(v: unknown): string {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
  }
}
