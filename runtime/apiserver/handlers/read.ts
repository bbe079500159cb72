// GET, LIST and WATCH.
// mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go and watch.go, and the storage
// rules of the cacher: resourceVersion "0" may be served from the watch cache, "" (the default)
// is a consistent read from etcd; watches are served by the watch cache. Resources without a watch
// cache (events, as kube-apiserver's DefaultWatchCacheSizes disables it for them) read and watch
// etcd directly. A watch cache that has not listed etcd yet (an API server that is starting) is
// handled as KEP-4568 (ResilientWatchCacheInitialization) does in cacher/delegator.go: a get goes
// to etcd, a list goes to etcd only if it has a limit and no selector, and the other lists and
// every watch are answered 429 "storage is (re)initializing" with a Retry-After that grows with
// the time the cache has been waiting (util.go calculateRetryAfterForUnreadyCache).
import { apiVersionOf, newBadRequest, newNotFound, newResourceExpired, newTooManyRequests, type KubeObject, type Status } from '../../api/index.ts';
import type { ApiWatchEvent, ApiWatchHandle, ApiWatchHandlers } from '../request.ts';
import { copyWithout } from '../encoding.ts';
import { convertEventFieldSelector, isEventsV1, toRequestedVersion } from '../registry/event-conversion.ts';
import { storagePrefix } from '../resources.ts';
import { listRange } from '../storage/keys.ts';
import { buildPredicate, matches } from '../watch-cache/filter.ts';
import { toScale } from './scale.ts';
import { groupResource, keyOf, type Scope } from './scope.ts';

export function handleGet(s: Scope): void {
  const name = s.req.name ?? '';
  const key = keyOf(s, s.req.namespace, name);
  const answer = (obj: KubeObject | undefined): void => {
    if (!obj) return s.fail(newNotFound(groupResource(s), name));
    s.respond(200, s.req.subresource === 'scale' ? toScale(obj, s.resource) : toRequestedVersion(s.resource, obj));
  };
  if (s.req.query?.resourceVersion === '0' && s.cache?.isReady) {
    s.stage('Storage', `watch cache get ${key}`);
    return answer(s.cache.get(key));
  }
  s.store.get(key, (r) => {
    if (!r.ok) {
      s.stage('Storage', `etcd get ${key} failed`, false);
      return s.fail(r.status);
    }
    s.stage('Storage', `etcd get ${key}`);
    answer(r.value?.object);
  });
}

/** A continue token: where the next page starts and the revision of the first page. */
interface ContinueToken {
  rv: number;
  start: number;
}

function parseContinue(token: string | undefined): ContinueToken | undefined | 'invalid' {
  if (!token) return undefined;
  try {
    const t = JSON.parse(token) as ContinueToken;
    return Number.isInteger(t.rv) && Number.isInteger(t.start) && t.start >= 0 ? t : 'invalid';
  } catch {
    return 'invalid';
  }
}

export function handleList(s: Scope): void {
  const q = s.req.query ?? {};
  const fieldSelector = storedFieldSelector(s, q.fieldSelector);
  if (typeof fieldSelector === 'object') return s.fail(fieldSelector);
  const pred = buildPredicate(s.resource.kind, { namespace: s.resource.namespaced ? s.req.namespace : undefined, labelSelector: q.labelSelector, fieldSelector });
  if (!pred.ok) return s.fail(pred.status);
  const cont = parseContinue(q.continue);
  if (cont === 'invalid') return s.fail(newBadRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'));
  const limit = typeof q.limit === 'number' && q.limit > 0 ? Math.floor(q.limit) : 0;
  const page = (all: KubeObject[], revision: number): void => {
    const items = all.filter((o) => matches(pred.predicate, o));
    const start = cont?.start ?? 0;
    const end = limit > 0 ? start + limit : items.length;
    const metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number } = { resourceVersion: String(revision) };
    if (end < items.length) {
      metadata.continue = JSON.stringify({ rv: revision, start: end });
      if (!q.labelSelector && !q.fieldSelector) metadata.remainingItemCount = items.length - end;
    }
    s.respond(200, {
      kind: `${s.resource.kind}List`,
      apiVersion: apiVersionOf(s.resource),
      metadata,
      items: items.slice(start, end).map((o) => stripTypeMeta(toRequestedVersion(s.resource, o))),
    });
  };
  if (q.resourceVersion === '0' && !cont && s.cache) {
    if (s.cache.isReady) {
      s.stage('Storage', `watch cache list ${storagePrefix(s.resource)} at ${s.cache.resourceVersion}`);
      return page(s.cache.list(pred.predicate), s.cache.resourceVersion);
    }
    // shouldDelegateListOnNotReadyCache: only a paged list without selectors may go to etcd
    if (q.labelSelector || q.fieldSelector || limit === 0) {
      s.stage('Storage', `watch cache ${storagePrefix(s.resource)} not ready`, false);
      return s.fail(storageInitializing(s));
    }
  }
  const range = listRange(storagePrefix(s.resource), s.resource.namespaced ? s.req.namespace : undefined);
  s.store.list(range.key, range.rangeEnd, cont?.rv, (r) => {
    if (!r.ok) {
      s.stage('Storage', `etcd range ${range.key} failed`, false);
      if (cont && r.status.message?.includes('compacted')) {
        return s.fail(newResourceExpired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.'));
      }
      return s.fail(r.status);
    }
    s.stage('Storage', `etcd range ${range.key} at revision ${r.value.revision}`);
    page(r.value.items, r.value.revision);
  });
}

/** The field selector in the stored shape's labels (events.k8s.io's regarding.name is involvedObject.name). */
function storedFieldSelector(s: Scope, selector: string | undefined): string | undefined | ReturnType<typeof newBadRequest> {
  if (!selector || !isEventsV1(s.resource)) return selector;
  const converted = convertEventFieldSelector(selector);
  return converted.ok ? converted.selector : newBadRequest(converted.error);
}

/** List items carry no apiVersion/kind on the wire; the list's kind says what they are. */
function stripTypeMeta(o: KubeObject): KubeObject {
  return copyWithout(o, 'apiVersion', 'kind') as KubeObject;
}

/** Starts a watch; returns the handle, or undefined if the request was refused (handlers told). */
export function startWatch(s: Scope, handlers: ApiWatchHandlers, setTimer: (ms: number, fn: () => void) => { cancel(): void }): ApiWatchHandle | undefined {
  const q = s.req.query ?? {};
  const fieldSelector = storedFieldSelector(s, q.fieldSelector);
  if (typeof fieldSelector === 'object') {
    handlers.onClose(fieldSelector);
    return undefined;
  }
  const pred = buildPredicate(s.resource.kind, {
    namespace: s.resource.namespaced ? s.req.namespace : undefined,
    name: s.req.name,
    labelSelector: q.labelSelector,
    fieldSelector,
  });
  if (!pred.ok) {
    handlers.onClose(pred.status);
    return undefined;
  }
  let rv: number | undefined;
  if (q.resourceVersion !== undefined && q.resourceVersion !== '') {
    if (!/^\d+$/.test(q.resourceVersion)) {
      handlers.onClose(newBadRequest(`resourceVersion: Invalid value: ${JSON.stringify(q.resourceVersion)}: strconv.ParseUint: parsing ${JSON.stringify(q.resourceVersion)}: invalid syntax`));
      return undefined;
    }
    rv = Number(q.resourceVersion);
  }
  let open = true;
  let cancel = (): void => {};
  let timer: { cancel(): void } | undefined;
  const close = (error?: Parameters<ApiWatchHandlers['onClose']>[0]): void => {
    if (!open) return;
    open = false;
    cancel();
    timer?.cancel();
    handlers.onClose(error);
  };
  const sink = (ev: ApiWatchEvent): void => {
    if (!open) return;
    handlers.onEvent(ev.type === 'ERROR' || ev.type === 'BOOKMARK' ? ev : { type: ev.type, object: toRequestedVersion(s.resource, ev.object) });
    if (ev.type === 'ERROR') close();
  };
  if (s.cache && !s.cache.isReady) {
    s.stage('Storage', `watch cache ${storagePrefix(s.resource)} not ready`, false);
    handlers.onClose(storageInitializing(s));
    return undefined;
  }
  if (s.cache) {
    cancel = s.cache.watch(pred.predicate, rv, q.allowWatchBookmarks === true, sink);
    s.stage('Storage', `watch cache ${storagePrefix(s.resource)} from ${rv ?? 'now'}`);
  } else {
    const range = listRange(storagePrefix(s.resource), s.resource.namespaced ? s.req.namespace : undefined);
    cancel = s.store.watch({ key: range.key, rangeEnd: range.rangeEnd, predicate: pred.predicate, resourceVersion: rv }, sink);
    s.stage('Storage', `etcd watch ${range.key} from ${rv ?? 'now'}`);
  }
  if (typeof q.timeoutSeconds === 'number' && q.timeoutSeconds > 0 && open) {
    timer = setTimer(q.timeoutSeconds * 1000, () => close());
  }
  return { stop: () => close() };
}

/**
 * The cacher's answer while its cache waits for its first list: 429 with a Retry-After of
 * e^(0.06 x seconds waited), between 1 and 30 s (calculateRetryAfterForUnreadyCache).
 */
function storageInitializing(s: Scope): Status {
  const waitedSeconds = (s.cache?.unreadyForMs(s.nowMs()) ?? 0) / 1000;
  return newTooManyRequests('storage is (re)initializing', retryAfterForUnreadyCache(waitedSeconds));
}

export function retryAfterForUnreadyCache(waitedSeconds: number): number {
  return Math.trunc(Math.min(30, Math.max(1, Math.exp(0.06 * waitedSeconds))));
}
