// Service, Namespace, Node, ConfigMap, EndpointSlice and RBAC validation (the learner-visible parts).
// mirrors pkg/apis/core/validation/validation.go (ValidateService, ValidateNode, ValidateConfigMap),
// pkg/apis/discovery/validation/validation.go and pkg/apis/rbac/validation/validation.go.
import { Path } from '../field/path.ts';
import {
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldError,
} from '../field/errors.ts';
import {
  isConfigMapKey,
  isDNS1123Label,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  isValidPortNum,
} from './names.ts';
import {
  optArray,
  optInt,
  optObject,
  optString,
  optStringArray,
  optStringMap,
  validateLabels,
  type JsonObject,
} from './common.ts';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const RBAC_GROUP = 'rbac.authorization.k8s.io';

function validateServicePort(
  raw: unknown,
  p: Path,
  many: boolean,
  type: string,
  names: Set<string>,
  errs: FieldError[],
): void {
  const sp = optObject(raw, p, errs);
  if (!sp) return;
  const name = optString(sp.name, p.child('name'), errs) ?? '';
  if (many && name === '') errs.push(required(p.child('name'), ''));
  else if (name !== '') {
    for (const msg of isDNS1123Label(name)) errs.push(invalid(p.child('name'), name, msg));
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    names.add(name);
  }
  const port = optInt(sp.port, p.child('port'), errs) ?? 0;
  for (const msg of isValidPortNum(port)) errs.push(invalid(p.child('port'), port, msg));
  const protocol = optString(sp.protocol, p.child('protocol'), errs) ?? '';
  if (protocol === '') errs.push(required(p.child('protocol'), ''));
  else if (!PROTOCOLS.includes(protocol))
    errs.push(notSupported(p.child('protocol'), protocol, PROTOCOLS));
  const target = sp.targetPort;
  if (typeof target === 'number')
    for (const msg of isValidPortNum(target))
      errs.push(invalid(p.child('targetPort'), target, msg));
  else if (typeof target === 'string')
    for (const msg of isValidPortName(target))
      errs.push(invalid(p.child('targetPort'), target, msg));
  const nodePort = optInt(sp.nodePort, p.child('nodePort'), errs) ?? 0;
  if (nodePort !== 0 && type === 'ClusterIP')
    errs.push(forbidden(p.child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
  else if (nodePort !== 0)
    for (const msg of isValidPortNum(nodePort))
      errs.push(invalid(p.child('nodePort'), nodePort, msg));
}

export function validateService(obj: JsonObject): FieldError[] {
  const path = Path.of('spec');
  const errs: FieldError[] = [];
  const spec = optObject(obj.spec, path, errs);
  if (!spec) return errs.length ? errs : [required(path, '')];
  const type = optString(spec.type, path.child('type'), errs) ?? '';
  if (type === '') errs.push(required(path.child('type'), ''));
  else if (!SERVICE_TYPES.includes(type))
    errs.push(notSupported(path.child('type'), type, SERVICE_TYPES));
  const ports = optArray(spec.ports, path.child('ports'), errs);
  const headless = spec.clusterIP === 'None';
  if (ports.length === 0 && !headless && type !== 'ExternalName')
    errs.push(required(path.child('ports'), ''));
  const names = new Set<string>();
  ports.forEach((sp, i) =>
    validateServicePort(sp, path.child('ports').at(i), ports.length > 1, type, names, errs),
  );
  errs.push(
    ...validateLabels(
      optStringMap(spec.selector, path.child('selector'), errs),
      path.child('selector'),
    ),
  );
  const affinity = optString(spec.sessionAffinity, path.child('sessionAffinity'), errs) ?? '';
  if (affinity === '') errs.push(required(path.child('sessionAffinity'), ''));
  else if (affinity !== 'ClientIP' && affinity !== 'None')
    errs.push(notSupported(path.child('sessionAffinity'), affinity, ['ClientIP', 'None']));
  if (type === 'ExternalName') {
    const external = optString(spec.externalName, path.child('externalName'), errs) ?? '';
    if (external === '') errs.push(required(path.child('externalName'), ''));
  }
  validateHealthCheckNodePort(spec, type, path, errs);
  return errs;
}

/**
 * validateServiceExternalTrafficPolicy, the healthCheckNodePort half. Upstream also requires it
 * on a Local LoadBalancer (its allocator always fills it in); ours comes from the cluster's
 * admission plugin, which an API server started on its own does not have, so 0 passes here.
 */
function validateHealthCheckNodePort(spec: JsonObject, type: string, path: Path, errs: FieldError[]): void {
  const p = path.child('healthCheckNodePort');
  const port = optInt(spec.healthCheckNodePort, p, errs) ?? 0;
  if (port === 0) return;
  if (type !== 'LoadBalancer' || spec.externalTrafficPolicy !== 'Local') {
    errs.push(invalid(p, port, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else for (const msg of isValidPortNum(port)) errs.push(invalid(p, port, msg));
}

export function validateNode(obj: JsonObject): FieldError[] {
  const path = Path.of('spec');
  const errs: FieldError[] = [];
  const spec = optObject(obj.spec, path, errs);
  if (!spec) return errs;
  optArray(spec.taints, path.child('taints'), errs).forEach((raw, i) => {
    const p = path.child('taints').at(i);
    const t = optObject(raw, p, errs);
    if (!t) return;
    const key = optString(t.key, p.child('key'), errs) ?? '';
    for (const msg of isQualifiedName(key)) errs.push(invalid(p.child('key'), key, msg));
    const value = optString(t.value, p.child('value'), errs) ?? '';
    for (const msg of isValidLabelValue(value)) errs.push(invalid(p.child('value'), value, msg));
    const effect = optString(t.effect, p.child('effect'), errs) ?? '';
    if (effect === '') errs.push(required(p.child('effect'), ''));
    else if (!TAINT_EFFECTS.includes(effect))
      errs.push(notSupported(p.child('effect'), effect, TAINT_EFFECTS));
  });
  return errs;
}

export function validateConfigMap(obj: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = optStringMap(obj.data, Path.of('data'), errs);
  const binary = optStringMap(obj.binaryData, Path.of('binaryData'), errs);
  // upstream names each key in the path: data[my key]
  for (const key of Object.keys(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(invalid(Path.of('data').key(key), key, msg));
    if (key in binary) errs.push(invalid(Path.of('data').key(key), key, 'duplicate of key present in binaryData'));
  }
  for (const key of Object.keys(binary))
    for (const msg of isConfigMapKey(key)) errs.push(invalid(Path.of('binaryData').key(key), key, msg));
  return errs;
}

export function validateEndpointSlice(obj: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = optString(obj.addressType, Path.of('addressType'), errs) ?? '';
  const types = ['IPv4', 'IPv6', 'FQDN'];
  if (type === '') errs.push(required(Path.of('addressType'), ''));
  else if (!types.includes(type)) errs.push(notSupported(Path.of('addressType'), type, types));
  optArray(obj.endpoints, Path.of('endpoints'), errs).forEach((raw, i) => {
    const p = Path.of('endpoints').at(i);
    const e = optObject(raw, p, errs);
    if (!e) return;
    const addresses = optArray(e.addresses, p.child('addresses'), errs);
    if (addresses.length === 0)
      errs.push(required(p.child('addresses'), 'must contain at least 1 address'));
  });
  return errs;
}

// ---------------------------------------------------------------- RBAC

function validatePolicyRules(obj: JsonObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  optArray(obj.rules, Path.of('rules'), errs).forEach((raw, i) => {
    const p = Path.of('rules').at(i);
    const rule = optObject(raw, p, errs);
    if (!rule) return;
    // []string: an element of another type was once stored, and describe and the authorizer threw on it
    const verbs = optStringArray(rule.verbs, p.child('verbs'), errs);
    if (verbs.length === 0)
      errs.push(required(p.child('verbs'), 'verbs must contain at least one value'));
    const urls = optStringArray(rule.nonResourceURLs, p.child('nonResourceURLs'), errs);
    const groups = optStringArray(rule.apiGroups, p.child('apiGroups'), errs);
    const resources = optStringArray(rule.resources, p.child('resources'), errs);
    optStringArray(rule.resourceNames, p.child('resourceNames'), errs);
    if (urls.length > 0) {
      if (namespaced)
        errs.push(
          invalid(
            p.child('nonResourceURLs'),
            urls,
            'namespaced rules cannot apply to non-resource URLs',
          ),
        );
      if (groups.length > 0 || resources.length > 0) {
        errs.push(
          invalid(
            p.child('nonResourceURLs'),
            urls,
            'rules cannot apply to both regular resources and non-resource URLs',
          ),
        );
      }
      return;
    }
    if (groups.length === 0)
      errs.push(
        required(p.child('apiGroups'), 'resource rules must supply at least one api group'),
      );
    if (resources.length === 0)
      errs.push(required(p.child('resources'), 'resource rules must supply at least one resource'));
  });
  return errs;
}

export const validateRole = (obj: JsonObject): FieldError[] => validatePolicyRules(obj, true);
export const validateClusterRole = (obj: JsonObject): FieldError[] =>
  validatePolicyRules(obj, false);

function validateSubjects(obj: JsonObject, clusterScoped: boolean): FieldError[] {
  const errs: FieldError[] = [];
  optArray(obj.subjects, Path.of('subjects'), errs).forEach((raw, i) => {
    const p = Path.of('subjects').at(i);
    const s = optObject(raw, p, errs);
    if (!s) return;
    const name = optString(s.name, p.child('name'), errs) ?? '';
    if (name === '') errs.push(required(p.child('name'), ''));
    const kind = optString(s.kind, p.child('kind'), errs) ?? '';
    const group = optString(s.apiGroup, p.child('apiGroup'), errs) ?? '';
    if (kind === 'ServiceAccount') {
      if (group !== '') errs.push(notSupported(p.child('apiGroup'), group, ['']));
      if (clusterScoped && (optString(s.namespace, p.child('namespace'), errs) ?? '') === '')
        errs.push(required(p.child('namespace'), ''));
    } else if (kind === 'User' || kind === 'Group') {
      if (group !== RBAC_GROUP) errs.push(notSupported(p.child('apiGroup'), group, [RBAC_GROUP]));
    } else {
      errs.push(notSupported(p.child('kind'), kind, ['ServiceAccount', 'User', 'Group']));
    }
  });
  return errs;
}

function validateRoleRef(obj: JsonObject, kinds: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const p = Path.of('roleRef');
  const ref = optObject(obj.roleRef, p, errs);
  if (!ref) return errs.length ? errs : [required(p, '')];
  const group = optString(ref.apiGroup, p.child('apiGroup'), errs) ?? '';
  if (group !== RBAC_GROUP) errs.push(notSupported(p.child('apiGroup'), group, [RBAC_GROUP]));
  const kind = optString(ref.kind, p.child('kind'), errs) ?? '';
  if (!kinds.includes(kind)) errs.push(notSupported(p.child('kind'), kind, kinds));
  if ((optString(ref.name, p.child('name'), errs) ?? '') === '')
    errs.push(required(p.child('name'), ''));
  return errs;
}

export const validateRoleBinding = (obj: JsonObject): FieldError[] => [
  ...validateRoleRef(obj, ['Role', 'ClusterRole']),
  ...validateSubjects(obj, false),
];
export const validateClusterRoleBinding = (obj: JsonObject): FieldError[] => [
  ...validateRoleRef(obj, ['ClusterRole']),
  ...validateSubjects(obj, true),
];
