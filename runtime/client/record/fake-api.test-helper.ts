// An in-memory stand-in for the API server's REST surface, enough for recorder and elector
// tests: create (409 on a name clash), get (404), update (409 on a stale resourceVersion),
// merge patch, with answers delivered after a delay on the kernel clock.
import type { KubeObject } from '../../api/index.ts';
import type { Kernel } from '../../kernel/index.ts';
import type { RestClient, RestResponse } from '../rest/rest-client.ts';
import type { RestRequest } from '../rest/wire.ts';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export interface FakeApi {
  client: RestClient;
  objects: Map<string, KubeObject>;
  requests: RestRequest[];
  /** While set, every request fails with this code (500, 503...). */
  failWith: number | undefined;
  /** Requests go unanswered while true (a partition). */
  blackhole: boolean;
}

export function fakeApi(kernel: Kernel, latencyMs = 1): FakeApi {
  let rv = 1;
  const api: FakeApi = { objects: new Map(), requests: [], failWith: undefined, blackhole: false, client: undefined as unknown as RestClient };
  const key = (r: RestRequest, name: string | undefined): string => `${r.resource ?? ''}/${r.namespace ?? ''}/${name ?? ''}`;
  const status = (code: number, reason: string): RestResponse => ({ code, body: { kind: 'Status', code, reason, message: reason } });
  const handle = (r: RestRequest): RestResponse => {
    if (api.failWith !== undefined) return status(api.failWith, 'InternalError');
    const body = r.body as KubeObject | undefined;
    if (r.verb === 'create' && body) {
      const k = key(r, body.metadata.name);
      if (api.objects.has(k)) return status(409, 'AlreadyExists');
      const stored = clone({ ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } });
      api.objects.set(k, stored);
      return { code: 201, body: clone(stored) };
    }
    const k = key(r, r.name);
    const current = api.objects.get(k);
    if (!current) return status(404, 'NotFound');
    if (r.verb === 'get') return { code: 200, body: clone(current) };
    if (r.verb === 'update' && body) {
      if (body.metadata.resourceVersion !== current.metadata.resourceVersion) return status(409, 'Conflict');
      const stored = clone({ ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } });
      api.objects.set(k, stored);
      return { code: 200, body: clone(stored) };
    }
    if (r.verb === 'patch') {
      const stored = { ...clone(current), ...(r.body as object), metadata: { ...current.metadata, resourceVersion: String(++rv) } };
      api.objects.set(k, stored);
      return { code: 200, body: clone(stored) };
    }
    return status(405, 'MethodNotAllowed');
  };
  api.client = {
    request(r: RestRequest, cb: (res: RestResponse) => void): void {
      api.requests.push(clone(r));
      if (api.blackhole) return;
      const res = handle(r);
      kernel.setTimer(latencyMs, () => cb(res));
    },
  } as unknown as RestClient;
  return api;
}
