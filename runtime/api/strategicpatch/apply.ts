// Applying a strategic merge patch, the server side of PATCH with
// Content-Type application/strategic-merge-patch+json.
// mirrors staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (StrategicMergeMapPatch,
// mergeMap, mergeSlice, mergePatchIntoOriginal, applyRetainKeysDirective, normalizeElementOrder):
// maps merge key by key and null deletes; lists tagged patchStrategy "merge" merge their items by
// patchMergeKey (or, for lists of strings, as a set); every other list is replaced. Directives:
// "$patch": "replace" | "delete" in a map or a list item, "$deleteFromPrimitiveList/<field>",
// "$setElementOrder/<field>" and "$retainKeys".
// The merge is also used client-side (CreateThreeWayMergePatch folds the delta into the
// deletions) with mergeParallelList false, which keeps the directives in the result.
import { clone, ERR, goValue, isMap, kindOf, PatchFormatError, type JsonKind, type JsonMap } from './json.ts';
import { lookupPatchField, type PatchField } from './tags.ts';

export const DIRECTIVE = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
export const SET_ELEMENT_ORDER = '$setElementOrder';

export interface MergeOptions {
  /** Server side: act on the parallel lists ($deleteFromPrimitiveList, $setElementOrder) instead of keeping them. */
  mergeParallelList: boolean;
  /** Server side: a null for a key the original lacks is dropped instead of kept. */
  ignoreUnmatchedNulls: boolean;
}

export type PatchResult = { ok: true; value: JsonMap } | { ok: false; error: string; kind: 'bad-request' | 'invalid' };

/** StrategicMergeMapPatch: applies patch to original (neither is modified) with the tags of structType. */
export function strategicMergePatch(original: JsonMap, patch: JsonMap, structType: string): PatchResult {
  try {
    return { ok: true, value: mergeMap(clone(original), clone(patch), structType, { mergeParallelList: true, ignoreUnmatchedNulls: true }) };
  } catch (e) {
    if (e instanceof PatchFormatError) return { ok: false, error: e.message, kind: e.kind };
    throw e;
  }
}

/** Whether a patch field's strategy includes "merge" / "retainKeys". */
const strategyOf = (f: PatchField): { merge: boolean; replace: boolean; retainKeys: boolean } => {
  const parts = (f.strategy ?? '').split(',');
  return { merge: parts.includes('merge'), replace: parts.includes('replace'), retainKeys: parts.includes('retainKeys') };
};

/** mergeMap: both arguments are owned (mutated) by the call. */
export function mergeMap(original: JsonMap | undefined, patch: JsonMap, structType: string | undefined, options: MergeOptions): JsonMap {
  if (DIRECTIVE in patch) return mapDirective(patch[DIRECTIVE], patch);
  const out = original ?? {};
  applyRetainKeys(out, patch, options);
  mergeSetElementOrder(out, patch, structType, options);
  for (const [rawKey, patchValue] of Object.entries(patch)) {
    let key = rawKey;
    let isDeleteList = false;
    if (rawKey.startsWith(`${DELETE_FROM_PRIMITIVE_LIST}/`) || rawKey === DELETE_FROM_PRIMITIVE_LIST) {
      if (!options.mergeParallelList) {
        out[rawKey] = patchValue;
        continue;
      }
      key = extractKey(rawKey, DELETE_FROM_PRIMITIVE_LIST, ERR.primitiveList);
      isDeleteList = true;
    }
    if (patchValue === null) {
      delete out[key];
      if (options.ignoreUnmatchedNulls) continue;
    }
    if (!(key in out)) {
      // upstream would store the deletion list itself under the field; nothing to delete from is a no-op
      if (!isDeleteList) out[key] = patchValue;
      continue;
    }
    out[key] = mergeField(out[key], patchValue, lookupPatchField(structType, key), isDeleteList, options);
  }
  return out;
}

function mergeField(current: unknown, patchValue: unknown, field: PatchField, isDeleteList: boolean, options: MergeOptions): unknown {
  if (kindOf(current) !== kindOf(patchValue)) return patchValue;
  const strategy = strategyOf(field);
  if (isMap(current) && isMap(patchValue)) return strategy.replace ? patchValue : mergeMap(current, patchValue, field.type, options);
  if (Array.isArray(current) && Array.isArray(patchValue)) {
    return strategy.merge ? mergeSlice(current, patchValue, field, isDeleteList, options) : patchValue;
  }
  return patchValue;
}

/** handleDirectiveInMergeMap: "$patch: replace" keeps the patch alone, "delete" empties the map. */
function mapDirective(directive: unknown, patch: JsonMap): JsonMap {
  if (directive === 'replace') {
    delete patch[DIRECTIVE];
    return patch;
  }
  if (directive === 'delete') return {};
  throw new PatchFormatError(ERR.badPatchType(directive, patch));
}

function extractKey(key: string, prefix: string, error: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) throw new PatchFormatError(error);
  return key.slice(slash + 1);
}

/** applyRetainKeysDirective: clears the original's keys the $retainKeys list does not name. */
function applyRetainKeys(original: JsonMap, patch: JsonMap, options: MergeOptions): void {
  if (!(RETAIN_KEYS in patch)) return;
  const retain = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!options.mergeParallelList) {
    if (RETAIN_KEYS in original && goValue(original[RETAIN_KEYS]) !== goValue(retain)) {
      throw new PatchFormatError(`${goValue(original[RETAIN_KEYS])} and ${goValue(retain)} are not deep equal: this may happen when calculating the 3-way diff patch`);
    }
    original[RETAIN_KEYS] = retain;
    return;
  }
  if (!Array.isArray(retain)) throw new PatchFormatError(ERR.retainKeys);
  const kept = new Set(retain);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!kept.has(k)) throw new PatchFormatError(ERR.retainKeys);
  }
  for (const k of Object.keys(original)) if (!kept.has(k)) delete original[k];
}

/**
 * mergePatchIntoOriginal: each "$setElementOrder/<field>" merges its field's list now and puts
 * the result in the order the directive gives (precedence: the directive, then the patch, then
 * the live list). Client side, the directive is only carried over to the result.
 */
function mergeSetElementOrder(original: JsonMap, patch: JsonMap, structType: string | undefined, options: MergeOptions): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    if (!options.mergeParallelList) {
      if (key in original && goValue(original[key]) !== goValue(order)) throw new PatchFormatError(ERR.setElementOrder);
      original[key] = order;
    }
    delete patch[key];
    if (!Array.isArray(order)) throw new PatchFormatError(`${ERR.setElementOrder}`);
    const field = extractKey(key, SET_ELEMENT_ORDER, ERR.setElementOrder);
    const originalList = original[field];
    const patchList = patch[field];
    if (originalList !== undefined && !Array.isArray(originalList)) throw new PatchFormatError(`${ERR.setElementOrder}`);
    if (patchList !== undefined && !Array.isArray(patchList)) throw new PatchFormatError(`${ERR.setElementOrder}`);
    const meta = lookupPatchField(structType, field);
    const mergeKey = meta.mergeKey ?? '';
    validatePatchWithSetOrderList(patchList ?? [], order, mergeKey);
    let merged: unknown[];
    if (originalList !== undefined && patchList === undefined) merged = originalList;
    else if (originalList === undefined && patchList !== undefined) merged = patchList;
    else if (originalList !== undefined && patchList !== undefined) {
      merged = strategyOf(meta).merge ? mergeSlice(originalList, patchList, meta, false, options) : patchList;
    } else continue;
    const kind = elementKind(originalList ?? [], patchList ?? []);
    const [inPatch, serverOnly] = partition(merged, order, mergeKey);
    original[field] = kind === undefined ? merged : normalizeElementOrder(inPatch, serverOnly, order, originalList ?? [], mergeKey, kind);
    delete patch[field];
  }
}

/** validatePatchWithSetOrderList: the patch's items must come in the directive's relative order. */
function validatePatchWithSetOrderList(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? patchList.filter((v) => !(isMap(v) && v[DIRECTIVE] === 'delete')) : patchList;
  let p = 0;
  let o = 0;
  while (p < nonDelete.length && o < order.length) {
    const item = nonDelete[p];
    if (isMap(item) && DIRECTIVE in item) {
      p++;
      continue;
    }
    if (sameMergeKey(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < nonDelete.length && o >= order.length) {
    throw new PatchFormatError(`The order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goValue(order)}\n`);
  }
}

function sameMergeKey(a: unknown, b: unknown, mergeKey: string): boolean {
  if (!mergeKey) return a === b;
  if (!isMap(a) || !isMap(b)) throw new PatchFormatError(`invalid type for ${mergeKey} list item: ${goValue(isMap(a) ? b : a)}`);
  if (!(mergeKey in a)) throw new PatchFormatError(ERR.noMergeKey(a, mergeKey));
  if (!(mergeKey in b)) throw new PatchFormatError(ERR.noMergeKey(b, mergeKey));
  return a[mergeKey] === b[mergeKey];
}

/** sliceElementType: the one kind of all items; lists of lists and mixed lists are refused. */
export function elementKind(...lists: unknown[][]): JsonKind | undefined {
  let kind: JsonKind | undefined;
  for (const list of lists) {
    for (const v of list) {
      const k = kindOf(v);
      if (k === 'slice') throw new PatchFormatError(ERR.noListOfLists, 'invalid');
      if (kind !== undefined && kind !== k) throw new PatchFormatError(`list element types are not identical: ${goValue(lists)}`);
      kind = k;
    }
  }
  return kind;
}

/** mergeSlice for a list tagged patchStrategy "merge". */
function mergeSlice(original: unknown[], patch: unknown[], field: PatchField, isDeleteList: boolean, options: MergeOptions): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind(original, patch)!;
  const mergeKey = field.mergeKey ?? '';
  let base = original;
  let patchItems = patch;
  let merged: unknown[];
  if (kind !== 'map') {
    if (options.mergeParallelList && isDeleteList) {
      const drop = new Set(patch);
      return original.filter((v) => !drop.has(v));
    }
    merged = dedupeScalars([...original, ...patch]);
  } else {
    if (!mergeKey) throw new PatchFormatError('cannot merge lists without merge key for type map');
    [base, patchItems] = withSpecialElements(original, patch, mergeKey);
    merged = mergeByKey(base, patchItems, mergeKey, field.type, options);
  }
  const [inPatch, serverOnly] = partition(merged, patchItems, mergeKey);
  return normalizeElementOrder(inPatch, serverOnly, patchItems, base, mergeKey, kind);
}

/** mergeSliceWithSpecialElements: "$patch: delete" items remove their match, "$patch: replace" keeps the patch's items alone. */
function withSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let replace = false;
  let base = original;
  for (const item of patch) {
    const m = item as JsonMap;
    if (!(DIRECTIVE in m)) {
      plain.push(item);
      continue;
    }
    const directive = m[DIRECTIVE];
    if (directive === 'delete') {
      if (!(mergeKey in m)) throw new PatchFormatError(ERR.noMergeKey(m, mergeKey));
      base = base.filter((o) => !(isMap(o) && o[mergeKey] === m[mergeKey]));
    } else if (directive === 'replace') replace = true;
    else if (directive === 'merge') throw new PatchFormatError('merging lists cannot yet be specified in the patch');
    else throw new PatchFormatError(ERR.badPatchType(directive, m));
  }
  return replace ? [plain, []] : [base, plain];
}

/** mergeSliceWithoutSpecialElements: an item with a known merge key merges into its match, a new one is appended. */
function mergeByKey(original: unknown[], patch: unknown[], mergeKey: string, type: string | undefined, options: MergeOptions): unknown[] {
  const out = [...original];
  for (const item of patch) {
    const m = item as JsonMap;
    if (!(mergeKey in m)) throw new PatchFormatError(ERR.noMergeKey(m, mergeKey));
    const at = out.findIndex((o) => {
      if (!isMap(o)) throw new PatchFormatError(`value for key ${mergeKey} is not a map.`);
      return mergeKey in o && o[mergeKey] === m[mergeKey];
    });
    if (at >= 0) out[at] = mergeMap(out[at] as JsonMap, m, type, options);
    else out.push(item);
  }
  return out;
}

function dedupeScalars(list: unknown[]): unknown[] {
  return [...new Set(list)];
}

/** partition{Maps,Primitives}ByPresentInList: items the list names first, then the others. */
function partition(items: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const named = (v: unknown): boolean => (mergeKey ? by.some((b) => isMap(b) && isMap(v) && b[mergeKey] === v[mergeKey]) : by.includes(v));
  if (mergeKey) {
    for (const v of items) {
      if (!isMap(v)) throw new PatchFormatError(`invalid type for item: ${goValue(v)}`);
      if (!(mergeKey in v)) throw new PatchFormatError(ERR.noMergeKey(v, mergeKey));
    }
  }
  return [items.filter(named), items.filter((v) => !named(v))];
}

const keyOf = (v: unknown, mergeKey: string, kind: JsonKind): unknown => (kind === 'map' ? (isMap(v) ? v[mergeKey] : undefined) : v);

function indexIn(list: unknown[], v: unknown, mergeKey: string, kind: JsonKind): number {
  const want = keyOf(v, mergeKey, kind);
  return list.findIndex((x) => keyOf(x, mergeKey, kind) === want);
}

/**
 * normalizeElementOrder: the patch's items in the patch order, the server-only items in the live
 * order, then interleaved (mergeSortedSlice) so both relative orders hold.
 */
function normalizeElementOrder(patchItems: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, kind: JsonKind): unknown[] {
  const right = sortByOrder(patchItems, patchOrder, mergeKey, kind);
  const left = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** normalizeSliceOrder: a stable sort by position in order; "$patch: delete" items go last. */
export function sortByOrder(items: unknown[], order: unknown[], mergeKey: string, kind: JsonKind): unknown[] {
  const isDelete = (v: unknown): boolean => kind === 'map' && isMap(v) && v[DIRECTIVE] === 'delete';
  const keep = items.filter((v) => !isDelete(v));
  const position = (v: unknown): number => indexIn(order, v, mergeKey, kind);
  const sorted = keep
    .map((v, at) => ({ v, at, pos: position(v) }))
    .sort((a, b) => (a.pos >= 0 && b.pos >= 0 ? a.pos - b.pos : a.at - b.at))
    .map((e) => e.v);
  return [...sorted, ...items.filter(isDelete)];
}
