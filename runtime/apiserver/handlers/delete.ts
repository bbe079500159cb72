// DELETE and DELETECOLLECTION.
// mirrors staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (Delete,
// updateForGracefulDeletionAndFinalizers) and rest/delete.go (BeforeDelete):
// - an object with finalizers (or deleted with propagationPolicy Foreground / Orphan, which add the
//   "foregroundDeletion" / "orphan" finalizer) only gets deletionTimestamp; it is removed when an
//   update drops the last finalizer;
// - a pod bound to a node is deleted gracefully: deletionTimestamp = now + grace period, and the
//   kubelet finishes the deletion with gracePeriodSeconds=0;
// - a namespace goes Terminating until the namespace controller empties spec.finalizers.
// Background cascading deletion of dependents (ownerReferences) is the garbage collector
// controller's job, as upstream: the API server only deletes the object itself. The work admission
// deferred (AdmissionAttributes.onFinish) runs once etcd answered, like AfterDelete upstream.
import { apiVersionOf, newConflict, newNotFound, newSuccess, rfc3339, type KubeObject, type Pod, type Status } from '../../api/index.ts';
import { AttemptsFinish, NOT_STORED, type WriteFinish } from '../admission/finish.ts';
import { jsonClone } from '../encoding.ts';
import { storagePrefix } from '../resources.ts';
import type { Current, UpdateDecision } from '../storage/etcd-store.ts';
import { listRange } from '../storage/keys.ts';
import { buildPredicate, matches } from '../watch-cache/filter.ts';
import { refuseSystemPriorityClassDelete } from '../bootstrap-priority-classes.ts';
import { admissionAttributes, groupResource, isDryRun, keyOf, runAdmission, type Scope } from './scope.ts';

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';
/** Resources whose DELETE answers with the object (ReturnDeletedObject), others with a Status. */
const RETURNS_OBJECT = new Set(['pods', 'namespaces']);

/** The metav1.DeleteOptions fields a delete honours. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  /** The delete happens only if the object still has this uid / resourceVersion (else 409). */
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

/** The request's options: the DeleteOptions body, with the query's values over it (as the handler decodes them). */
function requestDeleteOptions(s: Scope): DeleteOptions {
  const body = (typeof s.req.body === 'object' && s.req.body !== null ? s.req.body : {}) as {
    gracePeriodSeconds?: unknown; preconditions?: { uid?: unknown; resourceVersion?: unknown }; dryRun?: unknown;
  };
  const options: DeleteOptions = { dryRun: isDryRun(s) || (Array.isArray(body.dryRun) && body.dryRun.includes('All')) };
  const grace = s.req.query?.gracePeriodSeconds ?? body.gracePeriodSeconds;
  if (typeof grace === 'number') options.gracePeriodSeconds = grace;
  const pre = body.preconditions;
  if (pre && (typeof pre.uid === 'string' || typeof pre.resourceVersion === 'string')) {
    options.preconditions = {};
    if (typeof pre.uid === 'string') options.preconditions.uid = pre.uid;
    if (typeof pre.resourceVersion === 'string') options.preconditions.resourceVersion = pre.resourceVersion;
  }
  return options;
}

export function handleDelete(s: Scope): void {
  const name = s.req.name ?? '';
  const refused = refuseSystemPriorityClassDelete(s.resource, name);
  if (refused) return s.fail(refused);
  deleteOne(s, s.req.namespace, name, requestDeleteOptions(s), (result) => {
    if ('status' in result) return s.fail(result.status);
    s.respond(200, respondBody(s, result.object, result.deleted));
  });
}

function respondBody(s: Scope, obj: KubeObject, deleted: boolean): KubeObject | ReturnType<typeof newSuccess> {
  if (!deleted || RETURNS_OBJECT.has(s.resource.resource)) return obj;
  const details: { name?: string; group?: string; kind: string; uid?: string } = { kind: s.resource.resource };
  if (obj.metadata.name) details.name = obj.metadata.name;
  if (s.resource.group) details.group = s.resource.group;
  if (obj.metadata.uid) details.uid = obj.metadata.uid;
  return newSuccess(details);
}

export type DeleteResult = { object: KubeObject; deleted: boolean } | { status: ReturnType<typeof newNotFound> };

/** Deletes pod `name` of the request's namespace with explicit options (the eviction subresource's delete). */
export function deletePod(s: Scope, name: string, options: DeleteOptions, done: (r: DeleteResult) => void): void {
  deleteOne(s, s.req.namespace, name, options, done);
}

function deleteOne(s: Scope, namespace: string | undefined, name: string, options: DeleteOptions, done: (r: DeleteResult) => void): void {
  const key = keyOf(s, namespace, name);
  // admission's deferred work (a Service's IPs and ports) runs once the delete is stored, or undone
  const attempts = new AttemptsFinish();
  s.store.guaranteedUpdate(
    key,
    (current, answer) => attempts.nextAttempt((finish) => decideDelete(s, current, name, options, finish, answer)),
    (r) => {
      if (!r.ok) return attempts.settle(NOT_STORED, () => done({ status: r.status }));
      const obj = r.value.object!;
      s.stage('Storage', r.value.deleted ? `etcd txn delete ${key} at revision ${obj.metadata.resourceVersion}` : `etcd txn put ${key}: deletionTimestamp ${obj.metadata.deletionTimestamp ?? ''}`);
      attempts.settle({ committed: true, deleted: r.value.deleted }, () => done({ object: obj, deleted: r.value.deleted }));
    },
  );
}

function decideDelete(
  s: Scope, current: Current | undefined, name: string, options: DeleteOptions, finish: WriteFinish, answer: (d: UpdateDecision) => void,
): void {
  if (!current) return answer({ action: 'abort', status: newNotFound(groupResource(s), name) });
  const cur = current.object;
  const failed = preconditionFailure(s, cur, name, options);
  if (failed) return answer({ action: 'abort', status: failed });
  runAdmission(s, 'validating', finish.attach(admissionAttributes(s, 'DELETE', name, undefined, cur)), (err) => {
    if (err) return answer({ action: 'abort', status: err });
    const next = markForDeletion(s, cur, options);
    if (options.dryRun) return answer({ action: 'noop', object: next ?? cur });
    if (next === undefined) return answer({ action: 'delete' });
    if (next === cur) return answer({ action: 'noop', object: cur });
    answer({ action: 'put', object: next });
  });
}

/**
 * storage.Preconditions.Check: a uid or resourceVersion the object no longer has is an invalid-object
 * storage error, which the store turns into a 409 Conflict (store.go Delete, interpretDeleteError).
 */
function preconditionFailure(s: Scope, cur: KubeObject, name: string, options: DeleteOptions): Status | undefined {
  const pre = options.preconditions;
  if (!pre) return undefined;
  const m = cur.metadata;
  let mismatch: string | undefined;
  if (pre.uid !== undefined && pre.uid !== (m.uid ?? '')) mismatch = `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${m.uid ?? ''}`;
  else if (pre.resourceVersion !== undefined && pre.resourceVersion !== (m.resourceVersion ?? '')) {
    mismatch = `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${m.resourceVersion ?? ''}`;
  }
  if (mismatch === undefined) return undefined;
  const key = keyOf(s, m.namespace, name);
  return newConflict(groupResource(s), name, `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${mismatch}`);
}

/**
 * What deleting `cur` writes: undefined to remove it now, `cur` itself when nothing changes
 * (deletion already in progress), or a copy with deletionTimestamp set.
 */
function markForDeletion(s: Scope, cur: KubeObject, options: DeleteOptions): KubeObject | undefined {
  const q = s.req.query ?? {};
  const finalizers = [...(cur.metadata.finalizers ?? [])];
  if (q.propagationPolicy === 'Foreground' && !finalizers.includes(FOREGROUND)) finalizers.push(FOREGROUND);
  if (q.propagationPolicy === 'Orphan' && !finalizers.includes(ORPHAN)) finalizers.push(ORPHAN);
  const nsFinalizers = cur.kind === 'Namespace' ? ((cur as { spec?: { finalizers?: string[] } }).spec?.finalizers ?? []) : [];
  const grace = podGraceSeconds(cur, options);
  const pending = finalizers.length > 0 || nsFinalizers.length > 0;
  if (!pending && grace === 0) return undefined;
  if (cur.metadata.deletionTimestamp) {
    const shorter = grace < (cur.metadata.deletionGracePeriodSeconds ?? 0);
    if (!shorter && finalizers.length === (cur.metadata.finalizers ?? []).length) return cur;
    if (grace === 0 && !pending) return undefined;
  }
  const next = jsonClone(cur)!;
  next.metadata.finalizers = finalizers;
  if (finalizers.length === 0) delete next.metadata.finalizers;
  next.metadata.deletionTimestamp = rfc3339(s.nowMs() + grace * 1000);
  next.metadata.deletionGracePeriodSeconds = grace;
  if (next.metadata.generation !== undefined && !cur.metadata.deletionTimestamp) next.metadata.generation++;
  if (next.kind === 'Namespace') (next as { status?: { phase?: string } }).status = { ...((next as { status?: object }).status ?? {}), phase: 'Terminating' };
  return next;
}

/** A scheduled pod gets its grace period (query, else spec.terminationGracePeriodSeconds, else 30). */
function podGraceSeconds(cur: KubeObject, options: DeleteOptions): number {
  if (cur.kind !== 'Pod') return 0;
  const pod = cur as Pod;
  const q = options.gracePeriodSeconds;
  const grace = typeof q === 'number' && q >= 0 ? Math.floor(q) : (pod.spec?.terminationGracePeriodSeconds ?? 30);
  // an unscheduled pod, or one already finished, has no kubelet to wait for (pod strategy CheckGracefulDelete)
  if (!pod.spec?.nodeName || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return 0;
  return grace;
}

export function handleDeleteCollection(s: Scope): void {
  const q = s.req.query ?? {};
  const options = requestDeleteOptions(s);
  const pred = buildPredicate(s.resource.kind, { namespace: s.resource.namespaced ? s.req.namespace : undefined, labelSelector: q.labelSelector, fieldSelector: q.fieldSelector });
  if (!pred.ok) return s.fail(pred.status);
  const range = listRange(storagePrefix(s.resource), s.resource.namespaced ? s.req.namespace : undefined);
  s.store.list(range.key, range.rangeEnd, undefined, (r) => {
    if (!r.ok) return s.fail(r.status);
    const targets = r.value.items.filter((o) => matches(pred.predicate, o));
    const deleted: KubeObject[] = [];
    const next = (i: number): void => {
      if (i >= targets.length) {
        return s.respond(200, { kind: `${s.resource.kind}List`, apiVersion: apiVersionOf(s.resource), metadata: {}, items: deleted });
      }
      const t = targets[i]!;
      deleteOne(s, t.metadata.namespace, t.metadata.name ?? '', options, (res) => {
        if ('object' in res) deleted.push(res.object);
        next(i + 1);
      });
    };
    next(0);
  });
}
