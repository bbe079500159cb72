// Defaulting for every kind we serve: what the API server fills in before validation.
// mirrors pkg/apis/core/v1/defaults.go (LimitRange items in limit-range.ts), pkg/apis/apps/v1/defaults.go,
// pkg/apis/rbac/v1/defaults.go, pkg/apis/discovery/v1/defaults.go, and the registry
// strategies that default on create (namespace finalizers, service IP families).
import type { KubeObject } from '../types/meta.ts';
import type { Endpoints, Namespace, Node, Pod, PodTemplateSpec, Secret, Service } from '../types/core.ts';
import type { DaemonSet, Deployment, ReplicaSet } from '../types/apps.ts';
import type { ClusterRoleBinding, RoleBinding, Subject } from '../types/rbac.ts';
import type { EndpointSlice } from '../types/discovery.ts';
import { cloneJson } from '../json-clone.ts';
import { defaultLimitRange } from './limit-range.ts';
import { defaultPodSpec } from './pod.ts';
import { defaultPriorityClass } from './scheduling.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function defaultTemplate(t: PodTemplateSpec | undefined): void {
  if (isObject(t) && isObject(t.spec)) defaultPodSpec(t.spec, false);
}

function defaultPod(p: Pod): void {
  if (isObject(p.spec)) defaultPodSpec(p.spec);
}

/** SetDefaults_Deployment: replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600. */
function defaultDeployment(d: Deployment): void {
  if (!isObject(d.spec)) return;
  const spec = d.spec;
  spec.replicas ??= 1;
  spec.strategy ??= {};
  if (!isObject(spec.strategy)) return;
  spec.strategy.type ??= 'RollingUpdate';
  if (spec.strategy.type === 'RollingUpdate') {
    spec.strategy.rollingUpdate ??= {};
    const ru = spec.strategy.rollingUpdate;
    if (isObject(ru)) {
      ru.maxUnavailable ??= '25%';
      ru.maxSurge ??= '25%';
    }
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  defaultTemplate(spec.template);
}

function defaultReplicaSet(rs: ReplicaSet): void {
  if (!isObject(rs.spec)) return;
  rs.spec.replicas ??= 1;
  defaultTemplate(rs.spec.template);
}

/** SetDefaults_DaemonSet: RollingUpdate with maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10. */
function defaultDaemonSet(ds: DaemonSet): void {
  if (!isObject(ds.spec)) return;
  const spec = ds.spec;
  spec.updateStrategy ??= {};
  if (!isObject(spec.updateStrategy)) return;
  spec.updateStrategy.type ??= 'RollingUpdate';
  if (spec.updateStrategy.type === 'RollingUpdate') {
    spec.updateStrategy.rollingUpdate ??= {};
    const ru = spec.updateStrategy.rollingUpdate;
    if (isObject(ru)) {
      ru.maxUnavailable ??= 1;
      ru.maxSurge ??= 0;
    }
  }
  spec.revisionHistoryLimit ??= 10;
  defaultTemplate(spec.template);
}

/**
 * SetDefaults_Service (+ the IP-family defaults the service registry applies on create): ClientIP
 * affinity's 3-hour timeout (None drops any affinity config), Cluster traffic policies, and the
 * external one for every externally accessible Service (apiservice.ExternallyAccessible: node
 * ports, load balancers, and cluster IPs with external IPs).
 */
function defaultService(s: Service): void {
  if (!isObject(s.spec)) return;
  const spec = s.spec;
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const cfg = isObject(spec.sessionAffinityConfig) ? spec.sessionAffinityConfig : (spec.sessionAffinityConfig = {});
    const clientIP = isObject(cfg.clientIP) ? cfg.clientIP : (cfg.clientIP = {});
    clientIP.timeoutSeconds ??= 10800;
  }
  for (const port of Array.isArray(spec.ports) ? spec.ports.filter(isObject) : []) {
    port.protocol ??= 'TCP';
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '')
      port.targetPort = port.port;
  }
  const externalIPs = Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0;
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || (spec.type === 'ClusterIP' && externalIPs))
    spec.externalTrafficPolicy ??= 'Cluster';
  if (spec.type !== 'ExternalName') {
    spec.internalTrafficPolicy ??= 'Cluster';
    spec.ipFamilyPolicy ??= 'SingleStack';
    spec.ipFamilies ??= ['IPv4'];
  }
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  s.status ??= { loadBalancer: {} };
}

/** SetDefaults_Namespace (metadata.name label), phase Active, and the "kubernetes" finalizer set on create. */
function defaultNamespace(ns: Namespace): void {
  const name = ns.metadata?.name;
  if (typeof name === 'string' && name !== '' && isObject(ns.metadata)) {
    ns.metadata.labels ??= {};
    const labels: unknown = ns.metadata.labels;
    if (isObject(labels)) labels['kubernetes.io/metadata.name'] = name;
  }
  ns.spec ??= {};
  if (isObject(ns.spec)) ns.spec.finalizers ??= ['kubernetes'];
  ns.status ??= {};
  if (isObject(ns.status)) ns.status.phase ??= 'Active';
}

/** SetDefaults_NodeStatus: allocatable defaults to capacity. */
function defaultNode(n: Node): void {
  if (isObject(n.status) && isObject(n.status.capacity) && !n.status.allocatable)
    n.status.allocatable = { ...n.status.capacity };
}

/** SetDefaults_Subject: users and groups live in the RBAC group, service accounts in the core group. */
function defaultSubjects(subjects: Subject[] | undefined): void {
  for (const s of Array.isArray(subjects) ? subjects.filter(isObject) : []) {
    if (s.apiGroup === undefined) s.apiGroup = s.kind === 'ServiceAccount' ? '' : RBAC_GROUP;
  }
}

function defaultBinding(b: RoleBinding | ClusterRoleBinding): void {
  if (isObject(b.roleRef) && !b.roleRef.apiGroup) b.roleRef.apiGroup = RBAC_GROUP;
  defaultSubjects(b.subjects);
}

function defaultEndpointSlice(es: EndpointSlice): void {
  for (const p of Array.isArray(es.ports) ? es.ports.filter(isObject) : []) {
    p.protocol ??= 'TCP';
    p.name ??= '';
  }
}

/** SetDefaults_Endpoints: a port without a protocol is TCP. */
function defaultEndpoints(ep: Endpoints): void {
  for (const ss of Array.isArray(ep.subsets) ? ep.subsets.filter(isObject) : []) {
    for (const p of Array.isArray(ss.ports) ? ss.ports.filter(isObject) : []) p.protocol ??= 'TCP';
  }
}

/** A deep copy of JSON-shaped data (objects, arrays, primitives); the runtime's DeepCopy. */
export function deepCopy<T>(value: T): T {
  return cloneJson(value);
}

/** SetDefaults_Secret: an untyped Secret is Opaque. */
function defaultSecret(s: Secret): void {
  if (s.type === undefined || s.type === '') s.type = 'Opaque';
}

const BY_KIND: Record<string, (o: never) => void> = {
  Secret: defaultSecret,
  Pod: defaultPod,
  Deployment: defaultDeployment,
  ReplicaSet: defaultReplicaSet,
  DaemonSet: defaultDaemonSet,
  Service: defaultService,
  Namespace: defaultNamespace,
  Node: defaultNode,
  RoleBinding: defaultBinding,
  ClusterRoleBinding: defaultBinding,
  EndpointSlice: defaultEndpointSlice,
  Endpoints: defaultEndpoints,
  PriorityClass: defaultPriorityClass,
  LimitRange: defaultLimitRange,
};

/**
 * Returns a defaulted deep copy of `obj` for `kind` (defaults to obj.kind). Never throws on
 * malformed input: fields of the wrong type are left for validation to report.
 */
export function defaultObject<T extends KubeObject>(obj: T, kind: string = obj.kind ?? ''): T {
  const copy = deepCopy(obj);
  applyDefaults(copy, kind);
  return copy;
}

/** Defaults `obj` in place (the API server's decoded request body, which is its own copy already). */
export function applyDefaults(obj: KubeObject, kind: string = obj.kind ?? ''): void {
  const fn = BY_KIND[kind];
  if (fn && isObject(obj)) fn(obj as never);
}
