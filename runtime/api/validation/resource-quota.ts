// ResourceQuota spec validation: the scopes and the scopeSelector. mirrors
// pkg/apis/core/validation/validation.go (validateResourceQuotaScopes,
// validateScopedResourceSelectorRequirement), including its paths: the selector's errors name
// spec.scopeSelector.matchExpressions without an index, as upstream's do.
// spec.hard: ValidateResourceQuotaSpec checks each name (ValidateResourceQuotaResourceName: a
// qualified name; unqualified names must be standard resources and standard quota resources, so
// "pods", "requests.cpu" or "count/deployments.apps") and each quantity (validateResourceQuantityValue:
// non-negative, whole numbers for object counts), reported at spec.hard[<name>] in sorted name order.
import { Path } from '../field/path.ts';
import { invalid, required, type FieldError } from '../field/errors.ts';
import { Quantity } from '../resource/quantity.ts';
import { isQualifiedName } from './names.ts';

const STANDARD_SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
const EXISTS_ONLY_SCOPES = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'CrossNamespacePodAffinity']);
const POD_COMPUTE = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);
/** helper.IsStandardQuotaResourceName: the names scope checks apply to (count/* are not among them). */
const STANDARD_QUOTA_RESOURCES = new Set([
  ...POD_COMPUTE, 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'storage', 'requests.storage', 'ephemeral-storage', 'requests.ephemeral-storage', 'limits.ephemeral-storage',
  'services.nodeports', 'services.loadbalancers',
]);

/** helper.IsResourceQuotaScopeValidForResource. */
function scopeValidForResource(scope: string, resource: string): boolean {
  if (scope === 'BestEffort') return resource === 'pods';
  return resource === 'pods' || POD_COMPUTE.has(resource);
}

/** helper.standardQuotaResources (pkg/apis/core/helper/helpers.go). */
const QUOTA_RESOURCE_NAMES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);
/** helper.standardResources: the quota names plus "storage". */
const STANDARD_RESOURCE_NAMES = new Set([...QUOTA_RESOURCE_NAMES, 'storage']);
/** helper.integerResources: object counts must be whole numbers. */
const INTEGER_RESOURCE_NAMES = new Set(['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);
const isHugePages = (name: string): boolean => name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');

/** ValidateResourceQuotaResourceName (with validateResourceName). */
export function validateQuotaResourceName(name: string, p: Path): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalid(p, name, msg));
  if (errs.length > 0 || name.includes('/')) return errs;
  if (!STANDARD_RESOURCE_NAMES.has(name) && !isHugePages(name)) errs.push(invalid(p, name, 'must be a standard resource type or fully qualified'));
  if (!QUOTA_RESOURCE_NAMES.has(name) && !isHugePages(name)) errs.push(invalid(p, name, 'must be a standard resource for quota'));
  return errs;
}

/** validateResourceQuantityValue: ValidateNonnegativeQuantity, then whole numbers for integer resources. */
function validateHardQuantity(name: string, value: unknown, p: Path): FieldError[] {
  const parsed = Quantity.parse(String(value));
  if (!parsed.ok) return [invalid(p, value, 'quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'')];
  const q = parsed.quantity;
  const errs: FieldError[] = [];
  if (q.sign() < 0) errs.push(invalid(p, q.toString(), 'must be greater than or equal to 0'));
  const integer = INTEGER_RESOURCE_NAMES.has(name) || name.startsWith('count/');
  if (integer && q.milliValue() % 1000 !== 0) errs.push(invalid(p, q.toString(), 'must be an integer'));
  return errs;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const CONFLICTING = [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']];

export function validateResourceQuota(obj: Obj): FieldError[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const hard = Object.keys(isObj(spec.hard) ? spec.hard : {}).sort();
  const p = Path.of('spec');
  const errs: FieldError[] = [];
  const hardValues = isObj(spec.hard) ? spec.hard : {};
  for (const name of hard) {
    const at = p.child('hard').key(name);
    errs.push(...validateQuotaResourceName(name, at), ...validateHardQuantity(name, hardValues[name], at));
  }
  const scopes = Array.isArray(spec.scopes) ? (spec.scopes as string[]) : [];
  scopes.forEach((scope) => {
    if (!STANDARD_SCOPES.includes(scope)) errs.push(invalid(p.child('scopes'), scope, 'unsupported scope'));
    for (const k of hard) {
      if (STANDARD_QUOTA_RESOURCES.has(k) && !scopeValidForResource(scope, k)) errs.push(invalid(p.child('scopes'), scope, 'unsupported scope applied to resource'));
    }
  });
  if (CONFLICTING.some((pair) => pair.every((s) => scopes.includes(s)))) errs.push(invalid(p.child('scopes'), scopes, 'conflicting scopes'));
  if (isObj(spec.scopeSelector)) errs.push(...validateScopeSelector(spec.scopeSelector, hard, p.child('scopeSelector')));
  return errs;
}

function validateScopeSelector(selector: Obj, hard: string[], p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const path = p.child('matchExpressions');
  const seen = new Set<string>();
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  for (const raw of exprs) {
    const req = isObj(raw) ? raw : {};
    const scope = String(req.scopeName ?? '');
    const operator = String(req.operator ?? '');
    const values = Array.isArray(req.values) ? req.values : [];
    if (!STANDARD_SCOPES.includes(scope)) errs.push(invalid(path.child('scopeName'), scope, 'unsupported scope'));
    for (const k of hard) {
      if (STANDARD_QUOTA_RESOURCES.has(k) && !scopeValidForResource(scope, k)) errs.push(invalid(path, selector, 'unsupported scope applied to resource'));
    }
    if (EXISTS_ONLY_SCOPES.has(scope) && operator !== 'Exists') {
      errs.push(invalid(path.child('operator'), operator,
        'must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity'));
    }
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) errs.push(required(path.child('values'), 'must be at least one value when `operator` is \'In\' or \'NotIn\' for scope selector'));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length !== 0) errs.push(invalid(path.child('values'), values, 'must be no value when `operator` is \'Exist\' or \'DoesNotExist\' for scope selector'));
    } else errs.push(invalid(path.child('operator'), operator, 'not a valid selector operator'));
    seen.add(scope);
  }
  if (CONFLICTING.some((pair) => pair.every((s) => seen.has(s)))) errs.push(invalid(path, null, 'conflicting scopes'));
  return errs;
}

