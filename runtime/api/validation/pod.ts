// Pod and PodSpec validation: the essentials a learner meets.
// mirrors pkg/apis/core/validation/validation.go (ValidatePodSpec, validateContainers,
// validateContainerPorts, ValidateResourceRequirements, validateRestartPolicy, validateDNSPolicy,
// ValidateTolerations, validateProbe, ValidateVolumes and ValidateVolumeMounts: names only).
import { Path } from '../field/path.ts';
import {
  duplicate,
  forbidden,
  notFound,
  invalid,
  notSupported,
  required,
  type FieldError,
} from '../field/errors.ts';
import { Quantity } from '../resource/quantity.ts';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isEnvVarName,
  isQualifiedName,
  isValidPortName,
  isValidPortNum,
} from './names.ts';
import {
  nonNegative,
  optArray,
  optBool,
  optInt,
  optObject,
  optString,
  optStringArray,
  optStringMap,
  validateLabels,
  type JsonObject,
} from './common.ts';

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** Parses every quantity in a resource list, reporting the ones that do not parse. */
function quantities(raw: unknown, path: Path, errs: FieldError[]): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, text] of Object.entries(optStringMap(raw, path, errs))) {
    const q = Quantity.parse(text);
    if (!q.ok) errs.push(invalid(path.key(name), text, q.error));
    else out.set(name, q.quantity);
  }
  return out;
}

/** ValidateResourceRequirements: non-negative quantities, requests <= limits. */
export function validateResources(raw: unknown, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const r = optObject(raw, path, errs);
  if (!r) return errs;
  const limits = quantities(r.limits, path.child('limits'), errs);
  const requests = quantities(r.requests, path.child('requests'), errs);
  for (const [name, q] of limits) {
    if (q.sign() < 0)
      errs.push(
        invalid(path.child('limits').key(name), q.toString(), 'must be greater than or equal to 0'),
      );
  }
  for (const [name, q] of requests) {
    const p = path.child('requests').key(name);
    if (q.sign() < 0) errs.push(invalid(p, q.toString(), 'must be greater than or equal to 0'));
    const limit = limits.get(name);
    if (limit && q.cmp(limit) > 0) {
      errs.push(
        invalid(
          p,
          q.toString(),
          `must be less than or equal to ${name} limit of ${limit.toString()}`,
        ),
      );
    }
  }
  return errs;
}

function validateProbe(raw: unknown, path: Path, liveness: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const p = optObject(raw, path, errs);
  if (!p) return errs;
  const handlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'].filter(
    (h) => p[h] !== undefined && p[h] !== null,
  );
  if (handlers.length === 0) errs.push(required(path, 'must specify a handler type'));
  else if (handlers.length > 1)
    errs.push(forbidden(path.child(handlers[1]!), 'may not specify more than 1 handler type'));
  for (const field of [
    'initialDelaySeconds',
    'timeoutSeconds',
    'periodSeconds',
    'successThreshold',
    'failureThreshold',
  ]) {
    errs.push(...nonNegative(optInt(p[field], path.child(field), errs), path.child(field)));
  }
  const success = optInt(p.successThreshold, path.child('successThreshold'), errs);
  if (liveness && success !== undefined && success !== 1)
    errs.push(invalid(path.child('successThreshold'), success, 'must be 1'));
  return errs;
}

function validatePorts(raw: unknown, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  optArray(raw, path, errs).forEach((r, i) => {
    const p = path.at(i);
    const port = optObject(r, p, errs);
    if (!port) return;
    const name = optString(port.name, p.child('name'), errs) ?? '';
    if (name !== '') {
      for (const msg of isValidPortName(name)) errs.push(invalid(p.child('name'), name, msg));
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      names.add(name);
    }
    const containerPort = optInt(port.containerPort, p.child('containerPort'), errs) ?? 0;
    if (containerPort === 0) errs.push(required(p.child('containerPort'), ''));
    else
      for (const msg of isValidPortNum(containerPort))
        errs.push(invalid(p.child('containerPort'), containerPort, msg));
    const hostPort = optInt(port.hostPort, p.child('hostPort'), errs) ?? 0;
    if (hostPort !== 0)
      for (const msg of isValidPortNum(hostPort))
        errs.push(invalid(p.child('hostPort'), hostPort, msg));
    const protocol = optString(port.protocol, p.child('protocol'), errs) ?? '';
    if (protocol === '') errs.push(required(p.child('protocol'), ''));
    else if (!PROTOCOLS.includes(protocol))
      errs.push(notSupported(p.child('protocol'), protocol, PROTOCOLS));
  });
  return errs;
}

function validateEnv(raw: unknown, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  optArray(raw, path, errs).forEach((r, i) => {
    const p = path.at(i);
    const env = optObject(r, p, errs);
    if (!env) return;
    const name = optString(env.name, p.child('name'), errs) ?? '';
    if (name === '') errs.push(required(p.child('name'), ''));
    else for (const msg of isEnvVarName(name)) errs.push(invalid(p.child('name'), name, msg));
  });
  return errs;
}

/**
 * ValidateVolumes, the names: each volume a DNS label, unique (its source is not checked).
 * Returns the names, which volume mounts must match.
 */
function validateVolumes(raw: unknown, path: Path, errs: FieldError[]): Set<string> {
  const names = new Set<string>();
  optArray(raw, path, errs).forEach((r, i) => {
    const v = optObject(r, path.at(i), errs);
    if (!v) return;
    const namePath = path.at(i).child('name');
    const name = optString(v.name, namePath, errs) ?? '';
    if (name === '') errs.push(required(namePath, ''));
    else for (const msg of isDNS1123Label(name)) errs.push(invalid(namePath, name, msg));
    if (names.has(name)) errs.push(duplicate(namePath, name));
    names.add(name);
  });
  return names;
}

/** ValidateVolumeMounts: a name matching a volume, a mount path, each path once. */
function validateVolumeMounts(raw: unknown, path: Path, volumes: ReadonlySet<string>, errs: FieldError[]): void {
  const mountPoints = new Set<string>();
  optArray(raw, path, errs).forEach((r, i) => {
    const m = optObject(r, path.at(i), errs);
    if (!m) return;
    const p = path.at(i);
    const name = optString(m.name, p.child('name'), errs) ?? '';
    if (name === '') errs.push(required(p.child('name'), ''));
    if (!volumes.has(name)) errs.push(notFound(p.child('name'), name));
    const mountPath = optString(m.mountPath, p.child('mountPath'), errs) ?? '';
    if (mountPath === '') errs.push(required(p.child('mountPath'), ''));
    if (mountPoints.has(mountPath)) errs.push(invalid(p.child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    optBool(m.readOnly, p.child('readOnly'), errs);
  });
}

function validateContainer(c: JsonObject, p: Path, names: Set<string>, volumes: ReadonlySet<string>, errs: FieldError[]): void {
  const name = optString(c.name, p.child('name'), errs) ?? '';
  if (name === '') errs.push(required(p.child('name'), ''));
  else {
    for (const msg of isDNS1123Label(name)) errs.push(invalid(p.child('name'), name, msg));
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    names.add(name);
  }
  const image = optString(c.image, p.child('image'), errs) ?? '';
  if (image === '') errs.push(required(p.child('image'), ''));
  else if (image !== image.trim())
    errs.push(invalid(p.child('image'), image, 'must not have leading or trailing whitespace'));
  const policy = optString(c.imagePullPolicy, p.child('imagePullPolicy'), errs) ?? '';
  if (policy === '') errs.push(required(p.child('imagePullPolicy'), ''));
  else if (!PULL_POLICIES.includes(policy))
    errs.push(notSupported(p.child('imagePullPolicy'), policy, PULL_POLICIES));
  optStringArray(c.command, p.child('command'), errs);
  optStringArray(c.args, p.child('args'), errs);
  errs.push(...validatePorts(c.ports, p.child('ports')));
  errs.push(...validateEnv(c.env, p.child('env')));
  errs.push(...validateResources(c.resources, p.child('resources')));
  errs.push(...validateProbe(c.livenessProbe, p.child('livenessProbe'), true));
  errs.push(...validateProbe(c.readinessProbe, p.child('readinessProbe'), false));
  errs.push(...validateProbe(c.startupProbe, p.child('startupProbe'), true));
  validateVolumeMounts(c.volumeMounts, p.child('volumeMounts'), volumes, errs);
}

function validateContainers(
  raw: unknown,
  path: Path,
  names: Set<string>,
  requireOne: boolean,
  volumes: ReadonlySet<string>,
): FieldError[] {
  const errs: FieldError[] = [];
  const list = optArray(raw, path, errs);
  if (requireOne && list.length === 0 && errs.length === 0) return [required(path, '')];
  list.forEach((r, i) => {
    const c = optObject(r, path.at(i), errs);
    if (c) validateContainer(c, path.at(i), names, volumes, errs);
  });
  return errs;
}

/** ValidateTolerations. */
function validateTolerations(raw: unknown, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  optArray(raw, path, errs).forEach((r, i) => {
    const p = path.at(i);
    const t = optObject(r, p, errs);
    if (!t) return;
    const key = optString(t.key, p.child('key'), errs) ?? '';
    const operator = optString(t.operator, p.child('operator'), errs) ?? 'Equal';
    const value = optString(t.value, p.child('value'), errs) ?? '';
    const effect = optString(t.effect, p.child('effect'), errs) ?? '';
    if (key !== '')
      for (const msg of isQualifiedName(key)) errs.push(invalid(p.child('key'), key, msg));
    if (key === '' && operator !== 'Exists') {
      errs.push(
        invalid(
          p.child('operator'),
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (
      optInt(t.tolerationSeconds, p.child('tolerationSeconds'), errs) !== undefined &&
      effect !== 'NoExecute'
    ) {
      errs.push(
        invalid(
          p.child('effect'),
          effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    }
    if (operator === 'Exists' && value !== '')
      errs.push(
        invalid(p.child('operator'), value, "value must be empty when `operator` is 'Exists'"),
      );
    else if (operator !== 'Equal' && operator !== 'Exists')
      errs.push(notSupported(p.child('operator'), operator, ['Equal', 'Exists']));
    if (effect !== '' && !TAINT_EFFECTS.includes(effect))
      errs.push(notSupported(p.child('effect'), effect, TAINT_EFFECTS));
  });
  return errs;
}

/** ValidatePodSpec essentials. `path` is "spec" for a Pod, "spec.template.spec" for a template. */
export function validatePodSpec(raw: unknown, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const spec = optObject(raw, path, errs);
  if (!spec) return raw === undefined || raw === null ? [required(path, '')] : errs;
  const names = new Set<string>();
  const volumes = validateVolumes(spec.volumes, path.child('volumes'), errs);
  errs.push(...validateContainers(spec.containers, path.child('containers'), names, true, volumes));
  errs.push(...validateContainers(spec.initContainers, path.child('initContainers'), names, false, volumes));
  const restart = optString(spec.restartPolicy, path.child('restartPolicy'), errs) ?? '';
  if (restart === '') errs.push(required(path.child('restartPolicy'), ''));
  else if (!RESTART_POLICIES.includes(restart))
    errs.push(notSupported(path.child('restartPolicy'), restart, RESTART_POLICIES));
  const dns = optString(spec.dnsPolicy, path.child('dnsPolicy'), errs) ?? '';
  if (dns === '') errs.push(required(path.child('dnsPolicy'), ''));
  else if (!DNS_POLICIES.includes(dns))
    errs.push(notSupported(path.child('dnsPolicy'), dns, DNS_POLICIES));
  errs.push(
    ...validateLabels(
      optStringMap(spec.nodeSelector, path.child('nodeSelector'), errs),
      path.child('nodeSelector'),
    ),
  );
  const nodeName = optString(spec.nodeName, path.child('nodeName'), errs) ?? '';
  if (nodeName !== '')
    for (const msg of isDNS1123Subdomain(nodeName))
      errs.push(invalid(path.child('nodeName'), nodeName, msg));
  const sa = optString(spec.serviceAccountName, path.child('serviceAccountName'), errs) ?? '';
  if (sa !== '')
    for (const msg of isDNS1123Subdomain(sa))
      errs.push(invalid(path.child('serviceAccountName'), sa, msg));
  const deadline = optInt(spec.activeDeadlineSeconds, path.child('activeDeadlineSeconds'), errs);
  if (deadline !== undefined && (deadline < 1 || deadline > 2_147_483_647)) {
    errs.push(
      invalid(
        path.child('activeDeadlineSeconds'),
        deadline,
        'must be between 1 and 2147483647, inclusive',
      ),
    );
  }
  optInt(spec.terminationGracePeriodSeconds, path.child('terminationGracePeriodSeconds'), errs);
  optInt(spec.priority, path.child('priority'), errs);
  optBool(spec.hostNetwork, path.child('hostNetwork'), errs);
  optString(spec.schedulerName, path.child('schedulerName'), errs);
  optObject(spec.affinity, path.child('affinity'), errs);
  errs.push(...validateTolerations(spec.tolerations, path.child('tolerations')));
  return errs;
}

/** Pod: ObjectMeta is checked by the caller; this checks spec (status is ignored on create). */
export function validatePod(pod: JsonObject): FieldError[] {
  return validatePodSpec(pod.spec, Path.of('spec'));
}
