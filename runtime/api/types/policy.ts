// policy/v1 PodDisruptionBudget and Eviction: how many pods of an application voluntary
// disruptions (kubectl drain's evictions, scheduler preemption's preference) may take down at once.
// mirrors staging/src/k8s.io/api/policy/v1/types.go
import type { Condition, IntOrString, KubeObject, LabelSelector, ObjectMeta, Time } from './meta.ts';

/** When unhealthy (running but not Ready) pods may be evicted (pkg/apis/policy UnhealthyPodEvictionPolicyType). */
export type UnhealthyPodEvictionPolicy = 'IfHealthyBudget' | 'AlwaysAllow';

export interface PodDisruptionBudgetSpec {
  /** At least this many (or this percentage of) selected pods stay available after an eviction. */
  minAvailable?: IntOrString;
  /** Selects the pods the budget covers; a nil selector selects none, an empty one selects every pod of the namespace. */
  selector?: LabelSelector;
  /** At most this many (or this percentage of) selected pods may be unavailable after an eviction. */
  maxUnavailable?: IntOrString;
  unhealthyPodEvictionPolicy?: UnhealthyPodEvictionPolicy;
}

export interface PodDisruptionBudgetStatus {
  /** The generation the disruption controller last acted on. */
  observedGeneration?: number;
  /**
   * Pods the eviction API deleted that the controller has not yet seen go: pod name -> the time
   * of the eviction (entries older than 2 minutes are dropped by the controller).
   */
  disruptedPods?: Record<string, Time>;
  /** How many more pods may be disrupted now (int32, always written). */
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  /** Pods the budget counts (from the owning controllers' scale). */
  expectedPods: number;
  /** DisruptionAllowed: True with reason SufficientPods, or False with InsufficientPods / SyncFailed. */
  conditions?: Condition[];
}

export interface PodDisruptionBudget extends KubeObject {
  apiVersion?: 'policy/v1';
  kind?: 'PodDisruptionBudget';
  spec: PodDisruptionBudgetSpec;
  status?: PodDisruptionBudgetStatus;
}

/** The body of POST .../pods/<name>/eviction. */
export interface Eviction {
  apiVersion?: 'policy/v1';
  kind?: 'Eviction';
  metadata: ObjectMeta;
  /** metav1.DeleteOptions for the pod's deletion (the fields the simulation honours). */
  deleteOptions?: {
    gracePeriodSeconds?: number;
    preconditions?: { uid?: string; resourceVersion?: string };
    dryRun?: string[];
  };
}
