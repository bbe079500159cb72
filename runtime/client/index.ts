/**
 * runtime/client: the client-go analogue every component uses to reach the API server.
 * Work queues (client-go util/workqueue) and informers (client-go tools/cache): reflector,
 * indexed cache, shared informer with handlers, listers and resync.
 */
export { WorkQueue } from './workqueue/queue.ts';
export { RateLimitingQueue, type QueueClock } from './workqueue/rate-limiting-queue.ts';
export { runWorkers, type SyncFn, type WorkerPool } from './workqueue/workers.ts';
export {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
  type RateLimiter,
} from './workqueue/rate-limiters.ts';
export {
  isExpired,
  type ListResult,
  type ListerWatcher,
  type WatchEvent,
  type WatchEventType,
  type WatchHandle,
  type WatchHandlers,
} from './cache/list-watch.ts';
export {
  Indexer,
  NAMESPACE_INDEX,
  metaNamespaceKey,
  namespaceIndexFunc,
  splitMetaNamespaceKey,
  type IndexFunc,
} from './cache/store.ts';
export { Reflector, type ReflectorOptions, type ReflectorSink } from './cache/reflector.ts';
export {
  SharedInformer,
  isTombstone,
  type DeletedFinalStateUnknown,
  type EventHandlers,
  type InformerOptions,
  type Lister,
} from './cache/shared-informer.ts';
export {
  RestClient,
  pathOf,
  type RestClientOptions,
  type RestHost,
  type RestResponse,
  type RestWatchEvent,
  type RestWatchHandlers,
} from './rest/rest-client.ts';
export {
  isWireMessage,
  type RestCredentials,
  type RestImpersonation,
  type RestPatchType,
  type RestQuery,
  type RestRequest,
  type RestVerb,
  type WireMessage,
  type WireRequest,
} from './rest/wire.ts';
export { restListerWatcher, type ListWatchTarget } from './rest/lister-watcher.ts';
export { SharedInformerFactory, type InformerFactoryOptions } from './rest/informer-factory.ts';
export {
  ThrottleLog,
  TokenBucketRateLimiter,
  goDuration,
  rateLimiterFor,
  throttleMessage,
  type ClientRateLimits,
} from './rest/rate-limiter.ts';
export {
  createEventRecorder,
  referenceOf,
  sprintf,
  EventCorrelator,
  EVENT_RETRY_DELAY_MS,
  MAX_QUEUED_EVENTS,
  MAX_TRIES_PER_EVENT,
  type Correlation,
  type EventRecorder,
  type EventRecorderOptions,
  type EventType,
} from './record/index.ts';
// eslint-disable-next-line no-restricted-imports -- client-go's tools/events, not Node's events module
export {
  createEventsRecorder,
  reportingInstanceFor,
  type EventsRecorder,
  type EventsRecorderOptions,
  type EventsV1Type,
} from './events/index.ts';
export {
  LeaderElector,
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  type LeaderCallbacks,
  type LeaderElectionConfig,
} from './leaderelection/index.ts';
