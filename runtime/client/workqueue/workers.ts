// The worker loop of every controller, in kube-controller-manager and the cloud-controller-manager
// alike (processNextWorkItem in pkg/controller/* and k8s.io/cloud-provider/controllers/*): take a
// key, sync it, then forget it (success) or add it back rate-limited (error), and mark it done. The
// work queue guarantees a key is never synced by two workers at once. Syncs are callback-driven,
// so up to `workers` of them may be in flight, as upstream's ConcurrentRSSyncs goroutines are.
import type { RateLimitingQueue } from './rate-limiting-queue.ts';

/** A sync reports back: undefined on success, or an error message to retry with back-off. */
export type SyncFn = (key: string, done: (error?: string) => void) => void;

export interface WorkerPool {
  /** Stops taking keys (the queue is shut down by its owner). */
  stop(): void;
  /** Keys being synced right now. */
  readonly busy: number;
}

export function runWorkers(
  queue: RateLimitingQueue<string>,
  clock: { setTimer(delayMs: number, fn: () => void): { cancel(): void } },
  workers: number,
  sync: SyncFn,
  onError?: (key: string, error: string) => void,
): WorkerPool {
  let busy = 0;
  let stopped = false;
  let kickScheduled = false;
  // never sync inside the caller of queue.add (an informer handler): start on a fresh event
  const kick = (): void => {
    if (kickScheduled || stopped) return;
    kickScheduled = true;
    clock.setTimer(0, () => {
      kickScheduled = false;
      pump();
    });
  };
  const pump = (): void => {
    while (!stopped && busy < workers) {
      const key = queue.get();
      if (key === undefined) return;
      busy++;
      let finished = false;
      sync(key, (error) => {
        if (finished) throw new Error(`invariant violated: a sync of ${key} reported back twice`);
        finished = true;
        busy--;
        if (error === undefined) queue.forget(key);
        else {
          onError?.(key, error);
          queue.addRateLimited(key);
        }
        queue.done(key);
        kick();
      });
    }
  };
  queue.onAvailable = kick;
  kick();
  return {
    stop: () => {
      stopped = true;
      queue.onAvailable = null;
    },
    get busy() {
      return busy;
    },
  };
}
