// For the cloud controllers' unit tests: an in-memory API (get, update with resourceVersion
// checks, JSON merge patch, delete honouring finalizers) whose writes reach informers through a
// fake watch, plus a recorder that keeps events as text. Answers arrive 1 ms later on the kernel.
import type { KubeObject, ObjectReference } from '../api/index.ts';
import { SharedInformer, sprintf, type EventRecorder, type ListerWatcher, type RestClient, type RestRequest, type RestResponse, type WatchHandlers } from '../client/index.ts';
import type { Kernel } from '../kernel/index.ts';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return clone(patch);
  const out: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

export interface FakeCluster {
  client: RestClient;
  requests: RestRequest[];
  get<T extends KubeObject>(resource: string, namespace: string, name: string): T | undefined;
  /** Stores an object as if created (and tells the informers). */
  put(resource: string, obj: KubeObject): void;
  informer<T extends KubeObject>(resource: string): SharedInformer<T>;
}

export function fakeCluster(kernel: Kernel): FakeCluster {
  let rv = 100;
  const objects = new Map<string, KubeObject>();
  const watchers = new Map<string, WatchHandlers<KubeObject>[]>();
  const requests: RestRequest[] = [];
  const key = (resource: string, ns: string | undefined, name: string | undefined): string => `${resource}/${ns ?? ''}/${name ?? ''}`;
  const notify = (resource: string, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): void => {
    for (const w of watchers.get(resource) ?? []) kernel.setTimer(1, () => w.onEvent({ type, object: clone(obj) }));
  };
  const store = (resource: string, obj: KubeObject, type: 'ADDED' | 'MODIFIED'): KubeObject => {
    const stored = clone({ ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv) } });
    objects.set(key(resource, stored.metadata.namespace, stored.metadata.name), stored);
    notify(resource, type, stored);
    return stored;
  };
  const remove = (resource: string, obj: KubeObject): void => {
    objects.delete(key(resource, obj.metadata.namespace, obj.metadata.name));
    notify(resource, 'DELETED', obj);
  };
  const status = (code: number, reason: string): RestResponse => ({ code, body: { kind: 'Status', code, reason, message: reason } });
  const handle = (r: RestRequest): RestResponse => {
    const resource = r.resource ?? '';
    const current = objects.get(key(resource, r.namespace, r.name));
    if (!current) return status(404, 'NotFound');
    if (r.verb === 'get') return { code: 200, body: clone(current) };
    if (r.verb === 'delete') {
      if ((current.metadata.finalizers ?? []).length > 0) {
        return { code: 200, body: store(resource, { ...current, metadata: { ...current.metadata, deletionTimestamp: '2026-01-01T00:10:00Z' } }, 'MODIFIED') };
      }
      remove(resource, current);
      return { code: 200, body: clone(current) };
    }
    let next: KubeObject;
    if (r.verb === 'update') {
      const body = r.body as KubeObject;
      if (body.metadata.resourceVersion !== current.metadata.resourceVersion) return status(409, 'Conflict');
      next = clone(body);
    } else if (r.verb === 'patch') next = mergePatch(current, r.body) as KubeObject;
    else return status(405, 'MethodNotAllowed');
    if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
      remove(resource, next);
      return { code: 200, body: clone(next) };
    }
    return { code: 200, body: store(resource, next, 'MODIFIED') };
  };
  const client = {
    request(r: RestRequest, cb: (res: RestResponse) => void): void {
      requests.push(clone(r));
      const res = handle(r);
      kernel.setTimer(1, () => cb(res));
    },
  } as unknown as RestClient;
  const lw = (resource: string): ListerWatcher<KubeObject> => ({
    list: (_o, done) => {
      const items = [...objects.entries()].filter(([k]) => k.startsWith(`${resource}/`)).map(([, v]) => clone(v));
      kernel.setTimer(1, () => done({ ok: true, value: { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: String(rv) }, items } }));
    },
    watch: (_o, handlers) => {
      const list = watchers.get(resource) ?? [];
      list.push(handlers);
      watchers.set(resource, list);
      return { stop: () => list.splice(list.indexOf(handlers), 1) };
    },
  });
  return {
    client, requests,
    get: <T extends KubeObject>(resource: string, ns: string, name: string) => objects.get(key(resource, ns, name)) as T | undefined,
    put: (resource, obj) => void store(resource, obj, 'ADDED'),
    informer: <T extends KubeObject>(resource: string) => new SharedInformer<T>(kernel, lw(resource) as unknown as ListerWatcher<T>),
  };
}

export interface RecordedEvents extends EventRecorder {
  /** "<type> <reason> <kind>/<name>: <message>" */
  readonly lines: string[];
}

export function fakeRecorder(): RecordedEvents {
  const lines: string[] = [];
  return {
    lines,
    inFlight: 0,
    eventf(object, type, reason, fmt, ...args) {
      const ref = ('metadata' in object ? { kind: object.kind, name: object.metadata.name } : object) as ObjectReference;
      lines.push(`${type} ${reason} ${ref.kind ?? ''}/${ref.name ?? ''}: ${sprintf(fmt, ...args)}`);
    },
  };
}
