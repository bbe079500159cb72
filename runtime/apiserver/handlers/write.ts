// CREATE, UPDATE and PATCH, including the status, scale, finalize, binding and eviction subresources.
// mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go, update.go, patch.go and
// registry/generic/registry/store.go (Create, Update): mutating admission, then the strategy
// (PrepareForCreate/Update), validation, validating admission, and the etcd write; a stale
// resourceVersion is a 409 Conflict; an unchanged object is not written again. The work admission
// deferred (AdmissionAttributes.onFinish, admission/finish.ts) runs with the write's outcome before
// the answer: not stored after a refusal, an etcd error, a taken name or each lost GuaranteedUpdate try.
import {
  applyDefaults, newAlreadyExists, newBadRequest, newConflict, newInvalid, newNotFound, newSuccess, rfc3339, type KubeObject, type Pod, type Status,
} from '../../api/index.ts';
import { AttemptsFinish, NOT_STORED, STORED, WriteFinish } from '../admission/finish.ts';
import { decodeBody, encodeForStorage, jsonClone, storedTextOf } from '../encoding.ts';
import { toRequestedVersion, toStorageVersion } from '../registry/event-conversion.ts';
import { applyPatch, PATCH_TYPES, unsupportedPatchType } from '../registry/strategic-merge-patch.ts';
import { prepareForCreate, prepareForUpdate } from '../registry/strategy.ts';
import { validateCreate, validateUpdate } from '../registry/validation.ts';
import type { Current, UpdateDecision } from '../storage/etcd-store.ts';
import { handleEviction } from './eviction.ts';
import { replicasFromScale, toScale } from './scale.ts';
import { admissionAttributes, cachedCurrent, groupKind, groupResource, isDryRun, keyOf, runAdmission, type Scope } from './scope.ts';

export function handleCreate(s: Scope): void {
  if (s.req.subresource === 'binding') return handleBinding(s);
  if (s.req.subresource === 'eviction') return handleEviction(s);
  if (s.req.subresource) return s.fail(newBadRequest(`create is not supported on the ${s.req.subresource} subresource`));
  const decoded = decodeBody(s.req.body, s.resource, s.req.query?.fieldValidation);
  if (!decoded.ok) return s.fail(decoded.status);
  // events.k8s.io events are stored as core/v1 ones (event-conversion.ts)
  const obj = toStorageVersion(s.resource, decoded.object);
  const nsError = fillNamespace(s, obj);
  if (nsError) return s.fail(nsError);
  applyDefaults(obj);
  // what admission took for this create is given back unless the create is stored
  const finish = new WriteFinish();
  const fail = (status: Status): void => finish.run(NOT_STORED, () => s.fail(status));
  const created = (body: KubeObject): void => finish.run(STORED, () => s.respond(201, toRequestedVersion(s.resource, body), decoded.warnings));
  const attrs = finish.attach(admissionAttributes(s, 'CREATE', obj.metadata.name ?? '', obj));
  runAdmission(s, 'mutating', attrs, (err) => {
    if (err) return fail(err);
    prepareForCreate(obj, s.strategy());
    const name = obj.metadata.name ?? '';
    attrs.name = name;
    const errs = validateCreate(obj, s.resource);
    s.stage('Validation', errs.length === 0 ? 'valid' : `${errs.length} field error(s)`, errs.length === 0);
    if (errs.length > 0) return fail(newInvalid(groupKind(s), name, errs));
    runAdmission(s, 'validating', attrs, (err2) => {
      if (err2) return fail(err2);
      if (isDryRun(s)) return created(obj);
      const key = keyOf(s, obj.metadata.namespace, name);
      s.store.create(key, obj, (r) => {
        if (!r.ok) {
          s.stage('Storage', `etcd txn create ${key} failed`, false);
          return fail(r.status);
        }
        if (!r.value) {
          s.stage('Storage', `etcd txn create ${key}: key exists`, false);
          return fail(newAlreadyExists(groupResource(s), name));
        }
        s.stage('Storage', `etcd txn create ${key} at revision ${r.value.metadata.resourceVersion}`);
        created(r.value);
      });
    });
  });
}

/** The namespace comes from the URL; a body naming another one is a 400 (rest.EnsureObjectNamespaceMatchesRequestNamespace). */
function fillNamespace(s: Scope, obj: KubeObject): ReturnType<typeof newBadRequest> | undefined {
  if (!s.resource.namespaced) return undefined;
  const ns = s.req.namespace ?? '';
  if (obj.metadata.namespace && ns && obj.metadata.namespace !== ns) {
    return newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  if (!obj.metadata.namespace && ns) obj.metadata.namespace = ns;
  return undefined;
}

/** How the new object is built from the current one (which it must not change: it may be the cache's). */
type Build = (current: KubeObject) => { object: KubeObject } | { error: ReturnType<typeof newBadRequest> };

export function handleUpdate(s: Scope): void {
  const sub = s.req.subresource;
  if (sub === 'scale') {
    const replicas = replicasFromScale(s.req.body);
    if (typeof replicas === 'string') return s.fail(newBadRequest(replicas));
    const rv = (s.req.body as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion;
    return updateWith(s, typeof rv === 'string' ? rv : undefined, (cur) => {
      const next = jsonClone(cur)! as KubeObject & { spec?: { replicas?: number } };
      next.spec = { ...(next.spec ?? {}), replicas };
      return { object: next };
    });
  }
  const decoded = decodeBody(s.req.body, s.resource, s.req.query?.fieldValidation);
  if (!decoded.ok) return s.fail(decoded.status);
  const body = toStorageVersion(s.resource, decoded.object);
  const nsError = fillNamespace(s, body);
  if (nsError) return s.fail(nsError);
  if (body.metadata.name !== undefined && body.metadata.name !== s.req.name) {
    return s.fail(newBadRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${s.req.name ?? ''})`));
  }
  applyDefaults(body);
  if (sub === 'finalize') {
    return updateWith(s, body.metadata.resourceVersion, (cur) => {
      const next = jsonClone(cur)! as KubeObject & { spec?: { finalizers?: string[] } };
      next.spec = { ...(next.spec ?? {}), finalizers: (body as { spec?: { finalizers?: string[] } }).spec?.finalizers ?? [] };
      return { object: next };
    }, decoded.warnings);
  }
  updateWith(s, body.metadata.resourceVersion, () => ({ object: jsonClone(body)! }), decoded.warnings);
}

export function handlePatch(s: Scope): void {
  const patch = jsonClone(s.req.body);
  const type = s.req.patchType;
  if (type !== undefined && !PATCH_TYPES.includes(type)) return s.fail(unsupportedPatchType());
  // a resourceVersion in a merge or strategic patch is a precondition, as the patched object carries it
  const rv = Array.isArray(patch) ? undefined : (patch as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion;
  if (s.req.subresource === 'scale') {
    return updateWith(s, typeof rv === 'string' ? rv : undefined, (cur) => {
      const scale = applyPatch(type, toScale(cur, s.resource) as unknown as Record<string, unknown>, patch, 'Scale');
      if (!scale.ok) return { error: scale.status };
      const replicas = replicasFromScale(scale.object);
      if (typeof replicas === 'string') return { error: newBadRequest(replicas) };
      const next = jsonClone(cur)! as KubeObject & { spec?: { replicas?: number } };
      next.spec = { ...(next.spec ?? {}), replicas };
      return { object: next };
    });
  }
  updateWith(s, typeof rv === 'string' ? rv : undefined, (cur) => {
    // the patch applies to the object as the request's group shows it (events.k8s.io: the v1 shape)
    const patched = applyPatch(type, toRequestedVersion(s.resource, cur) as unknown as Record<string, unknown>, patch, s.resource.kind);
    if (!patched.ok) return { error: patched.status };
    const decoded = decodeBody(patched.object, s.resource, s.req.query?.fieldValidation, patch);
    if (!decoded.ok) return { error: decoded.status };
    decoded.object = toStorageVersion(s.resource, decoded.object);
    if (decoded.object.metadata.name !== cur.metadata.name) return { error: newBadRequest(`the name of the object (${decoded.object.metadata.name ?? ''}) does not match the name on the URL (${cur.metadata.name ?? ''})`) };
    applyDefaults(decoded.object);
    return { object: decoded.object };
  });
}

/**
 * The shared update path (GuaranteedUpdate's tryUpdate): precondition on resourceVersion, build the
 * new object, strategy, admission, validation; delete instead when the last finalizer is gone.
 */
function updateWith(s: Scope, expectedRv: string | undefined, build: Build, warnings: string[] = []): void {
  const name = s.req.name ?? '';
  const key = keyOf(s, s.req.namespace, name);
  const sub = s.req.subresource === 'scale' ? undefined : s.req.subresource;
  const attempts = new AttemptsFinish();
  s.store.guaranteedUpdate(
    key,
    (current, answer) => attempts.nextAttempt((finish) => decideUpdate(s, current, expectedRv, build, sub, finish, answer)),
    (r) => {
      if (!r.ok) {
        s.stage('Storage', `update ${key} not written`, false);
        return attempts.settle(NOT_STORED, () => s.fail(r.status));
      }
      const obj = r.value.object!;
      s.stage('Storage', r.value.deleted ? `etcd txn delete ${key} (last finalizer removed)` : `etcd txn put ${key} at revision ${obj.metadata.resourceVersion}`);
      attempts.settle({ committed: true, deleted: r.value.deleted }, () => {
        s.respond(200, s.req.subresource === 'scale' ? toScale(obj, s.resource) : toRequestedVersion(s.resource, obj), warnings);
      });
    },
    cachedCurrent(s, key),
  );
}

function decideUpdate(
  s: Scope, current: Current | undefined, expectedRv: string | undefined, build: Build, sub: string | undefined, finish: WriteFinish, answer: (d: UpdateDecision) => void,
): void {
  const name = s.req.name ?? '';
  if (!current) return answer({ action: 'abort', status: newNotFound(groupResource(s), name) });
  const cur = current.object;
  if (expectedRv && expectedRv !== cur.metadata.resourceVersion) return answer({ action: 'abort', status: newConflict(groupResource(s), name) });
  const built = build(cur);
  if ('error' in built) return answer({ action: 'abort', status: built.error });
  const next = built.object;
  prepareForUpdate(next, cur, sub);
  const attrs = finish.attach(admissionAttributes(s, 'UPDATE', name, next, cur));
  runAdmission(s, 'mutating', attrs, (err) => {
    if (err) return answer({ action: 'abort', status: err });
    const errs = validateUpdate(next, cur, s.resource);
    s.stage('Validation', errs.length === 0 ? 'valid' : `${errs.length} field error(s)`, errs.length === 0);
    if (errs.length > 0) return answer({ action: 'abort', status: newInvalid(groupKind(s), name, errs) });
    runAdmission(s, 'validating', attrs, (err2) => {
      if (err2) return answer({ action: 'abort', status: err2 });
      if (isDryRun(s)) return answer({ action: 'noop', object: next });
      if (shouldDeleteDuringUpdate(next)) return answer({ action: 'delete' });
      // store.go GuaranteedUpdate: the new object's encoding, compared with the current one's, is what it writes
      const value = encodeForStorage(next);
      if (value === storedForm(cur)) return answer({ action: 'noop', object: cur });
      answer({ action: 'put', object: next, value });
    });
  });
}

/** store.go shouldDeleteDuringUpdate: deletion was requested and nothing holds the object anymore. */
export function shouldDeleteDuringUpdate(o: KubeObject): boolean {
  if (!o.metadata.deletionTimestamp || (o.metadata.finalizers ?? []).length > 0) return false;
  if (o.kind === 'Namespace') return ((o as { spec?: { finalizers?: string[] } }).spec?.finalizers ?? []).length === 0;
  if (o.kind === 'Pod') return (o.metadata.deletionGracePeriodSeconds ?? 0) === 0;
  return true;
}

/**
 * The storage encoding of the current object. A frozen object (the watch cache's, shared by every
 * request) cannot change, so its encoding is computed once (store.go getStateFromObject encodes the
 * cached object for each update).
 */
const frozenStoredForms = new WeakMap<KubeObject, string>();

function storedForm(cur: KubeObject): string {
  if (!Object.isFrozen(cur)) return encodeForStorage(cur);
  const written = storedTextOf(cur);
  if (written !== undefined) return written;
  let text = frozenStoredForms.get(cur);
  if (text === undefined) frozenStoredForms.set(cur, (text = encodeForStorage(cur)));
  return text;
}

/**
 * pods/binding: the scheduler's way to set spec.nodeName (and the PodScheduled condition).
 * mirrors pkg/registry/core/pod/storage/storage.go (BindingREST.Create, assignPod, setPodNodeAndMetadata).
 */
function handleBinding(s: Scope): void {
  const body = s.req.body as { metadata?: { name?: unknown }; target?: { name?: unknown } } | undefined;
  const node = body?.target?.name;
  const name = s.req.name ?? (typeof body?.metadata?.name === 'string' ? body.metadata.name : '');
  if (typeof node !== 'string' || node === '') {
    return s.fail(newInvalid({ group: '', kind: 'Binding' }, name, [{ type: 'FieldValueRequired', field: 'target.name', badValue: '', detail: '' }]));
  }
  const key = keyOf(s, s.req.namespace, name);
  const gr = { group: '', resource: 'pods/binding' };
  s.store.guaranteedUpdate(
    key,
    (current, answer) => {
      if (!current) return answer({ action: 'abort', status: newNotFound({ group: '', resource: 'pods' }, name) });
      const pod = jsonClone(current.object)! as Pod;
      if (pod.metadata.deletionTimestamp) return answer({ action: 'abort', status: newConflict(gr, name, `pod ${name} is being deleted, cannot be assigned to a host`) });
      if (pod.spec.nodeName) return answer({ action: 'abort', status: newConflict(gr, name, `pod ${name} is already assigned to node ${JSON.stringify(pod.spec.nodeName)}`) });
      pod.spec.nodeName = node;
      const status = (pod.status ??= {});
      const conditions = (status.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
      conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(s.nowMs()) });
      status.conditions = conditions;
      if (isDryRun(s)) return answer({ action: 'noop', object: pod });
      answer({ action: 'put', object: pod });
    },
    (r) => {
      if (!r.ok) return s.fail(r.status);
      s.stage('Storage', `etcd txn put ${key} (bound to ${node}) at revision ${r.value.object?.metadata.resourceVersion ?? ''}`);
      s.respond(201, newSuccess());
    },
    cachedCurrent(s, key),
  );
}
