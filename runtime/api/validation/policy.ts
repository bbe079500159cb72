// PodDisruptionBudget validation (policy/v1).
// mirrors pkg/apis/policy/validation/validation.go (ValidatePodDisruptionBudget,
// ValidatePodDisruptionBudgetSpec, ValidatePodDisruptionBudgetStatusUpdate), with the int-or-percent
// checks of pkg/apis/apps/validation/validation.go (ValidatePositiveIntOrPercent,
// IsNotMoreThan100Percent) and apimachinery's ValidateConditions. Spec updates are allowed (since 1.15):
// an update is validated as a create is.
import { Path } from '../field/path.ts';
import { invalid, notSupported, required, type FieldError } from '../field/errors.ts';
import { isValidPercent } from './names.ts';
import { nonNegative, optObject, validateLabelSelector, type JsonObject } from './common.ts';

/** supportedUnhealthyPodEvictionPolicies, as sets.List() returns it (sorted). */
const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'] as const;
const CONDITION_STATUSES = ['False', 'True', 'Unknown'] as const;

/**
 * Prints an int-or-string the way Go's %#v prints intstr.IntOrString: its String() has a pointer
 * receiver, so field.Invalid falls back to the raw struct.
 */
class GoIntOrString {
  constructor(private readonly v: number | string) {}
  toString(): string {
    return typeof this.v === 'number'
      ? `intstr.IntOrString{Type:0, IntVal:${this.v}, StrVal:""}`
      : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(this.v)}}`;
  }
}

/**
 * %#v of policy.PodDisruptionBudgetSpec: every field is a pointer, printed as (*T)(address) or
 * (*T)(nil). Go prints heap addresses; ours are fixed so the message is stable.
 */
class GoPdbSpec {
  constructor(private readonly spec: JsonObject) {}
  toString(): string {
    const ptr = (type: string, set: boolean, address: string): string =>
      `(*${type})(${set ? address : 'nil'})`;
    const has = (k: string): boolean => this.spec[k] !== undefined && this.spec[k] !== null;
    return (
      'policy.PodDisruptionBudgetSpec{' +
      `MinAvailable:${ptr('intstr.IntOrString', has('minAvailable'), '0xc000a1c0a0')}, ` +
      `Selector:${ptr('v1.LabelSelector', has('selector'), '0xc000a1c0c0')}, ` +
      `MaxUnavailable:${ptr('intstr.IntOrString', has('maxUnavailable'), '0xc000a1c0b0')}, ` +
      `UnhealthyPodEvictionPolicy:${ptr('policy.UnhealthyPodEvictionPolicyType', has('unhealthyPodEvictionPolicy'), '0xc000a1c0d0')}}`
    );
  }
}

/** ValidatePositiveIntOrPercent + IsNotMoreThan100Percent for one of minAvailable / maxUnavailable. */
function validateIntOrPercent(v: unknown, path: Path): FieldError[] {
  if (typeof v === 'number' && Number.isInteger(v)) return nonNegative(v, path);
  if (typeof v === 'string') {
    const errs = isValidPercent(v).map((msg) => invalid(path, new GoIntOrString(v), msg));
    if (errs.length === 0 && Number(v.slice(0, -1)) > 100)
      errs.push(invalid(path, v, 'must not be greater than 100%'));
    return errs;
  }
  return [invalid(path, v, "must be an integer or percentage (e.g '5%')")];
}

/** ValidatePodDisruptionBudgetSpec. */
export function validatePodDisruptionBudgetSpec(spec: JsonObject, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const present = (k: string): boolean => spec[k] !== undefined && spec[k] !== null;
  if (present('minAvailable') && present('maxUnavailable'))
    errs.push(invalid(path, new GoPdbSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
  for (const k of ['minAvailable', 'maxUnavailable']) {
    if (present(k)) errs.push(...validateIntOrPercent(spec[k], path.child(k)));
  }
  // a nil selector is valid (it selects no pods); an empty one selects the whole namespace
  const selector = optObject(spec.selector, path.child('selector'), errs);
  if (selector) errs.push(...validateLabelSelector(selector, path.child('selector')));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && policy !== null && !(UNHEALTHY_POD_EVICTION_POLICIES as readonly unknown[]).includes(policy))
    errs.push(notSupported(path.child('unhealthyPodEvictionPolicy'), policy, UNHEALTHY_POD_EVICTION_POLICIES));
  return errs;
}

/** metav1 validation ValidateConditions, for the parts a status writer can get wrong. */
function validateConditions(raw: unknown, path: Path): FieldError[] {
  if (!Array.isArray(raw)) return [];
  const errs: FieldError[] = [];
  raw.forEach((c: unknown, i) => {
    const p = path.at(i);
    if (typeof c !== 'object' || c === null) return void errs.push(invalid(p, c, 'must be an object'));
    const cond = c as JsonObject;
    if (typeof cond.type !== 'string' || cond.type === '') errs.push(required(p.child('type'), ''));
    if (!(CONDITION_STATUSES as readonly unknown[]).includes(cond.status))
      errs.push(notSupported(p.child('status'), cond.status, CONDITION_STATUSES));
    if (typeof cond.lastTransitionTime !== 'string' || cond.lastTransitionTime === '')
      errs.push(required(p.child('lastTransitionTime'), 'must be set'));
    if (typeof cond.reason !== 'string' || cond.reason === '') errs.push(required(p.child('reason'), ''));
  });
  return errs;
}

/** ValidatePodDisruptionBudgetStatusUpdate (policy/v1: the counters are non-negative). */
export function validatePodDisruptionBudgetStatus(status: JsonObject, path: Path): FieldError[] {
  const errs = validateConditions(status.conditions, path.child('conditions'));
  for (const k of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) {
    const v = status[k];
    if (typeof v === 'number') errs.push(...nonNegative(v, path.child(k)));
  }
  return errs;
}

/** ValidatePodDisruptionBudget, plus the status rules (the server resets status on create). */
export function validatePodDisruptionBudget(obj: JsonObject): FieldError[] {
  const path = Path.of('spec');
  const errs: FieldError[] = [];
  const spec = optObject(obj.spec, path, errs) ?? {};
  errs.push(...validatePodDisruptionBudgetSpec(spec, path));
  const status = optObject(obj.status, Path.of('status'), errs);
  if (status) errs.push(...validatePodDisruptionBudgetStatus(status, Path.of('status')));
  return errs;
}
