// LimitRange validation. mirrors pkg/apis/core/validation/validation.go (ValidateLimitRange,
// validateLimitRangeTypeName, validateLimitRangeResourceName): known types (Pod, Container,
// PersistentVolumeClaim) once each, container resource names for Pod/Container items, no defaults on
// Pod items, min <= defaultRequest <= default <= max, ratios >= 1 and <= max/min, with upstream's
// texts and paths. Go walks maps in random order; we walk names sorted, so the order is stable.
// Quantities that do not parse are refused here with the decoder's text (upstream refuses them
// while decoding the request, with a 400).
import { Path } from '../field/path.ts';
import { duplicate, forbidden, invalid, required, type FieldError } from '../field/errors.ts';
import { Quantity } from '../resource/quantity.ts';
import { isQualifiedName } from './names.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const LIMIT_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);
const CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const QUANTITY_SYNTAX = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const isHugePages = (name: string): boolean => name.startsWith('hugepages-');

/** validateLimitRangeTypeName. */
function validateType(value: string, p: Path): FieldError[] {
  const errs = isQualifiedName(value).map((msg) => invalid(p, value, msg));
  if (errs.length === 0 && !value.includes('/') && !LIMIT_TYPES.has(value)) errs.push(invalid(p, value, 'must be a standard limit type or fully qualified'));
  return errs;
}

/** validateContainerResourceName for Pod/Container items, validateResourceName otherwise. */
function validateResourceName(type: string, name: string, p: Path): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalid(p, name, msg));
  if (errs.length > 0 || name.includes('/')) return errs;
  if (type === 'Pod' || type === 'Container') {
    if (!CONTAINER_RESOURCES.has(name) && !isHugePages(name)) errs.push(invalid(p, name, 'must be a standard resource for containers'));
  } else if (!STANDARD_RESOURCES.has(name) && !isHugePages(name)) {
    errs.push(invalid(p, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

type Lists = Record<'max' | 'min' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio', Map<string, Quantity>>;

/** Reads one ResourceList field, checking its names and parsing its quantities. */
function readList(item: Obj, field: keyof Lists, type: string, p: Path, errs: FieldError[]): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  const list = isObj(item[field]) ? item[field] : {};
  for (const name of Object.keys(list).sort()) {
    const at = p.child(field).key(name);
    errs.push(...validateResourceName(type, name, at));
    const parsed = Quantity.parse(String(list[name]));
    if (parsed.ok) out.set(name, parsed.quantity);
    else errs.push(invalid(at, list[name], QUANTITY_SYNTAX));
  }
  return out;
}

export function validateLimitRange(obj: Obj): FieldError[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const limits = Array.isArray(spec.limits) ? spec.limits : [];
  const p = Path.of('spec', 'limits');
  const errs: FieldError[] = [];
  const seenTypes = new Set<string>();
  limits.forEach((raw, i) => {
    const item = isObj(raw) ? raw : {};
    const at = p.at(i);
    const type = typeof item.type === 'string' ? item.type : '';
    errs.push(...validateType(type, at.child('type')));
    if (seenTypes.has(type)) errs.push(duplicate(at.child('type'), type));
    seenTypes.add(type);
    errs.push(...validateItem(item, type, at));
  });
  return errs;
}

function validateItem(item: Obj, type: string, at: Path): FieldError[] {
  const errs: FieldError[] = [];
  const empty = new Map<string, Quantity>();
  const max = readList(item, 'max', type, at, errs);
  const min = readList(item, 'min', type, at, errs);
  let defaults = empty;
  let defaultRequests = empty;
  if (type === 'Pod') {
    if (isObj(item.default) && Object.keys(item.default).length > 0) errs.push(forbidden(at.child('default'), "may not be specified when `type` is 'Pod'"));
    if (isObj(item.defaultRequest) && Object.keys(item.defaultRequest).length > 0) errs.push(forbidden(at.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
  } else {
    defaults = readList(item, 'default', type, at, errs);
    defaultRequests = readList(item, 'defaultRequest', type, at, errs);
  }
  if (type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage')) {
    errs.push(required(at.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
  }
  const ratios = readList(item, 'maxLimitRequestRatio', type, at, errs);
  const lists: Lists = { max, min, default: defaults, defaultRequest: defaultRequests, maxLimitRequestRatio: ratios };
  const names = new Set([...max.keys(), ...min.keys(), ...defaults.keys(), ...defaultRequests.keys(), ...ratios.keys()]);
  for (const name of [...names].sort()) errs.push(...validateOrdering(name, lists, at));
  return errs;
}

/** The per-resource ordering checks: min <= defaultRequest <= default <= max and the ratio bounds. */
function validateOrdering(name: string, l: Lists, at: Path): FieldError[] {
  const errs: FieldError[] = [];
  const [min, max, def, req, ratio] = [l.min.get(name), l.max.get(name), l.default.get(name), l.defaultRequest.get(name), l.maxLimitRequestRatio.get(name)];
  const s = (q: Quantity): string => q.toString();
  const key = (field: keyof Lists): Path => at.child(field).key(name);
  if (min && max && min.cmp(max) > 0) errs.push(invalid(key('min'), s(min), `min value ${s(min)} is greater than max value ${s(max)}`));
  if (req && min && min.cmp(req) > 0) errs.push(invalid(key('defaultRequest'), s(req), `min value ${s(min)} is greater than default request value ${s(req)}`));
  if (req && max && req.cmp(max) > 0) errs.push(invalid(key('defaultRequest'), s(req), `default request value ${s(req)} is greater than max value ${s(max)}`));
  if (req && def && req.cmp(def) > 0) errs.push(invalid(key('defaultRequest'), s(req), `default request value ${s(req)} is greater than default limit value ${s(def)}`));
  if (def && min && min.cmp(def) > 0) errs.push(invalid(key('default'), s(min), `min value ${s(min)} is greater than default value ${s(def)}`));
  if (def && max && def.cmp(max) > 0) errs.push(invalid(key('default'), s(max), `default value ${s(def)} is greater than max value ${s(max)}`));
  if (ratio && ratio.cmp(Quantity.fromInt(1)) < 0) errs.push(invalid(key('maxLimitRequestRatio'), s(ratio), `ratio ${s(ratio)} is less than 1`));
  if (ratio && min && max) {
    const limit = max.milliValue() / min.milliValue();
    if (ratio.milliValue() / 1000 > limit) errs.push(invalid(key('maxLimitRequestRatio'), s(ratio), `ratio ${s(ratio)} is greater than max/min = ${limit.toFixed(6)}`));
  }
  if (isHugePages(name) && def && req && def.cmp(req) !== 0) {
    errs.push(invalid(key('defaultRequest'), s(req), `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${name}`));
  }
  return errs;
}
