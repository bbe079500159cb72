// Validation of objects on create and update, returning field errors (which become 422 Invalid).
// The rules themselves live in runtime/api (ObjectMeta and each kind's, from
// pkg/apis/<group>/validation); this file adds what only an update checks: ValidateObjectMetaUpdate's
// immutable fields and the kinds' update rules, and validates events by the group version they came
// through (core/v1 or events.k8s.io/v1).
import {
  Path, invalid, validateConfigMapUpdate, validateObject, validatePodUpdate, validatePriorityClassUpdate, validateSecretUpdate,
  type CoreEvent, type FieldError, type KubeObject, type Pod, type ResourceInfo,
} from '../../api/index.ts';
import { validateEventCreate, validateEventUpdate, type EventRequestVersion } from './event-validation.ts';

type Obj = Record<string, unknown>;

const eventVersion = (r: ResourceInfo): EventRequestVersion => (r.group === '' ? 'v1' : 'events.k8s.io/v1');

/** Every error for a new object of resource `r`. */
export function validateCreate(obj: KubeObject, r: ResourceInfo): FieldError[] {
  const errs = validateObject(obj, r.kind);
  if (r.kind === 'Event') errs.push(...validateEventCreate(obj as CoreEvent, eventVersion(r)));
  return errs;
}

/** Every error for an update from `old` to `next`. */
export function validateUpdate(next: KubeObject, old: KubeObject, r: ResourceInfo): FieldError[] {
  const errs = validateObjectMetaUpdate(next, old);
  // ValidateSecretUpdate and ValidateConfigMapUpdate check what may not change before the object itself
  if (next.kind === 'Secret') errs.push(...validateSecretUpdate(next as unknown as Obj, old as unknown as Obj));
  else if (next.kind === 'ConfigMap') errs.push(...validateConfigMapUpdate(next as unknown as Obj, old as unknown as Obj));
  errs.push(...validateObject(next, r.kind));
  if (r.kind === 'Event') errs.push(...validateEventUpdate(next as CoreEvent, old as CoreEvent, eventVersion(r)));
  else if (next.kind === 'PriorityClass') errs.push(...validatePriorityClassUpdate(next, old));
  else if (next.kind === 'Pod') errs.push(...validatePodUpdate(next as Pod, old as Pod));
  return errs;
}

/** Immutable metadata on update (ValidateObjectMetaUpdate). */
export function validateObjectMetaUpdate(next: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const p = Path.of('metadata');
  for (const f of ['name', 'namespace', 'uid', 'creationTimestamp'] as const) {
    if ((next.metadata[f] ?? '') !== (old.metadata[f] ?? '')) errs.push(invalid(p.child(f), next.metadata[f] ?? '', 'field is immutable'));
  }
  return errs;
}
