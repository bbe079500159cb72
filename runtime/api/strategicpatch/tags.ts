// The patch metadata strategic merge patch reads from the Go API types: for each struct, the
// fields that carry a `patchStrategy` / `patchMergeKey` struct tag, and the struct type of the
// fields that lead to one. Upstream reads these tags by reflection (forkedjson.LookupPatchMetadata
// in staging/src/k8s.io/apimachinery/pkg/util/strategicpatch); we have no Go types, so this table
// mirrors them by hand. The tag each entry mirrors is quoted beside it (k8s.io/api v0.33:
// core/v1/types.go, apps/v1/types.go, meta/v1/types.go).
//
// A field absent from its struct's entry has no tags: maps under it merge key by key, lists under
// it are replaced whole (the default strategy), exactly as for an untagged Go field.

/** A field's patch strategy as the tag spells it: "merge", "replace", "retainKeys", "merge,retainKeys". */
export type PatchStrategyTag = 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys';

export interface PatchField {
  /** patchStrategy:"..." (absent: replace lists, merge maps). */
  readonly strategy?: PatchStrategyTag;
  /** patchMergeKey:"..." for merging lists of objects. */
  readonly mergeKey?: string;
  /** The struct type of the field (of its elements, for lists), a key of PATCH_STRUCTS. */
  readonly type?: string;
}

export type PatchStruct = Readonly<Record<string, PatchField>>;

const merge = (mergeKey: string, type?: string): PatchField => ({ strategy: 'merge', mergeKey, type });
const typed = (type: string): PatchField => ({ type });
/** Conditions of every status struct: `patchStrategy:"merge" patchMergeKey:"type"`. */
const CONDITIONS = merge('type');

const statusOf = (statusType: string): PatchStruct => ({ metadata: typed('ObjectMeta'), status: typed(statusType) });

export const PATCH_STRUCTS: Readonly<Record<string, PatchStruct>> = {
  // meta/v1 ObjectMeta
  ObjectMeta: {
    ownerReferences: merge('uid'), // patchStrategy:"merge" patchMergeKey:"uid"
    finalizers: { strategy: 'merge' }, // patchStrategy:"merge" (a list of strings)
  },
  // core/v1 PodSpec
  PodSpec: {
    volumes: { strategy: 'merge,retainKeys', mergeKey: 'name' }, // patchStrategy:"merge,retainKeys" patchMergeKey:"name"
    initContainers: merge('name', 'Container'), // patchStrategy:"merge" patchMergeKey:"name"
    containers: merge('name', 'Container'), // patchStrategy:"merge" patchMergeKey:"name"
    ephemeralContainers: merge('name', 'Container'), // patchStrategy:"merge" patchMergeKey:"name"
    imagePullSecrets: merge('name'), // patchStrategy:"merge" patchMergeKey:"name"
    hostAliases: merge('ip'), // patchStrategy:"merge" patchMergeKey:"ip"
    topologySpreadConstraints: merge('topologyKey'), // patchStrategy:"merge" patchMergeKey:"topologyKey"
    schedulingGates: merge('name'), // patchStrategy:"merge" patchMergeKey:"name"
    resourceClaims: { strategy: 'merge,retainKeys', mergeKey: 'name' }, // patchStrategy:"merge,retainKeys" patchMergeKey:"name"
    // tolerations, readinessGates: no tags (atomic lists, replaced whole)
  },
  // core/v1 Container and EphemeralContainerCommon carry the same tags
  Container: {
    ports: merge('containerPort'), // patchStrategy:"merge" patchMergeKey:"containerPort"
    env: merge('name'), // patchStrategy:"merge" patchMergeKey:"name"
    volumeMounts: merge('mountPath'), // patchStrategy:"merge" patchMergeKey:"mountPath"
    volumeDevices: merge('devicePath'), // patchStrategy:"merge" patchMergeKey:"devicePath"
    // envFrom, resizePolicy: no tags
  },
  PodTemplateSpec: { metadata: typed('ObjectMeta'), spec: typed('PodSpec') },
  PodStatus: {
    conditions: CONDITIONS, // patchStrategy:"merge" patchMergeKey:"type"
    podIPs: merge('ip'), // patchStrategy:"merge" patchMergeKey:"ip"
    hostIPs: merge('ip'), // patchStrategy:"merge" patchMergeKey:"ip"
  },
  NodeSpec: { podCIDRs: { strategy: 'merge' } }, // patchStrategy:"merge"; taints: no tags
  NodeStatus: {
    conditions: CONDITIONS, // patchStrategy:"merge" patchMergeKey:"type"
    addresses: merge('type'), // patchStrategy:"merge" patchMergeKey:"type"
  },
  ServiceSpec: { ports: merge('port') }, // patchStrategy:"merge" patchMergeKey:"port"
  ConditionsStatus: { conditions: CONDITIONS },
  // apps/v1
  DeploymentSpec: { template: typed('PodTemplateSpec'), strategy: { strategy: 'retainKeys' } }, // strategy: patchStrategy:"retainKeys"
  WorkloadSpec: { template: typed('PodTemplateSpec') },

  // top-level kinds
  Pod: { metadata: typed('ObjectMeta'), spec: typed('PodSpec'), status: typed('PodStatus') },
  PodTemplate: { metadata: typed('ObjectMeta'), template: typed('PodTemplateSpec') },
  Node: { metadata: typed('ObjectMeta'), spec: typed('NodeSpec'), status: typed('NodeStatus') },
  Service: { metadata: typed('ObjectMeta'), spec: typed('ServiceSpec') },
  ServiceAccount: { metadata: typed('ObjectMeta'), secrets: merge('name') }, // secrets: patchStrategy:"merge" patchMergeKey:"name"
  Namespace: statusOf('ConditionsStatus'),
  Deployment: { ...statusOf('ConditionsStatus'), spec: typed('DeploymentSpec') },
  ReplicaSet: { ...statusOf('ConditionsStatus'), spec: typed('WorkloadSpec') },
  DaemonSet: { ...statusOf('ConditionsStatus'), spec: typed('WorkloadSpec') },
  StatefulSet: { ...statusOf('ConditionsStatus'), spec: typed('WorkloadSpec') },
  Object: { metadata: typed('ObjectMeta') },
};

/** The struct a kind's patch starts from; kinds without tagged fields of their own only have ObjectMeta's. */
export function patchStructForKind(kind: string): string {
  return kind in PATCH_STRUCTS ? kind : 'Object';
}

/** The metadata of one field of a struct (an empty object for an untagged or unknown field). */
export function lookupPatchField(structType: string | undefined, field: string): PatchField {
  if (structType === undefined) return {};
  return PATCH_STRUCTS[structType]?.[field] ?? {};
}
