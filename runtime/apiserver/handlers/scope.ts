// Everything a handler needs for one request: the resolved resource, the caller, the storage,
// the caches, the admission chain, and the functions that record stages and send the answer.
import type { KubeObject, ResourceInfo, Status } from '../../api/index.ts';
import type { AdmissionChain } from '../admission/chain.ts';
import type { AdmissionAttributes, AdmissionContext, Operation } from '../admission/types.ts';
import type { AuditRecord, AuditStageName } from '../audit.ts';
import type { UserInfo } from '../authn/user.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import type { ApiRequest, ResponseBody } from '../request.ts';
import type { Current, EtcdStore } from '../storage/etcd-store.ts';
import { objectKey } from '../storage/keys.ts';
import type { WatchCache } from '../watch-cache/watch-cache.ts';
import { storagePrefix } from '../resources.ts';

export interface Scope {
  req: ApiRequest;
  resource: ResourceInfo;
  user: UserInfo;
  store: EtcdStore;
  /** Undefined for resources the API server does not cache (events): they are served by etcd. */
  cache: WatchCache | undefined;
  /** Another resource's cache (the eviction subresource reads PodDisruptionBudgets). */
  cacheFor(group: string, resource: string): WatchCache | undefined;
  admission: AdmissionChain;
  admissionContext: AdmissionContext;
  strategy(): StrategyContext;
  nowMs(): number;
  /** Runs `fn` after `delayMs` of simulated time (a handler's own backoff, e.g. eviction's retries). */
  after(delayMs: number, fn: () => void): void;
  /** A seeded random integer in [0, n) (wait.Jitter's rand.Float64, at millisecond resolution). */
  randomInt(n: number): number;
  /** The request's audit record (none for a watch stream's scope). */
  audit: AuditRecord | undefined;
  /** Records a stage in the audit record, stamped now. */
  stage(stage: AuditStageName, detail: string, ok?: boolean): void;
  respond(code: number, body: ResponseBody, warnings?: string[]): void;
  fail(status: Status): void;
}

export const keyOf = (s: Scope, namespace: string | undefined, name: string): string =>
  objectKey(storagePrefix(s.resource), s.resource.namespaced ? namespace : undefined, name);

/**
 * The watch cache's copy of `key` as GuaranteedUpdate's starting point: mirrors
 * Cacher.GuaranteedUpdate (apiserver/pkg/storage/cacher/cacher.go), which ignores the caller's
 * suggestion and passes the cached object down, so an update needs no read from etcd first.
 */
export function cachedCurrent(s: Scope, key: string): Current | undefined {
  const object = s.cache?.get(key);
  return object ? { object, modRevision: Number(object.metadata.resourceVersion) } : undefined;
}

export const groupResource = (s: Scope): { group: string; resource: string } => ({ group: s.resource.group, resource: s.resource.resource });
export const groupKind = (s: Scope): { group: string; kind: string } => ({ group: s.resource.group, kind: s.resource.kind });

export const isDryRun = (s: Scope): boolean => s.req.query?.dryRun === 'All';

export function admissionAttributes(s: Scope, operation: Operation, name: string, object?: KubeObject, oldObject?: KubeObject): AdmissionAttributes {
  const a: AdmissionAttributes = { operation, resource: s.resource, name, user: s.user, dryRun: isDryRun(s) };
  if (s.req.subresource) a.subresource = s.req.subresource;
  if (s.resource.namespaced && s.req.namespace) a.namespace = s.req.namespace;
  if (object) a.object = object;
  if (oldObject) a.oldObject = oldObject;
  return a;
}

/** Runs one admission phase, recording each plugin as an audit stage. */
export function runAdmission(s: Scope, phase: 'mutating' | 'validating', a: AdmissionAttributes, done: (err?: Status) => void): void {
  s.admission.run(phase, a, s.admissionContext, (steps, err) => {
    s.audit?.admission(phase, s.nowMs(), steps);
    done(err);
  });
}
