// The three patch types the API server accepts, applied to the current object.
// mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go (patchMechanism:
// jsonPatcher for application/json-patch+json and application/merge-patch+json, smpPatcher for
// application/strategic-merge-patch+json, interpretStrategicMergePatchError, the 415 for unknown
// types). Every kind we serve is built in, so strategic merge patch works for all of them with the
// patch tags of runtime/api/strategicpatch/tags.ts; upstream refuses it only for custom resources
// (415), which this simulation does not serve.
import {
  applyJsonPatch,
  newBadRequest,
  patchStructForKind,
  strategicMergePatch,
  type Status,
} from '../../api/index.ts';
import type { PatchType } from '../request.ts';
import { mergePatch } from './merge-patch.ts';

export const PATCH_TYPES: readonly PatchType[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];

export type PatchOutcome = { ok: true; object: Record<string, unknown> } | { ok: false; status: Status };

const status = (code: number, reason: Status['reason'], message: string, details?: Status['details']): Status => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code,
});

/** 415 for a Content-Type the patch handler does not know. */
export function unsupportedPatchType(): Status {
  return status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES.join(', ')}`);
}

/** NewGenericServerResponse(422, ...) as patch.go builds it: the operation's own message is not sent back. */
function rejected(): Status {
  return status(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
}

/** The strategic merge patch errors upstream turns into 400s (interpretStrategicMergePatchError). */
const BAD_REQUEST_ERRORS = new Set([
  'invalid JSON document',
  'invalid patch format of primitive list',
  'invalid patch format of retainKeys',
  'invalid patch format of setElementOrder list',
]);

/**
 * Applies the patch body to current (not modified). kind picks the struct tags; type undefined
 * means merge patch (our in-process controllers always name it; a real request must).
 */
export function applyPatch(type: PatchType | undefined, current: Record<string, unknown>, body: unknown, kind: string): PatchOutcome {
  const patchType = type ?? 'application/merge-patch+json';
  if (!PATCH_TYPES.includes(patchType)) return { ok: false, status: unsupportedPatchType() };
  if (patchType === 'application/json-patch+json') {
    const r = applyJsonPatch(current, body);
    if (r.ok) return { ok: true, object: r.value };
    return { ok: false, status: r.kind === 'bad-request' ? newBadRequest(r.error) : rejected() };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, status: newBadRequest('error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}') };
  }
  if (patchType === 'application/merge-patch+json') return { ok: true, object: mergePatch(current, body) as Record<string, unknown> };
  const r = strategicMergePatch(current, body as Record<string, unknown>, patchStructForKind(kind));
  if (r.ok) return { ok: true, object: r.value };
  if (BAD_REQUEST_ERRORS.has(r.error)) return { ok: false, status: newBadRequest(r.error) };
  if (r.kind === 'invalid') return { ok: false, status: rejected() };
  // any other merge error reaches the client as a plain error: 500 with its text and no reason
  return { ok: false, status: status(500, '', r.error) };
}
