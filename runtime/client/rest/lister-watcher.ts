// A typed ListerWatcher over the REST client, what client-go's cache.NewListWatchFromClient builds
// (tools/cache/listwatch.go): list with the caller's selectors and resourceVersion, then watch from
// the list's resourceVersion with bookmarks. A 410 arrives either as the watch's ERROR event or as
// the close status; the reflector relists on either.
import type { KubeObject, List, Status } from '../../api/index.ts';
import type { ListerWatcher, ListResult, WatchEvent, WatchHandle, WatchHandlers } from '../cache/list-watch.ts';
import type { RestClient } from './rest-client.ts';

export interface ListWatchTarget {
  /** API group ("" for core) and plural resource: { group: 'apps', resource: 'deployments' }. */
  group: string;
  resource: string;
  /** Only this namespace (omit for all namespaces or cluster-scoped resources). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Server-side watch timeout (client-go picks 5-10 min at random; default 300 s here). */
  timeoutSeconds?: number;
}

export function restListerWatcher<T extends KubeObject>(client: RestClient, target: ListWatchTarget): ListerWatcher<T> {
  const base = {
    group: target.group,
    resource: target.resource,
    ...(target.namespace ? { namespace: target.namespace } : {}),
  };
  const selectors = {
    ...(target.labelSelector ? { labelSelector: target.labelSelector } : {}),
    ...(target.fieldSelector ? { fieldSelector: target.fieldSelector } : {}),
  };
  return {
    list(options, done): void {
      const query = { ...selectors, ...(options.resourceVersion ? { resourceVersion: options.resourceVersion } : {}) };
      client.request({ verb: 'list', ...base, query }, (res) => {
        if (res.code === 200) return done({ ok: true, value: res.body as List<T> } satisfies ListResult<T>);
        done({ ok: false, error: asStatus(res.body) });
      });
    },
    watch(options, handlers: WatchHandlers<T>): WatchHandle {
      const query = {
        ...selectors,
        resourceVersion: options.resourceVersion,
        allowWatchBookmarks: options.allowWatchBookmarks,
        timeoutSeconds: target.timeoutSeconds ?? 300,
      };
      return client.watch({ verb: 'watch', ...base, query }, {
        onEvent: (ev) => handlers.onEvent(ev as WatchEvent<T>),
        onClose: (err) => handlers.onClose(err === undefined ? undefined : asStatus(err)),
      });
    },
  };
}

function asStatus(body: unknown): Status {
  if (typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'Status') return body as Status;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: String(body), reason: 'InternalError', code: 500 } as Status;
}
