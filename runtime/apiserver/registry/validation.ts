// Validation of objects on create and update, returning field errors (which become 422 Invalid).
// TEMPORARY ADAPTER for the per-kind part: runtime/api (helper D) will own per-kind validation;
// until it exports it, this file mirrors the checks learners meet most:
// - apimachinery/pkg/api/validation/objectmeta.go (ValidateObjectMeta, ValidateObjectMetaUpdate),
// - pkg/apis/core/validation/validation.go (pod containers, images, names, restart policy),
// - pkg/apis/apps/validation/validation.go (replicas, selector vs template labels).
import {
  Path, duplicate, forbidden, invalid, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPathSegmentName,
  labelSelectorAsSelector, notSupported, parseQuantity, required, tooLong, type FieldError, type KubeObject, type Pod,
  type ResourceInfo, validatePodUpdate, validatePriorityClass, validatePriorityClassUpdate, validateResourceQuota,
  validateLimitRange, validatePodDisruptionBudget, validateEndpoints, type CoreEvent,
} from '../../api/index.ts';
import { validateEventCreate, validateEventUpdate, type EventRequestVersion } from './event-validation.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

/** Resources whose names are DNS labels rather than subdomains (upstream ValidateNamespaceName, ValidateServiceName...). */
const LABEL_NAMED = new Set(['namespaces', 'services']);
/** RBAC objects only need URL-safe names (ValidateRBACName: "system:node-proxier", "kubeadm:node-proxier"). */
const PATH_SEGMENT_NAMED = new Set(['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings']);

export function validateObjectMeta(obj: KubeObject, r: ResourceInfo): FieldError[] {
  const errs: FieldError[] = [];
  const m = obj.metadata;
  const p = Path.of('metadata');
  if (!m.name && !m.generateName) errs.push(required(p.child('name'), 'name or generateName is required'));
  if (m.name) {
    const check = PATH_SEGMENT_NAMED.has(r.resource) ? isValidPathSegmentName : LABEL_NAMED.has(r.resource) ? isDNS1123Label : isDNS1123Subdomain;
    for (const msg of check(m.name)) errs.push(invalid(p.child('name'), m.name, msg));
  }
  if (r.namespaced && !m.namespace) errs.push(required(p.child('namespace')));
  if (!r.namespaced && m.namespace) errs.push(forbidden(p.child('namespace'), 'not allowed on this type'));
  if (m.namespace) for (const msg of isDNS1123Label(m.namespace)) errs.push(invalid(p.child('namespace'), m.namespace, msg));
  errs.push(...validateLabels(m.labels, p.child('labels')));
  errs.push(...validateAnnotations(m.annotations, p.child('annotations')));
  for (const [i, f] of (m.finalizers ?? []).entries()) {
    for (const msg of isQualifiedName(f)) errs.push(invalid(p.child('finalizers').at(i), f, msg));
  }
  errs.push(...validateOwnerReferences(m.ownerReferences ?? [], p.child('ownerReferences')));
  return errs;
}

function validateLabels(labels: Record<string, string> | undefined, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(p, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(invalid(p.key(k), v, msg));
  }
  return errs;
}

function validateAnnotations(annotations: Record<string, string> | undefined, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(p, k, msg));
    size += k.length + v.length;
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) errs.push(tooLong(p, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  return errs;
}

function validateOwnerReferences(refs: readonly unknown[], p: Path): FieldError[] {
  const errs: FieldError[] = [];
  let controllers = 0;
  refs.forEach((ref, i) => {
    const o = isObj(ref) ? ref : {};
    for (const f of ['apiVersion', 'kind', 'name', 'uid']) {
      if (typeof o[f] !== 'string' || o[f] === '') errs.push(invalid(p.at(i).child(f), o[f] ?? '', `${f} must not be empty`));
    }
    if (o.controller === true) controllers++;
  });
  if (controllers > 1) errs.push(invalid(p, refs.length, 'Only one reference can have Controller set to true'));
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

function validateContainers(list: unknown, p: Path, requireOne: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (list === undefined || list === null) {
    if (requireOne) errs.push(required(p));
    return errs;
  }
  if (!Array.isArray(list)) return [invalid(p, list, 'must be a list of containers')];
  if (requireOne && list.length === 0) errs.push(required(p));
  const names = new Set<string>();
  list.forEach((c, i) => {
    const cp = p.at(i);
    if (!isObj(c)) return errs.push(invalid(cp, c, 'must be a container'));
    if (typeof c.name !== 'string' || c.name === '') errs.push(required(cp.child('name')));
    else {
      for (const msg of isDNS1123Label(c.name)) errs.push(invalid(cp.child('name'), c.name, msg));
      if (names.has(c.name)) errs.push(duplicate(cp.child('name'), c.name));
      names.add(c.name);
    }
    if (typeof c.image !== 'string' || c.image.trim() === '') errs.push(required(cp.child('image')));
    errs.push(...validateResources(c.resources, cp.child('resources')));
  });
  return errs;
}

function validateResources(res: unknown, p: Path): FieldError[] {
  if (res === undefined) return [];
  if (!isObj(res)) return [invalid(p, res, 'must be an object')];
  const errs: FieldError[] = [];
  for (const part of ['limits', 'requests'] as const) {
    const list = res[part];
    if (list === undefined) continue;
    if (!isObj(list)) {
      errs.push(invalid(p.child(part), list, 'must be a map of quantities'));
      continue;
    }
    for (const [name, q] of Object.entries(list)) {
      const parsed = typeof q === 'string' || typeof q === 'number' ? parseQuantity(String(q)) : undefined;
      if (!parsed || !parsed.ok) errs.push(invalid(p.child(part).key(name), q, 'quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\''));
    }
  }
  return errs;
}

export function validatePodSpec(spec: unknown, p: Path, restartPolicies: readonly string[]): FieldError[] {
  if (!isObj(spec)) return [required(p)];
  const errs = [...validateContainers(spec.containers, p.child('containers'), true), ...validateContainers(spec.initContainers, p.child('initContainers'), false)];
  const rp = spec.restartPolicy;
  if (rp !== undefined && !restartPolicies.includes(rp as string)) errs.push(notSupported(p.child('restartPolicy'), rp, restartPolicies));
  return errs;
}

function validateReplicated(o: Obj, templateRestart: readonly string[]): FieldError[] {
  const p = Path.of('spec');
  if (!isObj(o.spec)) return [required(p)];
  const spec = o.spec;
  const errs: FieldError[] = [];
  if (spec.replicas !== undefined && (typeof spec.replicas !== 'number' || !Number.isInteger(spec.replicas) || spec.replicas < 0)) {
    errs.push(invalid(p.child('replicas'), spec.replicas, 'must be greater than or equal to 0'));
  }
  const template = isObj(spec.template) ? spec.template : undefined;
  const labels = template && isObj(template.metadata) && isObj(template.metadata.labels) ? (template.metadata.labels as Record<string, string>) : {};
  if (!isObj(spec.selector)) errs.push(required(p.child('selector')));
  else {
    const sel = labelSelectorAsSelector(spec.selector);
    if (!sel.ok) errs.push(invalid(p.child('selector'), spec.selector, sel.error));
    else if (sel.selector.empty()) errs.push(invalid(p.child('selector'), spec.selector, 'empty selector is invalid for deployment'));
    else if (!sel.selector.matches(labels)) errs.push(invalid(p.child('template', 'metadata', 'labels'), labels, '`selector` does not match template `labels`'));
  }
  if (!template) errs.push(required(p.child('template')));
  else errs.push(...validatePodSpec(template.spec, p.child('template', 'spec'), templateRestart));
  return errs;
}

const KIND_VALIDATORS: Record<string, (o: Obj) => FieldError[]> = {
  Pod: (o) => validatePodSpec(o.spec, Path.of('spec'), ['Always', 'OnFailure', 'Never']),
  Deployment: (o) => validateReplicated(o, ['Always']),
  ReplicaSet: (o) => validateReplicated(o, ['Always']),
  DaemonSet: (o) => validateReplicated(o, ['Always']),
  PriorityClass: (o) => validatePriorityClass(o),
  ResourceQuota: (o) => validateResourceQuota(o),
  LimitRange: (o) => validateLimitRange(o),
  PodDisruptionBudget: (o) => validatePodDisruptionBudget(o),
  Endpoints: (o) => validateEndpoints(o),
};

/** Events are validated by the group version they came through (core/v1 or events.k8s.io/v1). */
const eventVersion = (r: ResourceInfo): EventRequestVersion => (r.group === '' ? 'v1' : 'events.k8s.io/v1');

/** Every error for a new object of resource `r`. */
export function validateCreate(obj: KubeObject, r: ResourceInfo): FieldError[] {
  if (r.kind === 'Event') return [...validateObjectMeta(obj, r), ...validateEventCreate(obj as CoreEvent, eventVersion(r))];
  return [...validateObjectMeta(obj, r), ...(KIND_VALIDATORS[obj.kind ?? '']?.(obj as unknown as Obj) ?? [])];
}

/** Every error for an update from `old` to `next`. */
export function validateUpdate(next: KubeObject, old: KubeObject, r: ResourceInfo): FieldError[] {
  if (r.kind === 'Event') {
    return [...validateObjectMetaUpdate(next, old), ...validateObjectMeta(next, r), ...validateEventUpdate(next as CoreEvent, old as CoreEvent, eventVersion(r))];
  }
  const kindUpdate =
    next.kind === 'PriorityClass' ? validatePriorityClassUpdate(next, old)
    : next.kind === 'Pod' ? validatePodUpdate(next as Pod, old as Pod)
    : [];
  return [...validateObjectMetaUpdate(next, old), ...validateCreate(next, r), ...kindUpdate];
}
