// scheduling.k8s.io/v1 PriorityClass: a cluster-scoped name for a pod priority value.
// mirrors staging/src/k8s.io/api/scheduling/v1/types.go
import type { KubeObject } from './meta.ts';

export type PreemptionPolicy = 'PreemptLowerPriority' | 'Never';

export interface PriorityClass extends KubeObject {
  apiVersion?: 'scheduling.k8s.io/v1';
  kind?: 'PriorityClass';
  /** The priority pods of this class get (int32; `json:"value"` without omitempty). */
  value: number;
  /** The priority of pods that name no class; at most one class may say so. */
  globalDefault?: boolean;
  description?: string;
  /** Defaulted to PreemptLowerPriority. */
  preemptionPolicy?: PreemptionPolicy;
}
