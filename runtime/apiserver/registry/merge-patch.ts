// JSON merge patch (RFC 7386): objects merge key by key, null deletes, anything else replaces
// (lists included). Strategic merge patch, which merges tagged lists, is in strategic-merge-patch.ts.

type Json = unknown;
const isObj = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function mergePatch(target: Json, patch: Json): Json {
  if (!isObj(patch)) return patch;
  const out: Record<string, Json> = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
