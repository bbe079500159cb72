// networking.k8s.io/v1 IPAddress and ServiceCIDR: the objects behind Service cluster IPs since
// MultiCIDRServiceAllocator went GA (on by default in v1.33). Every allocated cluster IP is an
// IPAddress named by the IP; the ranges IPs come from are ServiceCIDRs.
// mirrors staging/src/k8s.io/api/networking/v1/types.go (IPAddress, ServiceCIDR)
import type { Condition, KubeObject } from './meta.ts';

/** The object an IPAddress belongs to: for a Service IP, {group: '', resource: 'services', namespace, name}. */
export interface ParentReference {
  group?: string;
  resource: string;
  namespace?: string;
  name: string;
}

export interface IPAddress extends KubeObject {
  apiVersion?: 'networking.k8s.io/v1';
  kind?: 'IPAddress';
  spec?: { parentRef?: ParentReference };
}

export interface ServiceCIDR extends KubeObject {
  apiVersion?: 'networking.k8s.io/v1';
  kind?: 'ServiceCIDR';
  /** cidrs: at most one per IP family; immutable. */
  spec?: { cidrs?: string[] };
  status?: { conditions?: Condition[] };
}

