// Computing a strategic merge patch, the client side (kubectl apply).
// mirrors staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (CreateThreeWayMergePatch,
// CreateTwoWayMergeMapPatch, diffMaps, diffLists, diffListsOfMaps, diffListsOfScalars): the patch
// is the change from the live object to the new configuration without deletions (so fields only
// the server or other writers set survive), plus the deletions from the last-applied
// configuration to the new one (so fields the user dropped from the file go away).
import { DELETE_FROM_PRIMITIVE_LIST, DIRECTIVE, elementKind, mergeMap, RETAIN_KEYS, SET_ELEMENT_ORDER, sortByOrder } from './apply.ts';
import { clone, deepEqual, ERR, goValue, isMap, kindOf, PatchFormatError, type JsonMap } from './json.ts';
import { lookupPatchField, type PatchField } from './tags.ts';

interface DiffOptions {
  /** Add "$setElementOrder/<field>" for merging lists whose content or order changed. */
  setElementOrder: boolean;
  ignoreChangesAndAdditions: boolean;
  ignoreDeletions: boolean;
  /** Add "$retainKeys" (set per field from its retainKeys strategy). */
  buildRetainKeys: boolean;
}

export type DiffResult = { ok: true; patch: JsonMap } | { ok: false; error: string };

function guarded(compute: () => JsonMap): DiffResult {
  try {
    return { ok: true, patch: compute() };
  } catch (e) {
    if (e instanceof PatchFormatError) return { ok: false, error: e.message };
    throw e;
  }
}

/** CreateThreeWayMergePatch with overwrite (kubectl apply's default): original = last applied, modified = new config, current = live. */
export function createThreeWayMergePatch(original: JsonMap, modified: JsonMap, current: JsonMap, structType: string): DiffResult {
  return guarded(() => {
    const base: DiffOptions = { setElementOrder: true, ignoreChangesAndAdditions: false, ignoreDeletions: false, buildRetainKeys: false };
    const delta = diffMaps(current, modified, structType, { ...base, ignoreDeletions: true });
    const deletions = diffMaps(original, modified, structType, { ...base, ignoreChangesAndAdditions: true });
    return mergeMap(clone(deletions), clone(delta), structType, { mergeParallelList: false, ignoreUnmatchedNulls: false });
  });
}

/** CreateTwoWayMergeMapPatch: the patch that turns original into modified. */
export function createTwoWayMergePatch(original: JsonMap, modified: JsonMap, structType: string): DiffResult {
  return guarded(() => diffMaps(original, modified, structType, { setElementOrder: true, ignoreChangesAndAdditions: false, ignoreDeletions: false, buildRetainKeys: false }));
}

function diffMaps(original: JsonMap, modified: JsonMap, structType: string | undefined, options: DiffOptions): JsonMap {
  const patch: JsonMap = {};
  const retainKeys: string[] = [];
  for (const [key, modifiedValue] of Object.entries(modified)) {
    if (options.buildRetainKeys && modifiedValue !== null) retainKeys.push(key);
    if (!(key in original)) {
      if (!options.ignoreChangesAndAdditions) patch[key] = modifiedValue;
      continue;
    }
    const originalValue = original[key];
    if (key === DIRECTIVE) {
      if (typeof originalValue !== 'string' || typeof modifiedValue !== 'string') throw new PatchFormatError(`invalid value for special key: ${DIRECTIVE}`);
      if (originalValue !== modifiedValue) patch[DIRECTIVE] = modifiedValue;
      continue;
    }
    if (kindOf(originalValue) !== kindOf(modifiedValue)) {
      if (!options.ignoreChangesAndAdditions) patch[key] = modifiedValue;
      continue;
    }
    const field = lookupPatchField(structType, key);
    if (isMap(originalValue) && isMap(modifiedValue)) diffMapField(key, originalValue, modifiedValue, field, patch, options);
    else if (Array.isArray(originalValue) && Array.isArray(modifiedValue)) diffListField(key, originalValue, modifiedValue, field, patch, options);
    else replaceIfNotEqual(key, originalValue, modifiedValue, patch, options);
  }
  if (!options.ignoreDeletions) for (const key of Object.keys(original)) if (!(key in modified)) patch[key] = null;
  const originalHasMore = Object.entries(original).some(([k, v]) => v !== null && !(k in modified));
  if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || originalHasMore)) patch[RETAIN_KEYS] = sortScalars(retainKeys);
  return patch;
}

const strategyParts = (f: PatchField): string[] => (f.strategy ?? '').split(',');

function diffMapField(key: string, original: JsonMap, modified: JsonMap, field: PatchField, patch: JsonMap, options: DiffOptions): void {
  const parts = strategyParts(field);
  if (parts.includes('replace')) {
    if (!options.ignoreChangesAndAdditions) patch[key] = modified;
    return;
  }
  const value = diffMaps(original, modified, field.type, { ...options, buildRetainKeys: parts.includes('retainKeys') });
  if (Object.keys(value).length > 0) patch[key] = value;
}

function diffListField(key: string, original: unknown[], modified: unknown[], field: PatchField, patch: JsonMap, options: DiffOptions): void {
  const parts = strategyParts(field);
  if (!parts.includes('merge')) return replaceIfNotEqual(key, original, modified, patch, options);
  const [add, del, order] = diffLists(original, modified, field, { ...options, buildRetainKeys: parts.includes('retainKeys') });
  if (add.length > 0) patch[key] = add;
  if (del.length > 0) patch[`${DELETE_FROM_PRIMITIVE_LIST}/${key}`] = del;
  if (order.length > 0) patch[`${SET_ELEMENT_ORDER}/${key}`] = order;
}

function replaceIfNotEqual(key: string, original: unknown, modified: unknown, patch: JsonMap, options: DiffOptions): void {
  if (options.ignoreChangesAndAdditions || deepEqual(original, modified)) return;
  patch[key] = modified;
}

/** diffLists: the items to send, the strings to delete, and the order to set. */
function diffLists(original: unknown[], modified: unknown[], field: PatchField, options: DiffOptions): [unknown[], unknown[], unknown[]] {
  if (original.length === 0) {
    if (modified.length === 0 || options.ignoreChangesAndAdditions) return [[], [], []];
    return [modified, [], []];
  }
  const kind = elementKind(original, modified)!;
  const mergeKey = field.mergeKey ?? '';
  if (kind === 'map') {
    const [changed, deleted] = diffListsOfMaps(original, modified, field, options);
    const patchList = [...sortByOrder(changed, modified, mergeKey, kind), ...deleted];
    const orderSame = original.length === modified.length && original.every((o, i) => sameKey(o, modified[i], mergeKey));
    const wantOrder = options.setElementOrder &&
      ((!options.ignoreChangesAndAdditions && (patchList.length > 0 || !orderSame)) || (!options.ignoreDeletions && patchList.length > 0));
    return [patchList, [], wantOrder ? modified.map((v) => ({ [mergeKey]: (v as JsonMap)[mergeKey] })) : []];
  }
  const [added, deleted] = diffListsOfScalars(original, modified, options);
  const wantOrder = options.setElementOrder &&
    ((!options.ignoreDeletions && deleted.length > 0) || (!options.ignoreChangesAndAdditions && !deepEqual(original, modified)));
  return [sortByOrder(added, modified, mergeKey, kind), deleted, wantOrder ? modified : []];
}

function sameKey(a: unknown, b: unknown, mergeKey: string): boolean {
  if (!isMap(a) || !isMap(b)) return false;
  if (!(mergeKey in a)) throw new PatchFormatError(ERR.noMergeKey(a, mergeKey));
  if (!(mergeKey in b)) throw new PatchFormatError(ERR.noMergeKey(b, mergeKey));
  return a[mergeKey] === b[mergeKey];
}

/** Go's %v text, by which upstream sorts and compares list items. */
const text = (v: unknown): string => goValue(v);
const byText = (a: unknown, b: unknown): number => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0);
const sortScalars = (list: unknown[]): unknown[] => [...list].sort(byText);

/** diffListsOfScalars: a merge walk over both lists sorted by their text. */
function diffListsOfScalars(original: unknown[], modified: unknown[], options: DiffOptions): [unknown[], unknown[]] {
  const o = sortScalars(original);
  const m = sortScalars(modified);
  const added: unknown[] = [];
  const deleted: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < o.length || j < m.length) {
    if (i < o.length && j < m.length && text(o[i]) === text(m[j])) {
      i++;
      j++;
    } else if (i >= o.length || (j < m.length && text(o[i]) > text(m[j]))) {
      if (!options.ignoreChangesAndAdditions) added.push(m[j]);
      j++;
    } else {
      if (!options.ignoreDeletions) deleted.push(o[i]);
      i++;
    }
  }
  return [added, [...new Set(deleted)]];
}

/** diffListsOfMaps: matched items diffed recursively (keeping the merge key), new items whole, dropped items as "$patch: delete". */
function diffListsOfMaps(original: unknown[], modified: unknown[], field: PatchField, options: DiffOptions): [unknown[], unknown[]] {
  const mergeKey = field.mergeKey ?? '';
  const keyText = (v: unknown): string => {
    if (!isMap(v)) throw new PatchFormatError(`invalid type for list item: ${goValue(v)}`);
    if (!(mergeKey in v)) throw new PatchFormatError(ERR.noMergeKey(v, mergeKey));
    return text(v[mergeKey]);
  };
  const byKey = (a: unknown, b: unknown): number => (keyText(a) < keyText(b) ? -1 : keyText(a) > keyText(b) ? 1 : 0);
  const o = [...original].sort(byKey) as JsonMap[];
  const m = [...modified].sort(byKey) as JsonMap[];
  const changed: unknown[] = [];
  const deleted: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < o.length || j < m.length) {
    if (i < o.length && j < m.length && keyText(o[i]) === keyText(m[j])) {
      const value = diffMaps(o[i]!, m[j]!, field.type, options);
      if (Object.keys(value).length > 0) changed.push({ ...value, [mergeKey]: m[j]![mergeKey] });
      i++;
      j++;
    } else if (i >= o.length || (j < m.length && keyText(o[i]) > keyText(m[j]))) {
      if (!options.ignoreChangesAndAdditions) changed.push(m[j]);
      j++;
    } else {
      if (!options.ignoreDeletions) deleted.push({ [mergeKey]: o[i]![mergeKey], [DIRECTIVE]: 'delete' });
      i++;
    }
  }
  return [changed, deleted];
}
