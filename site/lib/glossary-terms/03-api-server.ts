// Glossary terms introduced by chapter 3, "The API server, the only door".
import type { GlossaryEntry } from '../glossary.ts';

const ch = (anchor: string) => ({ chapter: '03-api-server', anchor });

export const TERMS: GlossaryEntry[] = [
  {
    id: 'kubeconfig-context',
    term: 'Context (kubeconfig)',
    definition:
      'A named pairing in a kubeconfig of one cluster (server URL and CA) with one user (credentials), plus an optional default namespace. `current-context` selects the one `kubectl` uses; `--context` picks another for a single command.',
    see: [ch('kubectls-side-kubeconfig-and-tls')],
  },
  {
    id: 'client-certificate',
    term: 'Client certificate authentication',
    definition:
      'Logging in to the API server with an X.509 certificate signed by the cluster’s CA, presented in the TLS handshake. The certificate’s common name (CN) becomes the user name and each organization (O) a group; nothing is looked up, and Kubernetes keeps no user database.',
    see: [ch('client-certificates')],
  },
  {
    id: 'service-account-token',
    term: 'Service account token',
    definition:
      'A short-lived JSON Web Token the API server issues (TokenRequest API) for a ServiceAccount, usually mounted into a Pod by the kubelet. It authenticates as `system:serviceaccount:<namespace>:<name>`, in the groups `system:serviceaccounts` and `system:serviceaccounts:<namespace>`.',
    see: [ch('service-account-tokens')],
  },
  {
    id: 'role',
    term: 'Role',
    definition:
      'An RBAC object listing rules (verbs on resources in API groups) that are valid in its own namespace. A Role grants nothing until a RoleBinding names a subject for it.',
    see: [ch('roles-and-bindings')],
  },
  {
    id: 'clusterrole',
    term: 'ClusterRole',
    definition:
      'An RBAC object listing rules that are not tied to one namespace: it can cover cluster-scoped resources such as Nodes, and it serves as a reusable template (`view`, `edit`, `admin`) that RoleBindings grant in single namespaces.',
    see: [ch('roles-and-bindings'), ch('groups-and-clusterroles')],
  },
  {
    id: 'rolebinding',
    term: 'RoleBinding',
    definition:
      'An RBAC object that grants a Role or a ClusterRole to users, groups or service accounts, inside the binding’s own namespace only.',
    see: [ch('roles-and-bindings'), ch('granting-jane-read-access')],
  },
  {
    id: 'clusterrolebinding',
    term: 'ClusterRoleBinding',
    definition:
      'An RBAC object that grants a ClusterRole to subjects in every namespace and at the cluster scope. kubeadm’s `kubeadm:cluster-admins` binding is what gives the admin kubeconfig its power.',
    see: [ch('roles-and-bindings'), ch('groups-and-clusterroles')],
  },
  {
    id: 'impersonation',
    term: 'Impersonation',
    definition:
      'Asking the API server to treat a request as coming from another user or group (`kubectl --as`, `--as-group`). The caller needs the `impersonate` verb on users, groups or service accounts; every later check then runs as the impersonated identity.',
    see: [ch('groups-and-clusterroles')],
  },
  {
    id: 'forbidden',
    term: 'Forbidden (403)',
    definition:
      'The API server’s answer when an authenticated request is refused, by an authorizer (“User … cannot list resource … in API group …”) or by an admission plugin such as ResourceQuota. A 401 Unauthorized instead means nobody recognised the credentials.',
    see: [ch('reading-a-forbidden-error'), ch('plugins-that-say-no')],
  },
  {
    id: 'admission-plugin',
    term: 'Admission plugin',
    definition:
      'A check compiled into the API server that sees every write after authorization, in a fixed order: in the mutating phase it may change the object, in the validating phase it may only refuse it. ServiceAccount, LimitRanger, DefaultTolerationSeconds, Priority, NamespaceLifecycle, NodeRestriction and ResourceQuota are examples.',
    see: [ch('admission-mutate-then-validate'), ch('what-the-mutating-plugins-add')],
  },
  {
    id: 'limitrange',
    term: 'LimitRange',
    definition:
      'A namespaced object giving containers default requests and limits when they set none (applied by the LimitRanger admission plugin) and optional minimums and maximums that a Pod must respect to be admitted.',
    see: [ch('plugins-that-say-no')],
  },
  {
    id: 'resourcequota',
    term: 'ResourceQuota',
    definition:
      'A namespaced cap on what a namespace may hold: object counts such as `pods=2`, or totals of requests and limits. The ResourceQuota admission plugin refuses a write that would exceed it with a 403 naming what was requested, used and allowed.',
    see: [ch('plugins-that-say-no')],
  },
  {
    id: 'server-side-dry-run',
    term: 'Server-side dry run',
    definition:
      'A request sent with `dryRun=All` (`kubectl --dry-run=server`): the API server runs the whole pipeline, admission and validation included, and returns the object it would store, without writing it to etcd.',
    see: [ch('what-the-mutating-plugins-add')],
  },
  {
    id: 'field-path',
    term: 'Field path',
    definition:
      'The location of a field inside an object, written from the top with dots and list indexes, such as `spec.containers[0].ports[0].containerPort`. Validation errors (422 Invalid) start each problem with one.',
    see: [ch('validation-and-field-paths')],
  },
  {
    id: 'optimistic-concurrency',
    term: 'Optimistic concurrency',
    definition:
      'How the API server keeps concurrent writers from overwriting each other without locks: an update carries the resourceVersion the client read, and is refused with 409 Conflict if the object has changed since. The loser re-reads and tries again.',
    see: [ch('the-write-to-etcd')],
  },
  {
    id: 'watch-cache',
    term: 'Watch cache',
    definition:
      'The API server’s in-memory copy of one resource type, fed by a single etcd watch, from which it serves clients’ watches (and many lists). A client resuming from a resourceVersion older than the cache remembers gets 410 Gone and lists again.',
    see: [ch('the-watch-that-tells-everyone')],
  },
  {
    id: 'api-server-load-balancer',
    term: 'API server load balancer',
    definition:
      'The address in front of several API server replicas in a highly available control plane. It health-checks each replica and sends connections only to ready ones, which works because the API server keeps no state of its own.',
    see: [ch('stateless-so-run-several')],
  },
];
