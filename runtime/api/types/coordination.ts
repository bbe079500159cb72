// coordination.k8s.io/v1 Lease (node heartbeats, leader election).
// mirrors staging/src/k8s.io/api/coordination/v1/types.go
import type { KubeObject, MicroTime } from './meta.ts';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: MicroTime;
  renewTime?: MicroTime;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

export interface Lease extends KubeObject {
  apiVersion?: 'coordination.k8s.io/v1';
  kind?: 'Lease';
  spec?: LeaseSpec;
}
