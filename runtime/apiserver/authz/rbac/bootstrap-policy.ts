// The default ClusterRoles and ClusterRoleBindings every cluster starts with.
// mirrors plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go and its golden file
// testdata/cluster-roles.yaml (rules copied in meaning, trimmed to the API groups a learner meets).
// The aggregated roles admin, edit and view are stored with their aggregated rules already filled
// in (upstream, the clusterrole-aggregation controller fills them from the system:aggregate-to-*
// roles; we compute that once here).
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Subject } from '../../../api/index.ts';
import { CONTROLLER_ROLES, CONTROLLER_ROLE_BINDINGS } from './controller-policy.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** rbac.NewRule(verbs...).Groups(groups...).Resources(resources...).Names(names...) */
export function rule(verbs: string[], groups: string[], resources: string[], names?: string[]): PolicyRule {
  const r: PolicyRule = { verbs, apiGroups: groups, resources };
  if (names) r.resourceNames = names;
  return r;
}
const urls = (verbs: string[], paths: string[]): PolicyRule => ({ verbs, nonResourceURLs: paths });
const eventsRule = (): PolicyRule => rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']);

const AGGREGATE_TO_VIEW: PolicyRule[] = [
  rule(READ, [''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods',
    'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
  rule(READ, [''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status',
    'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
  rule(READ, [''], ['namespaces']),
  rule(READ, ['discovery.k8s.io'], ['endpointslices']),
  rule(READ, ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale',
    'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets',
    'statefulsets/scale', 'statefulsets/status']),
  rule(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
  rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
];

const AGGREGATE_TO_EDIT: PolicyRule[] = [
  rule(READ, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
  rule(['impersonate'], [''], ['serviceaccounts']),
  rule(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
  rule(['create'], [''], ['pods/eviction']),
  rule(WRITE, [''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers',
    'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
  rule(['create'], [''], ['serviceaccounts/token']),
  rule(WRITE, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets',
    'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
  rule(WRITE, ['batch'], ['cronjobs', 'jobs']),
  rule(WRITE, ['policy'], ['poddisruptionbudgets']),
  rule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
];

const AGGREGATE_TO_ADMIN: PolicyRule[] = [
  rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
  rule(READ_WRITE, [RBAC_GROUP], ['rolebindings', 'roles']),
];

const SCHEDULER_RULES: PolicyRule[] = [
  eventsRule(),
  rule(['create'], ['coordination.k8s.io'], ['leases']),
  rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-scheduler']),
  rule(READ, [''], ['nodes']),
  rule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
  rule(['create'], [''], ['bindings', 'pods/binding']),
  rule(['patch', 'update'], [''], ['pods/status']),
  rule(READ, [''], ['replicationcontrollers', 'services']),
  rule(READ, ['apps', 'extensions'], ['replicasets']),
  rule(READ, ['apps'], ['statefulsets']),
  rule(READ, ['policy'], ['poddisruptionbudgets']),
  rule(READ, [''], ['persistentvolumeclaims', 'persistentvolumes']),
  rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  rule(READ, ['storage.k8s.io'], ['csinodes']),
  rule(READ, [''], ['namespaces']),
  rule(READ, ['storage.k8s.io'], ['csidrivers']),
  rule(READ, ['storage.k8s.io'], ['csistoragecapacities']),
];

const CONTROLLER_MANAGER_RULES: PolicyRule[] = [
  eventsRule(),
  rule(['create'], ['coordination.k8s.io'], ['leases']),
  rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
  rule(['create'], [''], ['secrets', 'serviceaccounts']),
  rule(['delete'], [''], ['secrets']),
  rule(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
  rule(['update'], [''], ['secrets', 'serviceaccounts']),
  rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  rule(['list', 'watch'], ['*'], ['*']),
  rule(['create'], [''], ['serviceaccounts/token']),
];

/**
 * What a cloud-controller-manager needs (kubernetes.io/docs/concepts/architecture/cloud-controller,
 * "Authorization"; upstream leaves the role to the provider's manifests): its Lease, events, the
 * node controllers' nodes and nodes/status, the service controller's services and services/status.
 */
const CLOUD_CONTROLLER_MANAGER_RULES: PolicyRule[] = [
  eventsRule(),
  rule(['create'], ['coordination.k8s.io'], ['leases']),
  rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['cloud-controller-manager']),
  rule(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], [''], ['nodes']),
  rule(['patch', 'update'], [''], ['nodes/status']),
  rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['services']),
  rule(['patch', 'update'], [''], ['services/status']),
  rule(['create', 'get'], [''], ['serviceaccounts']),
];

/** bootstrappolicy.NodeRules: the system:node ClusterRole, and the Node authorizer's static rules. */
export function nodeRules(): PolicyRule[] {
  return NODE_RULES.map((r) => ({ ...r }));
}

const NODE_RULES: PolicyRule[] = [
  rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews']),
  rule(READ, [''], ['services']),
  rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
  rule(['patch', 'update'], [''], ['nodes/status']),
  rule(['patch', 'update'], [''], ['nodes']),
  rule(['create', 'patch', 'update'], [''], ['events']),
  rule(READ, [''], ['pods']),
  rule(['create', 'delete'], [''], ['pods']),
  rule(['patch', 'update'], [''], ['pods/status']),
  rule(['create'], [''], ['pods/eviction']),
  rule(READ, [''], ['configmaps', 'secrets']),
  rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
  rule(['get'], [''], ['endpoints']),
  rule(['create', 'delete', 'get', 'patch', 'update'], ['coordination.k8s.io'], ['leases']),
  rule(['create'], [''], ['serviceaccounts/token']),
];

const NODE_PROXIER_RULES: PolicyRule[] = [
  rule(['list', 'watch'], [''], ['endpoints', 'services']),
  rule(READ, [''], ['nodes']),
  eventsRule(),
  rule(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
];

const bootstrapMeta = (name: string, labels: Record<string, string> = {}) => ({
  name,
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...labels },
  annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
});

function clusterRole(name: string, rules: PolicyRule[], labels: Record<string, string> = {}): ClusterRole {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: bootstrapMeta(name, labels), rules };
}

function aggregated(name: string, selectorLabel: string, rules: PolicyRule[], labels: Record<string, string> = {}): ClusterRole {
  return {
    ...clusterRole(name, rules, labels),
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [selectorLabel]: 'true' } }] },
  };
}

const VIEW = [...AGGREGATE_TO_VIEW];
const EDIT = [...AGGREGATE_TO_EDIT, ...VIEW];
const ADMIN = [...AGGREGATE_TO_ADMIN, ...EDIT];

/** The bootstrap ClusterRoles (policy.go ClusterRoles()). */
export function bootstrapClusterRoles(): ClusterRole[] {
  return [
    aggregated('admin', 'rbac.authorization.k8s.io/aggregate-to-admin', ADMIN),
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    aggregated('edit', 'rbac.authorization.k8s.io/aggregate-to-edit', EDIT, { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' }),
    clusterRole('system:aggregate-to-admin', AGGREGATE_TO_ADMIN, { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' }),
    clusterRole('system:aggregate-to-edit', AGGREGATE_TO_EDIT, { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }),
    clusterRole('system:aggregate-to-view', AGGREGATE_TO_VIEW, { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }),
    clusterRole('system:basic-user', [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ]),
    clusterRole('system:discovery', [urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi',
      '/openapi/*', '/readyz', '/version', '/version/'])]),
    clusterRole('system:cloud-controller-manager', CLOUD_CONTROLLER_MANAGER_RULES),
    clusterRole('system:kube-controller-manager', CONTROLLER_MANAGER_RULES),
    clusterRole('system:kube-scheduler', SCHEDULER_RULES),
    clusterRole('system:monitoring', [urls(['get'], ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics',
      '/metrics/slis', '/readyz', '/readyz/*'])]),
    clusterRole('system:node', NODE_RULES),
    clusterRole('system:node-proxier', NODE_PROXIER_RULES),
    clusterRole('system:public-info-viewer', [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])]),
    aggregated('view', 'rbac.authorization.k8s.io/aggregate-to-view', VIEW, { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }),
    ...CONTROLLER_ROLES.map((r) => clusterRole(r.name, r.rules)),
  ];
}

const group = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
const user = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });

function binding(roleName: string, subjects: Subject[], name = roleName): ClusterRoleBinding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: bootstrapMeta(name),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
    subjects,
  };
}

/**
 * The bootstrap ClusterRoleBindings (policy.go ClusterRoleBindings()). system:node binds no one:
 * since Kubernetes 1.8 the Node authorizer serves kubelets (authz/node).
 */
export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    binding('cluster-admin', [group('system:masters')]),
    binding('system:basic-user', [group('system:authenticated')]),
    binding('system:discovery', [group('system:authenticated')]),
    binding('system:cloud-controller-manager', [user('system:cloud-controller-manager')]),
    binding('system:kube-controller-manager', [user('system:kube-controller-manager')]),
    binding('system:kube-scheduler', [user('system:kube-scheduler')]),
    binding('system:monitoring', [group('system:monitoring')]),
    binding('system:node', []),
    binding('system:node-proxier', [user('system:kube-proxy')]),
    binding('system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
    ...CONTROLLER_ROLE_BINDINGS.map((b) => binding(b.role, [{ kind: 'ServiceAccount', name: b.serviceAccount, namespace: 'kube-system' }])),
  ];
}
