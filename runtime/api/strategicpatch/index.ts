// Patches as apimachinery defines them, shared by the API server (applying) and kubectl
// (computing): strategic merge patch with the API types' patch tags, and JSON Patch (RFC 6902).
export { strategicMergePatch, DIRECTIVE, RETAIN_KEYS, DELETE_FROM_PRIMITIVE_LIST, SET_ELEMENT_ORDER } from './apply.ts';
export type { PatchResult } from './apply.ts';
export { createThreeWayMergePatch, createTwoWayMergePatch } from './diff.ts';
export type { DiffResult } from './diff.ts';
export { applyJsonPatch } from './json-patch.ts';
export { createMergePatch } from './merge-diff.ts';
export type { JsonPatchOperation, JsonPatchResult } from './json-patch.ts';
export { PATCH_STRUCTS, lookupPatchField, patchStructForKind } from './tags.ts';
export type { PatchField, PatchStrategyTag, PatchStruct } from './tags.ts';
