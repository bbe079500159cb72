// Status errors exactly as the API server returns them.
// mirrors staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (NewNotFound, NewInvalid, ...)
// and staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go (forbiddenMessage).
import { aggregateMessage, errorBody, type FieldError } from './field/errors.ts';
import type { Status, StatusDetails, StatusReason } from './types/status.ts';

/** A group and plural resource: { group: 'apps', resource: 'deployments' }. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** A group and kind: { group: 'apps', kind: 'Deployment' }. */
export interface GroupKind {
  group: string;
  kind: string;
}

/** GroupResource.String(): "pods", "deployments.apps". */
export const groupResourceString = (gr: GroupResource): string =>
  gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
/** GroupKind.String(): "Pod", "Deployment.apps". */
export const groupKindString = (gk: GroupKind): string =>
  gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;

/** The conflict text the storage layer returns on a stale resourceVersion (OptimisticLockErrorMsg). */
export const OPTIMISTIC_LOCK_ERROR_MSG =
  'the object has been modified; please apply your changes to the latest version and try again';

function failure(
  code: number,
  reason: StatusReason,
  message: string,
  details?: StatusDetails,
): Status {
  // upstream's JSON field order: kind, apiVersion, metadata, status, message, reason, details, code
  const head = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
  } as const;
  return details === undefined ? { ...head, code } : { ...head, details, code };
}

function resourceDetails(gr: GroupResource, name: string): StatusDetails {
  const d: StatusDetails = {};
  if (name !== '') d.name = name;
  if (gr.group !== '') d.group = gr.group;
  d.kind = gr.resource;
  return d;
}

/** 404: `pods "x" not found`. */
export function newNotFound(gr: GroupResource, name: string): Status {
  return failure(
    404,
    'NotFound',
    `${groupResourceString(gr)} ${JSON.stringify(name)} not found`,
    resourceDetails(gr, name),
  );
}

/** 409: `pods "x" already exists`. */
export function newAlreadyExists(gr: GroupResource, name: string): Status {
  return failure(
    409,
    'AlreadyExists',
    `${groupResourceString(gr)} ${JSON.stringify(name)} already exists`,
    resourceDetails(gr, name),
  );
}

/** 409: `Operation cannot be fulfilled on pods "x": the object has been modified; ...`. */
export function newConflict(
  gr: GroupResource,
  name: string,
  err: string = OPTIMISTIC_LOCK_ERROR_MSG,
): Status {
  const target =
    name === '' ? groupResourceString(gr) : `${groupResourceString(gr)} ${JSON.stringify(name)}`;
  return failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${target}: ${err}`,
    resourceDetails(gr, name),
  );
}

/** 422: `Pod "x" is invalid: [spec.containers[0].image: Required value, ...]` with one cause per field error. */
export function newInvalid(gk: GroupKind, name: string, errs: readonly FieldError[]): Status {
  const causes = errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  const aggregate = aggregateMessage(errs);
  const message = `${groupKindString(gk)} ${JSON.stringify(name)} is invalid${aggregate === '' ? '' : `: ${aggregate}`}`;
  const details: StatusDetails = {};
  if (name !== '') details.name = name;
  if (gk.group !== '') details.group = gk.group;
  details.kind = gk.kind;
  if (causes.length) details.causes = causes;
  return failure(422, 'Invalid', message, details);
}

/** 403: `pods "x" is forbidden: User "bob" cannot delete resource "pods" ...`. */
export function newForbidden(gr: GroupResource | undefined, name: string, err: string): Status {
  if (!gr || (gr.group === '' && gr.resource === ''))
    return failure(403, 'Forbidden', `forbidden: ${err}`, { name });
  const target =
    name === '' ? groupResourceString(gr) : `${groupResourceString(gr)} ${JSON.stringify(name)}`;
  return failure(403, 'Forbidden', `${target} is forbidden: ${err}`, resourceDetails(gr, name));
}

/** What the authorizer denial says (forbiddenMessage); `reason` is the authorizer's, appended after ": ". */
export function forbiddenMessage(a: {
  user: string;
  verb: string;
  resource?: string;
  subresource?: string;
  group?: string;
  namespace?: string;
  path?: string;
  reason?: string;
}): string {
  let msg: string;
  if (a.resource === undefined) {
    msg = `User ${JSON.stringify(a.user)} cannot ${a.verb} path ${JSON.stringify(a.path ?? '')}`;
  } else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const head = `User ${JSON.stringify(a.user)} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.group ?? '')}`;
    msg = a.namespace
      ? `${head} in the namespace ${JSON.stringify(a.namespace)}`
      : `${head} at the cluster scope`;
  }
  return a.reason ? `${msg}: ${a.reason}` : msg;
}

/** 400 with the message as given. */
export function newBadRequest(reason: string): Status {
  return failure(400, 'BadRequest', reason);
}

/** 401. */
export function newUnauthorized(reason: string): Status {
  return failure(401, 'Unauthorized', reason === '' ? 'not authorized' : reason);
}

/** 410 Gone. */
export function newGone(message: string): Status {
  return failure(410, 'Gone', message);
}

/** 410 Expired: what a watch from a compacted revision gets ("too old resource version: 5 (10)"). */
export function newResourceExpired(message: string): Status {
  return failure(410, 'Expired', message);
}

/** The storage layer's message for a watch/list below the compacted revision. */
export const tooOldResourceVersion = (requested: number, current: number): string =>
  `too old resource version: ${requested} (${current})`;

/** 504: `Timeout: <message>`. */
export function newTimeout(message: string, retryAfterSeconds = 0): Status {
  return failure(504, 'Timeout', `Timeout: ${message}`, { retryAfterSeconds });
}

/** 500 ServerTimeout: `The get operation against pods could not be completed at this time, please try again.` */
export function newServerTimeout(
  gr: GroupResource,
  operation: string,
  retryAfterSeconds: number,
): Status {
  const message = `The ${operation} operation against ${groupResourceString(gr)} could not be completed at this time, please try again.`;
  const details: StatusDetails = { name: operation };
  if (gr.group !== '') details.group = gr.group;
  details.kind = gr.resource;
  details.retryAfterSeconds = retryAfterSeconds;
  return failure(500, 'ServerTimeout', message, details);
}

/** 429 with Retry-After seconds. */
export function newTooManyRequests(message: string, retryAfterSeconds: number): Status {
  return failure(429, 'TooManyRequests', message, { retryAfterSeconds });
}

/** 405: `delete is not supported on resources of kind "pods"`. */
export function newMethodNotSupported(gr: GroupResource, action: string): Status {
  const details: StatusDetails = {};
  if (gr.group !== '') details.group = gr.group;
  details.kind = gr.resource;
  return failure(
    405,
    'MethodNotAllowed',
    `${action} is not supported on resources of kind ${JSON.stringify(groupResourceString(gr))}`,
    details,
  );
}

/** 500: `Internal error occurred: <err>`. */
export function newInternalError(err: string): Status {
  return failure(500, 'InternalError', `Internal error occurred: ${err}`, {
    causes: [{ message: err }],
  });
}

/** 503. */
export function newServiceUnavailable(reason: string): Status {
  return failure(503, 'ServiceUnavailable', reason);
}

/** A success Status (e.g. the body of some DELETE responses). */
export function newSuccess(details?: StatusDetails): Status {
  const s: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    code: 200,
  };
  if (details) s.details = details;
  return s;
}

/** True for a Status object (any value with kind "Status" and a numeric code). */
export function isStatus(v: unknown): v is Status {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as Status).kind === 'Status' &&
    typeof (v as Status).code === 'number'
  );
}

export const reasonOf = (v: unknown): StatusReason | undefined =>
  isStatus(v) ? v.reason : undefined;
export const isNotFound = (v: unknown): boolean => reasonOf(v) === 'NotFound';
export const isAlreadyExists = (v: unknown): boolean => reasonOf(v) === 'AlreadyExists';
export const isConflict = (v: unknown): boolean => reasonOf(v) === 'Conflict';
export const isInvalid = (v: unknown): boolean => reasonOf(v) === 'Invalid';
export const isForbidden = (v: unknown): boolean => reasonOf(v) === 'Forbidden';
export const isResourceExpired = (v: unknown): boolean =>
  reasonOf(v) === 'Expired' || reasonOf(v) === 'Gone';
