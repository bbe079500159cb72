// The JSON merge patch (RFC 7386) that turns one document into another.
// mirrors github.com/evanphx/json-patch CreateMergePatch, which kubectl label and annotate send:
// changed or added keys carry the new value, removed keys null, maps are diffed key by key and
// lists are sent whole when they differ.
import { deepEqual, isMap, type JsonMap } from './json.ts';

export function createMergePatch(original: JsonMap, modified: JsonMap): JsonMap {
  const patch: JsonMap = {};
  for (const [key, value] of Object.entries(modified)) {
    const before = original[key];
    if (key in original && deepEqual(before, value)) continue;
    if (isMap(before) && isMap(value)) {
      const inner = createMergePatch(before, value);
      if (Object.keys(inner).length > 0) patch[key] = inner;
    } else patch[key] = value;
  }
  for (const key of Object.keys(original)) if (!(key in modified)) patch[key] = null;
  return patch;
}
