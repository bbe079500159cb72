// The admission contract: plugins see each write after authorization and may mutate it (the
// mutating phase) or refuse it (the validating phase).
// mirrors staging/src/k8s.io/apiserver/pkg/admission/interfaces.go (Attributes, MutationInterface,
// ValidationInterface) with callbacks instead of blocking calls.
import type { KubeObject, ResourceInfo, Status } from '../../api/index.ts';
import type { UserInfo } from '../authn/user.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionAttributes {
  operation: Operation;
  resource: ResourceInfo;
  subresource?: string;
  namespace?: string;
  name: string;
  /** The object being written (mutable in the mutating phase). */
  object?: KubeObject;
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
  /**
   * Registers work for when this write's storage result is known: the REST store's FinishFunc
   * (BeginCreate/BeginUpdate) and AfterDelete upstream. Set by the handlers that store after
   * admission; a plugin that holds something for the write undoes it here when it was not stored.
   */
  onFinish?: (finish: AdmissionFinish) => void;
}

/** How a write ended, once etcd answered. */
export interface WriteOutcome {
  /** Stored (or, for a dry run, would have been); false when refused, lost to a race or failed in etcd. */
  committed: boolean;
  /** The object is gone from storage: a delete, or the update that removed its last finalizer. */
  deleted: boolean;
}

/** Work deferred until the storage result is known; the response waits for `done`. */
export type AdmissionFinish = (outcome: WriteOutcome, done: () => void) => void;

/** What plugins may read: the replica's caches, with a live etcd read for cache misses. */
export interface AdmissionContext {
  /** A cached object, undefined if the cache has none. */
  cached(group: string, resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
  /** Every cached object of a resource in a namespace. */
  cachedList(group: string, resource: string, namespace: string): KubeObject[];
  /** A quorum read from etcd, for objects created a moment ago that the cache has not seen yet. */
  liveGet(group: string, resource: string, namespace: string | undefined, name: string, cb: (obj: KubeObject | undefined, err?: Status) => void): void;
  randomSuffix(n: number): string;
}

export type AdmissionDone = (error?: Status) => void;

export interface AdmissionPlugin {
  /** The upstream plugin name, e.g. "NamespaceLifecycle". */
  readonly name: string;
  /** Mutating phase (MutationInterface.Admit). */
  admit?(a: AdmissionAttributes, ctx: AdmissionContext, done: AdmissionDone): void;
  /** Validating phase (ValidationInterface.Validate). */
  validate?(a: AdmissionAttributes, ctx: AdmissionContext, done: AdmissionDone): void;
}
