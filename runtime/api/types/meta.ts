// Object metadata shared by every kind.
// mirrors staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go (TypeMeta, ObjectMeta,
// OwnerReference, ListMeta, LabelSelector, Condition).

/** An RFC 3339 timestamp with second precision, e.g. "2026-01-01T00:00:00Z" (metav1.Time). */
export type Time = string;
/** An RFC 3339 timestamp with microsecond precision, e.g. "2026-01-01T00:00:00.000000Z" (metav1.MicroTime). */
export type MicroTime = string;

/** apiVersion and kind, present on every object sent over the wire. */
export interface TypeMeta {
  apiVersion?: string;
  kind?: string;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: Time;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: Time;
  deletionTimestamp?: Time;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** A generic list: PodList, NodeList... all share this shape. */
export interface List<T> extends TypeMeta {
  metadata: ListMeta;
  items: T[];
}

export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export interface LabelSelectorRequirement {
  key: string;
  operator: LabelSelectorOperator;
  values?: string[];
}

/** metav1.LabelSelector: matchLabels and matchExpressions are ANDed. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** metav1.Condition (used by newer APIs); core and apps kinds have their own condition shapes. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: Time;
  reason: string;
  message: string;
}

/** Any object with metadata: what storage, informers and kubectl handle generically. */
export interface KubeObject extends TypeMeta {
  metadata: ObjectMeta;
}

/** intstr.IntOrString: "25%" or 3. */
export type IntOrString = number | string;
