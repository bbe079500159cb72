// Roles of the individual controllers of kube-controller-manager, each bound to its own service
// account in kube-system (used with --use-service-account-credentials, as kubeadm does).
// mirrors plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go, for the controllers
// this simulation runs.
import type { PolicyRule } from '../../../api/index.ts';

const r = (verbs: string[], groups: string[], resources: string[]): PolicyRule => ({ verbs, apiGroups: groups, resources });
const events = (): PolicyRule => r(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']);
const PREFIX = 'system:controller:';

export const CONTROLLER_ROLES: { name: string; rules: PolicyRule[] }[] = [
  {
    name: `${PREFIX}daemon-set-controller`,
    rules: [
      r(['get', 'list', 'watch'], ['apps', 'extensions'], ['daemonsets']),
      r(['update'], ['apps', 'extensions'], ['daemonsets/status']),
      r(['update'], ['apps', 'extensions'], ['daemonsets/finalizers']),
      r(['list', 'watch'], [''], ['nodes']),
      r(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
      r(['create'], [''], ['pods/binding']),
      r(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['apps'], ['controllerrevisions']),
      events(),
    ],
  },
  {
    name: `${PREFIX}deployment-controller`,
    rules: [
      r(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['deployments']),
      r(['update'], ['apps', 'extensions'], ['deployments/status']),
      r(['update'], ['apps', 'extensions'], ['deployments/finalizers']),
      r(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['apps', 'extensions'], ['replicasets']),
      r(['get', 'list', 'update', 'watch'], [''], ['pods']),
      events(),
    ],
  },
  {
    // the disruption controller reads the controllers behind a budget's pods and writes budget status
    name: `${PREFIX}disruption-controller`,
    rules: [
      r(['get', 'list', 'watch'], ['extensions', 'apps'], ['deployments']),
      r(['get', 'list', 'watch'], ['apps', 'extensions'], ['replicasets']),
      r(['get', 'list', 'watch'], [''], ['replicationcontrollers']),
      r(['get', 'list', 'watch'], ['policy'], ['poddisruptionbudgets']),
      r(['get', 'list', 'watch'], ['apps'], ['statefulsets']),
      r(['update'], ['policy'], ['poddisruptionbudgets/status']),
      r(['patch', 'update'], [''], ['pods/status']),
      r(['get'], ['*'], ['*/scale']),
      events(),
    ],
  },
  {
    name: `${PREFIX}endpoint-controller`,
    rules: [
      r(['get', 'list', 'watch'], [''], ['services', 'pods']),
      r(['get', 'list', 'create', 'update', 'delete'], [''], ['endpoints']),
      r(['create'], [''], ['endpoints/restricted']),
      events(),
    ],
  },
  {
    name: `${PREFIX}endpointslicemirroring-controller`,
    rules: [
      r(['get', 'list', 'watch'], [''], ['services', 'endpoints']),
      r(['update'], [''], ['endpoints/finalizers']),
      r(['create', 'delete', 'get', 'list', 'update'], ['discovery.k8s.io'], ['endpointslices']),
      events(),
    ],
  },
  {
    name: `${PREFIX}endpointslice-controller`,
    rules: [
      r(['get', 'list', 'watch'], [''], ['pods', 'services']),
      r(['get', 'list', 'watch'], [''], ['nodes']),
      r(['update'], [''], ['services/finalizers']),
      r(['create', 'delete', 'get', 'list', 'update'], ['discovery.k8s.io'], ['endpointslices']),
      events(),
    ],
  },
  {
    name: `${PREFIX}generic-garbage-collector`,
    rules: [r(['delete', 'get', 'list', 'patch', 'update', 'watch'], ['*'], ['*'])],
  },
  {
    name: `${PREFIX}namespace-controller`,
    rules: [
      r(['delete', 'get', 'list', 'watch'], [''], ['namespaces']),
      r(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
      r(['delete', 'deletecollection', 'get', 'list'], ['*'], ['*']),
    ],
  },
  {
    name: `${PREFIX}node-controller`,
    rules: [
      r(['delete', 'get', 'list', 'patch', 'update'], [''], ['nodes']),
      r(['patch', 'update'], [''], ['nodes/status']),
      r(['patch', 'update'], [''], ['pods/status']),
      r(['delete', 'list'], [''], ['pods']),
      r(['get'], [''], ['pods']),
      events(),
    ],
  },
  {
    name: `${PREFIX}pod-garbage-collector`,
    rules: [
      r(['delete', 'list', 'watch'], [''], ['pods']),
      r(['get', 'list'], [''], ['nodes']),
      r(['patch'], [''], ['pods/status']),
    ],
  },
  {
    name: `${PREFIX}replicaset-controller`,
    rules: [
      r(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['replicasets']),
      r(['update'], ['apps', 'extensions'], ['replicasets/status']),
      r(['update'], ['apps', 'extensions'], ['replicasets/finalizers']),
      r(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
      events(),
    ],
  },
  {
    // resourcequota-controller: list and watch everything it may count, write quota status
    name: `${PREFIX}resourcequota-controller`,
    rules: [r(['list', 'watch'], ['*'], ['*']), r(['update'], [''], ['resourcequotas/status']), events()],
  },
  {
    name: `${PREFIX}service-account-controller`,
    rules: [r(['create'], [''], ['serviceaccounts']), events()],
  },
  {
    name: `${PREFIX}root-ca-cert-publisher`,
    rules: [r(['create', 'update'], [''], ['configmaps']), events()],
  },
];

export const CONTROLLER_ROLE_BINDINGS: { role: string; serviceAccount: string }[] = CONTROLLER_ROLES.map((role) => ({
  role: role.name,
  serviceAccount: role.name.slice(PREFIX.length),
}));
