// Who a request comes from, after authentication.
// mirrors staging/src/k8s.io/apiserver/pkg/authentication/user/user.go (DefaultInfo and the
// well-known names) and pkg/serviceaccount/util.go (service account user and group names).

export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
}

export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
export const NODES_GROUP = 'system:nodes';
export const MONITORING_GROUP = 'system:monitoring';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ANONYMOUS = 'system:anonymous';
export const KUBE_PROXY = 'system:kube-proxy';
export const KUBE_CONTROLLER_MANAGER = 'system:kube-controller-manager';
export const KUBE_SCHEDULER = 'system:kube-scheduler';
export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';
export const SERVICE_ACCOUNT_GROUP_PREFIX = 'system:serviceaccounts:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

/** "system:serviceaccount:<ns>:<name>" */
export const serviceAccountUsername = (namespace: string, name: string): string =>
  `${SERVICE_ACCOUNT_USERNAME_PREFIX}${namespace}:${name}`;

/** The groups every service account of a namespace is in. */
export const serviceAccountGroups = (namespace: string): string[] => [
  ALL_SERVICE_ACCOUNTS_GROUP,
  `${SERVICE_ACCOUNT_GROUP_PREFIX}${namespace}`,
];

/** Splits "system:serviceaccount:ns:name"; undefined for any other user name. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { namespace: parts[0]!, name: parts[1]! };
}
