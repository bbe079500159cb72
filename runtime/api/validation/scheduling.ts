// PriorityClass validation on create and update (ObjectMeta is checked by the caller, as for every kind).
// mirrors pkg/apis/scheduling/validation/validation.go (ValidatePriorityClass,
// ValidatePriorityClassUpdate) and pkg/apis/core/validation/validation.go (ValidatePreemptionPolicy).
// The "only one globalDefault" rule is not here: upstream checks it in the Priority admission
// plugin, which can see the other classes.
import { Path } from '../field/path.ts';
import { forbidden, invalid, notSupported, required, typeInvalid, type FieldError } from '../field/errors.ts';
import {
  HIGHEST_USER_DEFINABLE_PRIORITY,
  PREEMPT_LOWER_PRIORITY,
  PREEMPT_NEVER,
  SYSTEM_PRIORITY_CLASS_PREFIX,
  unknownSystemPriorityClassReason,
} from '../scheduling.ts';
import { isObject, optBool, optString, type JsonObject } from './common.ts';

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/** `value` is an int32 without omitempty: absent means 0. A wrong type is reported (upstream fails decoding). */
function readValue(obj: JsonObject, errs: FieldError[]): number {
  const v = obj.value;
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX) return v;
  errs.push(typeInvalid(Path.of('value'), v, 'expected a 32-bit integer'));
  return 0;
}

/** ValidatePreemptionPolicy: PreemptLowerPriority or Never. */
export function validatePreemptionPolicy(policy: unknown, path: Path): FieldError[] {
  if (policy === PREEMPT_LOWER_PRIORITY || policy === PREEMPT_NEVER) return [];
  if (policy === '') return [required(path, '')];
  return [notSupported(path, policy, [PREEMPT_LOWER_PRIORITY, PREEMPT_NEVER])];
}

/** ValidatePriorityClass without its ObjectMeta part: reserved names, the user ceiling, the policy. */
export function validatePriorityClass(obj: unknown): FieldError[] {
  if (!isObject(obj)) return [invalid(undefined, obj, 'object must be a JSON object')];
  const errs: FieldError[] = [];
  const value = readValue(obj, errs);
  const globalDefault = optBool(obj.globalDefault, Path.of('globalDefault'), errs) ?? false;
  optString(obj.description, Path.of('description'), errs);
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const reason = unknownSystemPriorityClassReason(name, value, globalDefault);
    if (reason !== undefined) {
      errs.push(forbidden(
        Path.of('metadata', 'name'),
        `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${reason}`,
      ));
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(forbidden(Path.of('value'), `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (obj.preemptionPolicy !== undefined && obj.preemptionPolicy !== null) {
    errs.push(...validatePreemptionPolicy(obj.preemptionPolicy, Path.of('preemptionPolicy')));
  }
  return errs;
}

/** ValidatePriorityClassUpdate without ObjectMeta: value and preemptionPolicy never change. */
export function validatePriorityClassUpdate(next: unknown, old: unknown): FieldError[] {
  const n = isObject(next) ? next : {};
  const o = isObject(old) ? old : {};
  const errs: FieldError[] = [];
  if ((n.value ?? 0) !== (o.value ?? 0)) errs.push(forbidden(Path.of('value'), 'may not be changed in an update.'));
  if (n.preemptionPolicy !== o.preemptionPolicy) {
    errs.push(invalid(Path.of('preemptionPolicy'), n.preemptionPolicy, 'field is immutable'));
  }
  return errs;
}
