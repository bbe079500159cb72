// What a fresh API server writes before it reports ready (its post-start hooks): the bootstrap
// RBAC policy (hook "rbac/bootstrap-roles"), the system namespaces (the "system namespaces"
// controller inside kube-apiserver) and their "default" service accounts (upstream the
// serviceaccount controller of kube-controller-manager creates those; we create them here so a
// cluster without that controller can still run pods in the system namespaces and "default").
import type { KubeObject } from '../api/index.ts';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './authz/rbac/bootstrap-policy.ts';
import { bootstrapPriorityClasses } from './bootstrap-priority-classes.ts';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export function bootstrapObjects(): { resource: { group: string; resource: string }; object: KubeObject }[] {
  const G = 'rbac.authorization.k8s.io';
  return [
    ...SYSTEM_NAMESPACES.map((name) => ({
      resource: { group: '', resource: 'namespaces' },
      object: { metadata: { name, labels: { 'kubernetes.io/metadata.name': name } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } } as KubeObject,
    })),
    ...SYSTEM_NAMESPACES.map((namespace) => ({
      resource: { group: '', resource: 'serviceaccounts' },
      object: { metadata: { name: 'default', namespace } } as KubeObject,
    })),
    ...bootstrapClusterRoles().map((object) => ({ resource: { group: G, resource: 'clusterroles' }, object })),
    ...bootstrapClusterRoleBindings().map((object) => ({ resource: { group: G, resource: 'clusterrolebindings' }, object })),
    ...bootstrapPriorityClasses(),
  ];
}
