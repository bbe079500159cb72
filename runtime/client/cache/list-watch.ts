/**
 * The contract between an informer and the API server, mirroring client-go tools/cache
 * ListerWatcher and apimachinery's watch.Event. Callback-based: the simulation kernel delivers
 * replies as events (see docs/ARCHITECTURE.md, "simulated asynchrony").
 */
import type { KubeObject, List, Status } from '../../api/index.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event. ERROR carries a Status (e.g. 410 Gone: "too old resource version"). */
export type WatchEvent<T extends KubeObject> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; object: T }
  | { type: 'ERROR'; object: Status };

export type ListResult<T extends KubeObject> =
  { ok: true; value: List<T> } | { ok: false; error: Status };

export interface WatchHandlers<T extends KubeObject> {
  onEvent(event: WatchEvent<T>): void;
  /** The stream ended: normally (error undefined, e.g. a server-side timeout) or with an error. */
  onClose(error?: Status): void;
}

export interface WatchHandle {
  stop(): void;
}

export interface ListerWatcher<T extends KubeObject> {
  /** resourceVersion "" asks for the latest state (a quorum read). */
  list(options: { resourceVersion: string }, done: (result: ListResult<T>) => void): void;
  /** Streams changes after resourceVersion (exclusive), with bookmarks when asked. */
  watch(
    options: { resourceVersion: string; allowWatchBookmarks: boolean },
    handlers: WatchHandlers<T>,
  ): WatchHandle;
}

/** True for the "410 Gone / Expired" errors after which a reflector must relist from scratch. */
/** apierrors.IsTooLargeResourceVersion: a version newer than the server has seen. */
export function isTooLargeResourceVersion(status: Status | undefined): boolean {
  return status?.details?.causes?.some((c) => c.reason === 'ResourceVersionTooLarge') === true || (status?.message ?? '').includes('Too large resource version');
}

export function isExpired(status: Status | undefined): boolean {
  return (
    status !== undefined &&
    (status.code === 410 || status.reason === 'Expired' || status.reason === 'Gone')
  );
}
