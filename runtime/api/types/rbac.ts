// rbac.authorization.k8s.io/v1 kinds.
// mirrors staging/src/k8s.io/api/rbac/v1/types.go
import type { KubeObject, LabelSelector } from './meta.ts';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole' | string;
  name: string;
}

export interface Role extends KubeObject {
  apiVersion?: 'rbac.authorization.k8s.io/v1';
  kind?: 'Role';
  rules?: PolicyRule[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

export interface ClusterRole extends KubeObject {
  apiVersion?: 'rbac.authorization.k8s.io/v1';
  kind?: 'ClusterRole';
  rules?: PolicyRule[];
  aggregationRule?: AggregationRule;
}

export interface RoleBinding extends KubeObject {
  apiVersion?: 'rbac.authorization.k8s.io/v1';
  kind?: 'RoleBinding';
  subjects?: Subject[];
  roleRef: RoleRef;
}

export interface ClusterRoleBinding extends KubeObject {
  apiVersion?: 'rbac.authorization.k8s.io/v1';
  kind?: 'ClusterRoleBinding';
  subjects?: Subject[];
  roleRef: RoleRef;
}
