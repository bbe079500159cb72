// Pod and pod-template defaulting.
// mirrors pkg/apis/core/v1/defaults.go (SetDefaults_Pod, SetDefaults_PodSpec, SetDefaults_Container,
// SetDefaults_ContainerPort, SetDefaults_Probe, SetDefaults_HTTPGetAction, SetDefaults_Volume...).
// Functions mutate the object they are given; defaultObject() in defaults.ts copies first.
import type { Container, PodSpec, Probe, Volume } from '../types/core.ts';
import { Quantity } from '../resource/quantity.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** The object elements of a list; anything else (malformed input) is left for validation. */
function objects<T>(list: T[] | undefined): T[] {
  return Array.isArray(list) ? list.filter((x) => isObject(x)) : [];
}

/** The mode Kubernetes gives projected files (0644). */
export const DEFAULT_FILE_MODE = 420;

/**
 * Always for ":latest" or an untagged image, IfNotPresent otherwise; a digest counts as a tag.
 * mirrors SetDefaults_Container with parsers.ParseImageName.
 */
export function defaultPullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  if (!image) return 'Always';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  const tag = colon > lastSlash ? image.slice(colon + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** SetDefaults_Probe: a field that is 0 (Go cannot tell it from unset) or absent takes its default. */
function defaultProbe(p: Probe | undefined): void {
  if (!isObject(p)) return;
  const unset = (v: unknown): boolean => v === undefined || v === null || v === 0;
  if (unset(p.timeoutSeconds)) p.timeoutSeconds = 1;
  if (unset(p.periodSeconds)) p.periodSeconds = 10;
  if (unset(p.successThreshold)) p.successThreshold = 1;
  if (unset(p.failureThreshold)) p.failureThreshold = 3;
  if (isObject(p.httpGet)) {
    p.httpGet.path ??= '/';
    p.httpGet.scheme ??= 'HTTP';
  }
  if (isObject(p.grpc)) p.grpc.service ??= '';
}

/**
 * Quantities are decoded when the API server reads a request and printed back canonically, so a
 * manifest's `cpu: 64` (a YAML number) or `cpu: 0.5` is stored as "64" or "500m"
 * (resource.Quantity UnmarshalJSON accepts numbers; MarshalJSON prints String()).
 * Values that do not parse are left alone for validation to report.
 */
function canonicalizeQuantities(list: unknown): void {
  if (!isObject(list)) return;
  for (const [name, value] of Object.entries(list)) {
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    if (typeof text !== 'string') continue;
    const parsed = Quantity.parse(text);
    if (parsed.ok) list[name] = parsed.quantity.toString();
  }
}

function defaultContainer(c: Container, hostNetwork: boolean, inPod: boolean): void {
  c.imagePullPolicy ??= defaultPullPolicy(typeof c.image === 'string' ? c.image : undefined);
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.resources ??= {};
  if (isObject(c.resources)) {
    canonicalizeQuantities(c.resources.limits);
    canonicalizeQuantities(c.resources.requests);
  }
  // SetDefaults_Pod: a limit without a request requests the limit
  // SetDefaults_Pod, not SetDefaults_PodSpec: requests default to limits in a Pod only, never in a
  // template (defaults.go: "we only want this defaulting semantic to take place on a v1.Pod")
  const limits = isObject(c.resources) ? c.resources.limits : undefined;
  if (inPod && isObject(limits) && Object.keys(limits).length > 0) {
    c.resources.requests ??= {};
    const requests: unknown = c.resources.requests;
    if (isObject(requests))
      for (const [name, value] of Object.entries(limits)) requests[name] ??= value;
  }
  for (const port of objects(c.ports)) {
    port.protocol ??= 'TCP';
    if (hostNetwork && port.hostPort === undefined) port.hostPort = port.containerPort;
  }
  for (const env of objects(c.env)) {
    if (isObject(env.valueFrom) && isObject(env.valueFrom.fieldRef))
      env.valueFrom.fieldRef.apiVersion ??= 'v1';
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
}

function defaultVolume(v: Volume): void {
  if (isObject(v.configMap)) v.configMap.defaultMode ??= DEFAULT_FILE_MODE;
  if (isObject(v.secret)) v.secret.defaultMode ??= DEFAULT_FILE_MODE;
  if (isObject(v.projected)) v.projected.defaultMode ??= DEFAULT_FILE_MODE;
  if (isObject(v.hostPath)) v.hostPath.type ??= '';
}

/** SetDefaults_PodSpec and its containers; `inPod` adds SetDefaults_Pod's (a template gets only the former). */
export function defaultPodSpec(spec: PodSpec, inPod = true): void {
  if (!isObject(spec)) return;
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  spec.schedulerName ??= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  // the deprecated field mirrors serviceAccountName on the wire (v1 conversion)
  if (spec.serviceAccountName !== undefined) spec.serviceAccount ??= spec.serviceAccountName;
  const hostNetwork = spec.hostNetwork === true;
  for (const c of objects(spec.initContainers)) defaultContainer(c, hostNetwork, inPod);
  for (const c of objects(spec.containers)) defaultContainer(c, hostNetwork, inPod);
  for (const v of objects(spec.volumes)) defaultVolume(v);
}
