/**
 * runtime/client: the client-go analogue every component uses to reach the API server.
 * So far: the rate-limited work queue (client-go util/workqueue).
 */
export { WorkQueue } from './workqueue/queue.ts';
export { RateLimitingQueue, type QueueClock } from './workqueue/rate-limiting-queue.ts';
export {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
  type RateLimiter,
} from './workqueue/rate-limiters.ts';
