// runtime/api: the Kubernetes object model, its public face.
// Types, the kind registry, resource.Quantity, labels and field selectors, name and object
// validation, defaulting and Status errors. Pure functions, no state, no clock.
export type * from './types/index.ts';
export { SIMULATION_EPOCH_MS, rfc3339, rfc3339Micro, rfc3339Nano, parseRFC3339 } from './types/index.ts';
export {
  KUBELET_PORT,
  isContainerLogsRequest,
  isContainerLogsResponse,
  isContainerLogsStop,
  isContainerLogsStream,
  isLogChunk,
  isContainerExecRequest,
  isContainerExecResponse,
  isExecStreams,
  type ContainerExecRequest,
  type ExecStreams,
  type ContainerExecResponse,
  type PodExecOptions,
  type ContainerLogsChunk,
  type ContainerLogsEnd,
  type ContainerLogsStop,
  type LogChunk,
  type ContainerLogsRequest,
  type ContainerLogsResponse,
  type PodLogOptions,
} from './kubelet-api.ts';
export {
  RESOURCES,
  apiVersionOf,
  parseAPIVersion,
  resourceForKind,
  resourceFor,
  lookupResource,
  resourcesInCategory,
} from './registry.ts';
export type { ResourceInfo } from './registry.ts';
export { toleratesTaint } from './toleration.ts';
export { cloneJson } from './json-clone.ts';
export {
  Quantity,
  parseQuantity,
  QUANTITY_REGEX,
  ERR_FORMAT_WRONG,
  ERR_NUMERIC,
  ERR_SUFFIX,
} from './resource/quantity.ts';
export type { QuantityFormat, QuantityParseResult } from './resource/quantity.ts';
export { Path } from './field/path.ts';
export {
  aggregateMessage,
  aggregateText,
  duplicate,
  errorBody,
  errorString,
  forbidden,
  internalError,
  invalid,
  notFound,
  notSupported,
  required,
  tooLong,
  tooMany,
} from './field/errors.ts';
export type { ErrorList, ErrorType, FieldError } from './field/errors.ts';
export { kindSchema, unknownFields, type StructSchema, type UnknownField } from './known-fields.ts';
export {
  Requirement,
  Selector,
  compareStrings,
  formatLabels,
  formatLabelSelector,
  labelSelectorAsSelector,
  parseToLabelSelector,
  newRequirement,
  parseSelector,
  selectorFromSet,
} from './labels/selector.ts';
export type { Labels, Operator, SelectorResult } from './labels/selector.ts';
export {
  FieldSelector,
  escapeValue,
  fieldSelectorFromSet,
  parseFieldSelector,
  unescapeValue,
} from './fields/selector.ts';
export type { FieldRequirement, Fields, FieldSelectorResult } from './fields/selector.ts';
export {
  checkSelectableFields,
  selectableFieldNames,
  selectableFields,
} from './fields/selectable.ts';
export * from './validation/names.ts';
export * from './status.ts';
export { applyDefaults, defaultObject, deepCopy } from './defaults/defaults.ts';
export { defaultPodSpec, defaultPullPolicy } from './defaults/pod.ts';
export { typeInvalid } from './field/errors.ts';
export { validateObject } from './validation/validate.ts';
export { validateConfigMapUpdate, validateSecretUpdate } from './validation/secret.ts';
export {
  validateObjectMeta,
  validateLabels,
  validateAnnotations,
  validateLabelSelector,
} from './validation/common.ts';
export { validatePodSpec, validateResources } from './validation/pod.ts';
export { validatePodUpdate, UPDATABLE_POD_SPEC_FIELDS } from './validation/pod-update.ts';
export { validateResourceQuota } from './validation/resource-quota.ts';
export {
  addUsage, countName, isTerminalPod, objectUsage, parseQuotaQuantity, podMatchesScope, quotaCounts, scopeRequirements,
  type QuotaScopes, type QuotaUsage, type ScopedResourceSelectorRequirement,
} from './quota/evaluator.ts';
export { validateLimitRange } from './validation/limit-range.ts';
export { validatePodDisruptionBudget } from './validation/policy.ts';
export { validateEndpoints } from './validation/endpoints.ts';
export {
  DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS,
  HIGHEST_USER_DEFINABLE_PRIORITY,
  PREEMPT_LOWER_PRIORITY,
  PREEMPT_NEVER,
  SYSTEM_CLUSTER_CRITICAL,
  SYSTEM_CRITICAL_PRIORITY,
  SYSTEM_NODE_CRITICAL,
  SYSTEM_PRIORITY_CLASS_PREFIX,
  isSystemPriorityClassName,
  systemPriorityClasses,
  unknownSystemPriorityClassReason,
} from './scheduling.ts';
export {
  validatePreemptionPolicy,
  validatePriorityClass,
  validatePriorityClassUpdate,
} from './validation/scheduling.ts';
export { defaultPriorityClass } from './defaults/scheduling.ts';
export {
  applyJsonPatch,
  createMergePatch,
  createThreeWayMergePatch,
  createTwoWayMergePatch,
  patchStructForKind,
  strategicMergePatch,
} from './strategicpatch/index.ts';
export type { DiffResult, JsonPatchOperation, JsonPatchResult, PatchResult } from './strategicpatch/index.ts';
export {
  DISRUPTION_ALLOWED_CONDITION,
  INSUFFICIENT_PODS_REASON,
  SUFFICIENT_PODS_REASON,
  SYNC_FAILED_REASON,
  budgetGuards,
  setStatusCondition,
  updateDisruptionAllowedCondition,
} from './pdb.ts';
export { formatGoDuration, parseGoDuration } from './go-duration.ts';
export { decodeBase64, decodeBase64Text, encodeBase64, encodeBase64Utf8, utf8Bytes, utf8Text, type Base64Decoded } from './base64.ts';
export { escapeComponent, unescapeComponent, urlParseError, wellFormed } from './url-escape.ts';
export { podFieldPathValue } from './fieldpath.ts';
export { containerResourceValue, type ResourceFieldSelector } from './resource-field.ts';
