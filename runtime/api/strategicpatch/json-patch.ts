// JSON Patch (RFC 6902), the body of PATCH with Content-Type application/json-patch+json.
// The API server applies it with github.com/evanphx/json-patch (staging/src/k8s.io/apiserver/pkg/
// endpoints/handlers/patch.go, jsonPatcher); the operations and JSON Pointer rules (RFC 6901: "~1"
// is "/", "~0" is "~", "-" appends to an array) are the RFC's; error texts follow evanphx's wording.
import { clone, deepEqual, isMap, type JsonMap } from './json.ts';

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** Decoding failures are 400s upstream; failing operations are 422s. */
export type JsonPatchResult = { ok: true; value: JsonMap } | { ok: false; error: string; kind: 'bad-request' | 'invalid' };

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** jsonpatch.DecodePatch: a list of operation objects. */
export function decodeJsonPatch(body: unknown): { ok: true; ops: JsonPatchOperation[] } | { ok: false; error: string } {
  if (!Array.isArray(body)) return { ok: false, error: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' };
  for (const op of body) {
    if (!isMap(op)) return { ok: false, error: 'json: cannot unmarshal into Go value of type jsonpatch.Operation' };
  }
  return { ok: true, ops: body as JsonPatchOperation[] };
}

class OperationError extends Error {}

/** Applies the operations in order to a copy of doc; the first failure fails the whole patch. */
export function applyJsonPatch(doc: JsonMap, body: unknown): JsonPatchResult {
  const decoded = decodeJsonPatch(body);
  if (!decoded.ok) return { ok: false, error: decoded.error, kind: 'bad-request' };
  let root: unknown = clone(doc);
  try {
    for (const op of decoded.ops) root = applyOne(root, op);
  } catch (e) {
    if (e instanceof OperationError) return { ok: false, error: e.message, kind: 'invalid' };
    throw e;
  }
  if (!isMap(root)) return { ok: false, error: 'the patch replaced the whole object with a non-object', kind: 'invalid' };
  return { ok: true, value: root };
}

function applyOne(root: unknown, op: JsonPatchOperation): unknown {
  if (!OPS.has(op.op)) throw new OperationError(`Unexpected kind: ${String(op.op)}`);
  if (typeof op.path !== 'string') throw new OperationError(`${op.op} operation failed to decode path`);
  switch (op.op) {
    case 'add':
      return add(root, op.path, clone(requireValue(op)), 'add');
    case 'remove':
      return remove(root, op.path, 'remove').root;
    case 'replace':
      get(root, op.path, `replace operation does not apply: doc is missing key: ${op.path}`);
      return set(root, op.path, clone(requireValue(op)));
    case 'move': {
      const from = requireFrom(op);
      const taken = remove(root, from, 'move');
      return add(taken.root, op.path, taken.value, 'move');
    }
    case 'copy':
      return add(root, op.path, clone(get(root, requireFrom(op), `copy operation does not apply: doc is missing from path: ${requireFrom(op)}`)), 'copy');
    case 'test': {
      const actual = get(root, op.path, `testing value ${op.path} failed: test failed`);
      if (!deepEqual(actual, op.value ?? null)) throw new OperationError(`testing value ${op.path} failed: test failed`);
      return root;
    }
  }
}

function requireValue(op: JsonPatchOperation): unknown {
  if (!('value' in op)) throw new OperationError(`${op.op} operation has no value`);
  return op.value;
}

function requireFrom(op: JsonPatchOperation): string {
  if (typeof op.from !== 'string') throw new OperationError(`${op.op} operation failed to decode from`);
  return op.from;
}

/** RFC 6901 tokens of a JSON Pointer ("" is the whole document). */
function tokens(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new OperationError(`JSON pointer must be empty or start with a "/": ${path}`);
  return path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function child(container: unknown, token: string): unknown {
  if (Array.isArray(container)) {
    const i = arrayIndex(token, container.length - 1);
    return i === undefined ? undefined : container[i];
  }
  if (isMap(container)) return Object.prototype.hasOwnProperty.call(container, token) ? container[token] : undefined;
  return undefined;
}

function arrayIndex(token: string, max: number): number | undefined {
  if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
  const i = Number(token);
  return i <= max ? i : undefined;
}

function get(root: unknown, path: string, missing: string): unknown {
  let at = root;
  for (const t of tokens(path)) {
    at = child(at, t);
    if (at === undefined) throw new OperationError(missing);
  }
  return at;
}

/** The container of the pointer's last token, and that token. */
function parentOf(root: unknown, path: string, missing: string): { parent: unknown; last: string } {
  const ts = tokens(path);
  const last = ts.pop()!;
  let at = root;
  for (const t of ts) {
    at = child(at, t);
    if (at === undefined) throw new OperationError(missing);
  }
  return { parent: at, last };
}

function add(root: unknown, path: string, value: unknown, op: string): unknown {
  if (path === '') return value;
  const missing = `${op} operation does not apply: doc is missing path: "${path}"`;
  const { parent, last } = parentOf(root, path, missing);
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : arrayIndex(last, parent.length);
    if (i === undefined) throw new OperationError(`Unable to access invalid index: ${last}`);
    parent.splice(i, 0, value);
  } else if (isMap(parent)) parent[last] = value;
  else throw new OperationError(missing);
  return root;
}

function set(root: unknown, path: string, value: unknown): unknown {
  if (path === '') return value;
  const { parent, last } = parentOf(root, path, `replace operation does not apply: doc is missing key: ${path}`);
  if (Array.isArray(parent)) parent[arrayIndex(last, parent.length - 1)!] = value;
  else (parent as JsonMap)[last] = value;
  return root;
}

function remove(root: unknown, path: string, op: string): { root: unknown; value: unknown } {
  const missing = `${op} operation does not apply: doc is missing path: "${path}"`;
  if (path === '') throw new OperationError(missing);
  const { parent, last } = parentOf(root, path, missing);
  if (Array.isArray(parent)) {
    const i = arrayIndex(last, parent.length - 1);
    if (i === undefined) throw new OperationError(`Unable to remove invalid index: ${last}`);
    return { root, value: parent.splice(i, 1)[0] };
  }
  if (!isMap(parent) || !Object.prototype.hasOwnProperty.call(parent, last)) throw new OperationError(missing);
  const value = parent[last];
  delete parent[last];
  return { root, value };
}
