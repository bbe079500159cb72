// The kind registry: what API discovery (`kubectl api-resources`) reports for each kind we serve.
// Names, short names, categories and scope mirror a real v1.3x cluster's discovery documents
// (GET /api/v1, /apis/apps/v1, ...), whose source is each registry's ShortNames()/Categories() in
// pkg/registry/<group>/<resource>/storage/storage.go.

export interface ResourceInfo {
  /** The kind, e.g. "Deployment". */
  readonly kind: string;
  /** Plural resource name used in URLs and RBAC, e.g. "deployments". */
  readonly resource: string;
  /** Singular resource name, e.g. "deployment". */
  readonly singular: string;
  /** API group, "" for the core group. */
  readonly group: string;
  readonly version: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly verbs: readonly string[];
  readonly subresources: readonly string[];
}

const STANDARD_VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
] as const;

function info(
  kind: string,
  resource: string,
  group: string,
  version: string,
  namespaced: boolean,
  extra: { shortNames?: string[]; categories?: string[]; subresources?: string[]; verbs?: readonly string[] } = {},
): ResourceInfo {
  return Object.freeze({
    kind,
    resource,
    singular: kind.toLowerCase(),
    group,
    version,
    namespaced,
    shortNames: Object.freeze(extra.shortNames ?? []),
    categories: Object.freeze(extra.categories ?? []),
    verbs: extra.verbs ? Object.freeze([...extra.verbs]) : STANDARD_VERBS,
    subresources: Object.freeze(extra.subresources ?? []),
  });
}

/**
 * Every resource the simulated API server serves. Order matters where two groups serve the same
 * resource name ("events"): like kubectl's RESTMapper, the core group wins an unqualified lookup.
 */
export const RESOURCES: readonly ResourceInfo[] = Object.freeze([
  info('Namespace', 'namespaces', '', 'v1', false, {
    shortNames: ['ns'],
    subresources: ['finalize', 'status'],
  }),
  info('Node', 'nodes', '', 'v1', false, { shortNames: ['no'], subresources: ['proxy', 'status'] }),
  info('Pod', 'pods', '', 'v1', true, {
    shortNames: ['po'],
    categories: ['all'],
    subresources: [
      'attach',
      'binding',
      'eviction',
      'exec',
      'log',
      'portforward',
      'proxy',
      'status',
      'ephemeralcontainers',
      'resize',
    ],
  }),
  info('Service', 'services', '', 'v1', true, {
    shortNames: ['svc'],
    categories: ['all'],
    subresources: ['proxy', 'status'],
  }),
  // pkg/registry/core/componentstatus: read-only, computed by the API server on each request
  info('ComponentStatus', 'componentstatuses', '', 'v1', false, { shortNames: ['cs'], verbs: ['get', 'list'] }),
  // pkg/registry/core/endpoint/storage: short name "ep"; deprecated for EndpointSlice in v1.33
  info('Endpoints', 'endpoints', '', 'v1', true, { shortNames: ['ep'] }),
  info('ConfigMap', 'configmaps', '', 'v1', true, { shortNames: ['cm'] }),
  info('Secret', 'secrets', '', 'v1', true),
  info('ServiceAccount', 'serviceaccounts', '', 'v1', true, {
    shortNames: ['sa'],
    subresources: ['token'],
  }),
  info('Event', 'events', '', 'v1', true, { shortNames: ['ev'] }),
  // pkg/registry/core/limitrange and resourcequota storage: short names "limits" and "quota"
  info('LimitRange', 'limitranges', '', 'v1', true, { shortNames: ['limits'] }),
  info('ResourceQuota', 'resourcequotas', '', 'v1', true, { shortNames: ['quota'], subresources: ['status'] }),
  info('Deployment', 'deployments', 'apps', 'v1', true, {
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: ['scale', 'status'],
  }),
  info('ReplicaSet', 'replicasets', 'apps', 'v1', true, {
    shortNames: ['rs'],
    categories: ['all'],
    subresources: ['scale', 'status'],
  }),
  info('DaemonSet', 'daemonsets', 'apps', 'v1', true, {
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
  }),
  info('ControllerRevision', 'controllerrevisions', 'apps', 'v1', true),
  // the reviews: answered from the request's user, never stored (create only)
  info('SelfSubjectReview', 'selfsubjectreviews', 'authentication.k8s.io', 'v1', false, { verbs: ['create'] }),
  info('SelfSubjectAccessReview', 'selfsubjectaccessreviews', 'authorization.k8s.io', 'v1', false, { verbs: ['create'] }),
  info('SelfSubjectRulesReview', 'selfsubjectrulesreviews', 'authorization.k8s.io', 'v1', false, { verbs: ['create'] }),
  info('EndpointSlice', 'endpointslices', 'discovery.k8s.io', 'v1', true),
  info('Event', 'events', 'events.k8s.io', 'v1', true, { shortNames: ['ev'] }),
  info('Lease', 'leases', 'coordination.k8s.io', 'v1', true),
  // networking.k8s.io (group priority 17200, above rbac's 17000): Service IPs and their ranges
  info('IPAddress', 'ipaddresses', 'networking.k8s.io', 'v1', false), // no short names (ipaddress/storage/storage.go)
  info('ServiceCIDR', 'servicecidrs', 'networking.k8s.io', 'v1', false, { subresources: ['status'] }),
  // policy (group priority 17100): between networking.k8s.io and rbac, as in discovery
  info('PodDisruptionBudget', 'poddisruptionbudgets', 'policy', 'v1', true, { shortNames: ['pdb'], subresources: ['status'] }),
  info('Role', 'roles', 'rbac.authorization.k8s.io', 'v1', true),
  info('RoleBinding', 'rolebindings', 'rbac.authorization.k8s.io', 'v1', true),
  info('ClusterRole', 'clusterroles', 'rbac.authorization.k8s.io', 'v1', false),
  info('ClusterRoleBinding', 'clusterrolebindings', 'rbac.authorization.k8s.io', 'v1', false),
  // after rbac, as in discovery: scheduling.k8s.io's group priority (16600) is below rbac's (17000)
  info('PriorityClass', 'priorityclasses', 'scheduling.k8s.io', 'v1', false, { shortNames: ['pc'] }),
]);

/** "v1" for the core group, "apps/v1" otherwise: the apiVersion field of an object. */
export function apiVersionOf(r: Pick<ResourceInfo, 'group' | 'version'>): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/** Splits an apiVersion into group and version: "apps/v1" -> {group: "apps", version: "v1"}. */
export function parseAPIVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The resource serving a kind. With apiVersion, the group must match; without it, the first (core) wins. */
export function resourceForKind(kind: string, apiVersion?: string): ResourceInfo | undefined {
  const gv = apiVersion === undefined ? undefined : parseAPIVersion(apiVersion);
  return RESOURCES.find(
    (r) =>
      r.kind === kind && (gv === undefined || (r.group === gv.group && r.version === gv.version)),
  );
}

/** group -> plural -> resource: resourceFor runs several times in every API request. */
const BY_GROUP_RESOURCE = new Map<string, Map<string, ResourceInfo>>();
for (const r of RESOURCES) {
  let byResource = BY_GROUP_RESOURCE.get(r.group);
  if (!byResource) BY_GROUP_RESOURCE.set(r.group, (byResource = new Map()));
  if (!byResource.has(r.resource)) byResource.set(r.resource, r);
}

/** The resource for a group and plural resource name, as in URLs and RBAC rules. */
export function resourceFor(group: string, resource: string): ResourceInfo | undefined {
  return BY_GROUP_RESOURCE.get(group)?.get(resource);
}

/**
 * Resolves what a user types after `kubectl get`: plural, singular, short name or kind, case-insensitive,
 * optionally qualified by group ("deployments.apps", "events.events.k8s.io", "deploy.apps").
 */
export function lookupResource(typed: string): ResourceInfo | undefined {
  const lower = typed.toLowerCase();
  const matches = (r: ResourceInfo, name: string): boolean =>
    r.resource === name ||
    r.singular === name ||
    r.shortNames.includes(name) ||
    r.kind.toLowerCase() === name;
  const unqualified = RESOURCES.find((r) => matches(r, lower));
  if (unqualified) return unqualified;
  const dot = lower.indexOf('.');
  if (dot < 0) return undefined;
  const name = lower.slice(0, dot);
  const group = lower.slice(dot + 1);
  return RESOURCES.find(
    (r) => matches(r, name) && (r.group === group || `${r.version}.${r.group}` === group),
  );
}

/** Resources in a category, e.g. "all" for `kubectl get all`. */
export function resourcesInCategory(category: string): ResourceInfo[] {
  return RESOURCES.filter((r) => r.categories.includes(category));
}
