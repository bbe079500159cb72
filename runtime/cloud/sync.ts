// What the cloud controllers share: the worker loop over a rate-limited queue (processNextWorkItem
// in every cloud-provider controller: sync a key, Forget on success, AddRateLimited on error,
// Done either way; one sync per key at a time) and object references for events. cloud/ may not
// import controllers/, so this small loop is its own.
import type { Node, ObjectReference, Service } from '../api/index.ts';
import type { QueueClock, RateLimitingQueue } from '../client/index.ts';

export type SyncFn = (key: string, done: (error?: string) => void) => void;

export interface QueueRunner {
  stop(): void;
}

/** One worker (the cloud controllers' default ConcurrentServiceSyncs and node workers are 1). */
export function runQueue(queue: RateLimitingQueue<string>, clock: QueueClock, sync: SyncFn, onError: (key: string, error: string) => void): QueueRunner {
  let busy = false;
  let stopped = false;
  let scheduled = false;
  // start syncs on a fresh event, never inside the informer handler that queued the key
  const kick = (): void => {
    if (scheduled || stopped) return;
    scheduled = true;
    clock.setTimer(0, () => {
      scheduled = false;
      next();
    });
  };
  const next = (): void => {
    if (stopped || busy) return;
    const key = queue.get();
    if (key === undefined) return;
    busy = true;
    let reported = false;
    sync(key, (error) => {
      if (reported) throw new Error(`invariant violated: a sync of ${key} reports back once`);
      reported = true;
      busy = false;
      if (error === undefined) queue.forget(key);
      else {
        if (!stopped) onError(key, error);
        queue.addRateLimited(key);
      }
      queue.done(key);
      kick();
    });
  };
  queue.onAvailable = kick;
  kick();
  return {
    stop: () => {
      stopped = true;
      queue.onAvailable = null;
    },
  };
}

export function nodeReference(node: Node): ObjectReference {
  return { kind: 'Node', apiVersion: 'v1', name: node.metadata.name ?? '', ...(node.metadata.uid ? { uid: node.metadata.uid } : {}) };
}

export function serviceReference(svc: Service): ObjectReference {
  const m = svc.metadata;
  return {
    kind: 'Service', apiVersion: 'v1', namespace: m.namespace ?? 'default', name: m.name ?? '',
    ...(m.uid ? { uid: m.uid } : {}), ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}
