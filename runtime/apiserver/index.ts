// runtime/apiserver: the request pipeline (authentication -> impersonation -> RBAC authorization ->
// mutating admission -> validation -> validating admission -> etcd storage) and the watch cache,
// metrics and audit trail of each replica. Only this subsystem talks to etcd.
export { ApiServer, KUBERNETES_VERSION, requestURI, type ApiServerOptions } from './api-server.ts';
export type {
  ApiEndpoint, ApiRequest, ApiResponse, ApiWatchEvent, ApiWatchHandle, ApiWatchHandlers, Credentials, Impersonation,
  PatchType, RequestQuery, ResponseBody, ResponseCallback, Verb, WatchEventType,
} from './request.ts';
export { Authenticator, serviceAccountToken, SERVICE_ACCOUNT_TOKEN_PREFIX, type AuthenticatorOptions } from './authn/authenticator.ts';
export * from './authn/user.ts';
export type { Attributes, AuthorizationResult, Authorizer, Decision } from './authz/attributes.ts';
export { RbacAuthorizer, appliesTo, type RbacLister } from './authz/rbac/authorizer.ts';
export { ruleAllows } from './authz/rbac/rule.ts';
export { bootstrapClusterRoles, bootstrapClusterRoleBindings } from './authz/rbac/bootstrap-policy.ts';
export { AdmissionChain, type AdmissionStep } from './admission/chain.ts';
export type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from './admission/types.ts';
export { DEFAULT_ADMISSION_PLUGINS } from './admission/plugins/index.ts';
export { ApiMetrics, REQUEST_DURATION_BUCKETS_SECONDS, type DurationSeries } from './metrics.ts';
export { AuditLog, type AuditEvent, type AuditStage } from './audit.ts';
export { SERVED_RESOURCES, servedResource, storagePrefix } from './resources.ts';
export { SYSTEM_NAMESPACES } from './bootstrap.ts';
export {
  startBootstrapController, kubernetesService, kubernetesEndpointSlice, KUBERNETES_SERVICE_IP, MASTER_LEASES_PREFIX, type BootstrapControllerOptions,
} from './bootstrap-controller.ts';
export { DEFAULT_BOOKMARK_INTERVAL_MS } from './watch-cache/watch-cache.ts';
export { createInMemoryEtcd, type InMemoryEtcd } from './testing/mvcc-etcd-client.ts';
export {
  startApiServerReplica, decodeWireRequest, isApiWireMessage,
  type ApiServerReplica, type ApiServerReplicaOptions, type ApiWireMessage, type WireRequest,
} from './server.ts';
export { startLoadBalancer, type LoadBalancer, type LoadBalancerOptions } from './load-balancer.ts';
export type { ComponentCheck } from './handlers/component-status.ts';
export { COMPACTION_INTERVAL_MS, COMPACT_REV_KEY, compactOnce, startCompactor } from './storage/compactor.ts';
export {
  rangeAllocationStorage, SERVICE_NODE_PORTS_KEY, type RangeAllocation, type RangeAllocationStorage, type RangeChange, type RangeSnapshot,
} from './registry/range-allocation.ts';
