// What an update may change in a pod's spec: almost nothing. mirrors
// pkg/apis/core/validation/validation.go ValidatePodUpdate: the container count is fixed, images
// may change, activeDeadlineSeconds may only be set or lowered, tolerations may only be added (an
// existing one may change only its tolerationSeconds), terminationGracePeriodSeconds may go from
// negative to 1; the spec with those fields taken from the old pod must equal the old spec.
// Like upstream, the Forbidden message ends with go-cmp's diff of the old spec and the new one
// (cmp.Diff(oldPod.Spec, mungedPodSpec)): see go-cmp-diff.ts for what that diff covers.
import { Path } from '../field/path.ts';
import { forbidden, invalid, required, type FieldError } from '../field/errors.ts';
import { Quantity } from '../resource/quantity.ts';
import type { Container, Pod, PodSpec, Toleration } from '../types/core.ts';
import { cloneJson } from '../json-clone.ts';
import { goCmpDiff } from './go-cmp-diff.ts';
import { POD_SPEC, toGoValue } from './pod-spec-go.ts';

const MAX_INT32 = 2_147_483_647;

/** updatablePodSpecFieldsNoResources, joined as upstream joins it. */
export const UPDATABLE_POD_SPEC_FIELDS =
  '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

export function validatePodUpdate(next: Pod, old: Pod): FieldError[] {
  const spec = Path.of('spec');
  const errs: FieldError[] = [];
  for (const [field, n, o] of [
    ['containers', next.spec.containers, old.spec.containers],
    ['initContainers', next.spec.initContainers ?? [], old.spec.initContainers ?? []],
  ] as const) {
    // ValidateContainerUpdates
    if (n.length !== o.length) return [forbidden(spec.child(field), 'pod updates may not add or remove containers')];
    n.forEach((c, i) => {
      if (!c.image) errs.push(required(spec.child(field).at(i).child('image'), ''));
    });
  }
  const deadline = activeDeadlineError(next.spec.activeDeadlineSeconds, old.spec.activeDeadlineSeconds, spec.child('activeDeadlineSeconds'));
  if (deadline) return [...errs, deadline];
  errs.push(...onlyAddedTolerations(next.spec.tolerations ?? [], old.spec.tolerations ?? [], spec.child('tolerations')));
  if (sameJson(next.spec, old.spec)) return errs;
  const munged = mungedSpec(next.spec, old.spec);
  // apiequality.Semantic compares quantities by value: "1000m" and "1" are the same CPU
  const [before, after] = [byValue(old.spec), byValue(munged)];
  if (!sameJson(after, before)) {
    const diff = goCmpDiff(toGoValue(old.spec, POD_SPEC), toGoValue(munged, POD_SPEC));
    errs.push(forbidden(spec, `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS}\n${diff}`));
  }
  return errs;
}

function activeDeadlineError(next: number | undefined, old: number | undefined, path: Path): FieldError | undefined {
  if (next !== undefined) {
    if (next < 0 || next > MAX_INT32) return invalid(path, next, `must be between 0 and ${MAX_INT32}, inclusive`);
    if (old !== undefined && old < next) return invalid(path, next, 'must be less than or equal to previous value');
    return undefined;
  }
  return old !== undefined ? invalid(path, null, 'must not update from a positive integer to nil value') : undefined;
}

/** validateOnlyAddedTolerations: every old toleration is still there (its tolerationSeconds may change). */
function onlyAddedTolerations(next: readonly Toleration[], old: readonly Toleration[], path: Path): FieldError[] {
  const key = (t: Toleration): string => JSON.stringify([t.key ?? '', t.operator ?? '', t.value ?? '', t.effect ?? '']);
  const kept = new Set(next.map(key));
  const errs: FieldError[] = [];
  for (const t of old) {
    if (!kept.has(key(t))) errs.push(forbidden(path, 'existing toleration can not be modified except its tolerationSeconds'));
  }
  return errs.slice(0, 1);
}

/** The new spec with every field an update may change taken from the old one. */
function mungedSpec(next: PodSpec, old: PodSpec): PodSpec {
  const munged: PodSpec = {
    ...next,
    containers: next.containers.map((c, i) => ({ ...c, image: old.containers[i]!.image })),
    tolerations: old.tolerations,
    activeDeadlineSeconds: old.activeDeadlineSeconds,
  };
  if (next.initContainers) munged.initContainers = next.initContainers.map((c, i) => ({ ...c, image: old.initContainers![i]!.image }));
  if (old.terminationGracePeriodSeconds !== undefined && old.terminationGracePeriodSeconds < 0 && next.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = old.terminationGracePeriodSeconds;
  }
  return stripUndefined(munged);
}

/** The spec with every resource quantity in canonical form, so equal amounts compare equal. */
function byValue(spec: PodSpec): PodSpec {
  const canonicalList = (list: Record<string, string> | undefined): Record<string, string> | undefined => {
    if (!list) return list;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(list)) {
      const q = Quantity.parse(v);
      out[k] = q.ok ? q.quantity.canonical() : v;
    }
    return out;
  };
  const container = (c: Container): Container =>
    c.resources ? { ...c, resources: { ...c.resources, limits: canonicalList(c.resources.limits), requests: canonicalList(c.resources.requests) } } : c;
  return stripUndefined({ ...spec, containers: spec.containers.map(container), initContainers: spec.initContainers?.map(container) });
}

function stripUndefined<T>(v: T): T {
  return cloneJson(v);
}

/** Semantic equality for JSON data: key order does not matter. */
function sameJson(a: unknown, b: unknown): boolean {
  // the structural walk settles the common case (an unchanged spec) without building two strings
  return sameDefinedValues(a, b) || canonical(a) === canonical(b);
}

/** True when a and b hold identical primitives under the same defined keys (implies equal canonical forms). */
function sameDefinedValues(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameDefinedValues(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const k in x) {
    if (!Object.hasOwn(x, k) || x[k] === undefined) continue;
    defined++;
    if (!Object.hasOwn(y, k) || !sameDefinedValues(x[k], y[k])) return false;
  }
  for (const k in y) if (Object.hasOwn(y, k) && y[k] !== undefined) defined--;
  return defined === 0;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
