// A resource request written as a URL path (what `kubectl get --raw /api/v1/namespaces/default/pods`
// sends): mirrors RequestInfoFactory.NewRequestInfo (apiserver/pkg/endpoints/request/requestinfo.go).
// /api/<version>/... is the core group, /apis/<group>/<version>/... the others; "namespaces/<ns>"
// scopes what follows, unless what follows is a namespace's own subresource; the remaining parts
// are resource, name and subresource. A GET of a collection is a list, of a name a get.
import { parseQuery } from './health.ts';
import type { ApiRequest, RequestQuery } from './request.ts';
import { servedResource } from './resources.ts';

/** What a namespace's own path may continue with (requestinfo.go namespaceSubresources). */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** The query parameters a GET understands, and how each is typed. */
const NUMBER_PARAMS = new Set(['limit', 'timeoutSeconds']);
const TEXT_PARAMS = new Set(['labelSelector', 'fieldSelector', 'resourceVersion', 'continue', 'container', 'follow', 'previous', 'timestamps', 'sinceSeconds', 'sinceTime', 'tailLines', 'limitBytes']);

export type PathRequest = { request: ApiRequest } | { watch: true } | undefined;

/**
 * The resource request a GET of `req.path` stands for; `{ watch: true }` for a watch (?watch=true),
 * which a single answer cannot carry; undefined when the path names no resource (/healthz, /api).
 */
export function resourceRequestOfPath(req: ApiRequest): PathRequest {
  if (req.path === undefined || req.verb !== 'get') return undefined;
  try {
    return parsePath(req, req.path);
  } catch {
    return undefined; // a malformed escape (%zz): no resource path, so a 404
  }
}

function parsePath(req: ApiRequest, pathWithQuery: string): PathRequest {
  const q = pathWithQuery.indexOf('?');
  const path = q < 0 ? pathWithQuery : pathWithQuery.slice(0, q);
  const params = parseQuery(q < 0 ? '' : pathWithQuery.slice(q + 1));
  let parts = path.split('/').filter((p) => p !== '').map(decodeURIComponent);
  let group: string;
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    [group, version] = ['', parts[1]!];
    parts = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    [group, version] = [parts[1]!, parts[2]!];
    parts = parts.slice(3);
  } else return undefined;
  // the deprecated /api/v1/watch/... prefix (requestinfo.go specialVerbs)
  if (parts[0] === 'watch') return { watch: true };
  let namespace: string | undefined;
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1];
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
  }
  const [resource, name, subresource] = parts;
  // a resource this group version does not serve is the mux's plain 404
  const served = servedResource(group, resource ?? '');
  if (!served || served.version !== version) return undefined;
  const watch = params.get('watch')?.[0];
  if (watch === 'true' || watch === '1') return { watch: true };
  const query: RequestQuery = {};
  for (const [k, [v = '']] of params) {
    if (NUMBER_PARAMS.has(k)) (query as Record<string, unknown>)[k] = Number(v);
    else if (TEXT_PARAMS.has(k)) (query as Record<string, unknown>)[k] = v;
  }
  const request: ApiRequest = { ...req, verb: name === undefined ? 'list' : 'get', group, resource: resource! };
  delete request.path;
  if (namespace !== undefined && !(resource === 'namespaces' && name === namespace)) request.namespace = namespace;
  if (name !== undefined) request.name = name;
  if (subresource !== undefined) request.subresource = subresource;
  if (Object.keys(query).length > 0) request.query = query;
  return { request };
}
