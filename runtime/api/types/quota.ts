// core/v1 LimitRange and ResourceQuota: per-namespace defaults and bounds for container resources,
// and per-namespace totals. mirrors staging/src/k8s.io/api/core/v1/types.go (LimitRange,
// LimitRangeItem, ResourceQuota, ResourceQuotaSpec, ScopeSelector, ResourceQuotaStatus).
import type { ResourceList } from './core.ts';
import type { KubeObject } from './meta.ts';

/** "Pod", "Container" or "PersistentVolumeClaim". */
export type LimitType = string;

export interface LimitRangeItem {
  type: LimitType;
  max?: ResourceList;
  min?: ResourceList;
  /** The limit a container gets when it names none. */
  default?: ResourceList;
  /** The request a container gets when it names none. */
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

export interface LimitRange extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'LimitRange';
  spec?: { limits: LimitRangeItem[] };
}

export interface ScopedResourceSelectorRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface ResourceQuotaSpec {
  hard?: ResourceList;
  scopes?: string[];
  scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] };
}

/** Written by the resourcequota controller: hard mirrors spec.hard, used is what the namespace consumes. */
export interface ResourceQuotaStatus {
  hard?: ResourceList;
  used?: ResourceList;
}

export interface ResourceQuota extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ResourceQuota';
  spec?: ResourceQuotaSpec;
  status?: ResourceQuotaStatus;
}
