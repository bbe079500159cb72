// kubectl -v=6: client-go's debugging round tripper logs every request with its URL, the answer's
// status and how long it took, on stderr:
//   I0101 00:00:05.123000   48213 round_trippers.go:632] "Response" verb="GET" url="https://.../deployments/web" status="404 Not Found" milliseconds=3
// mirrors staging/src/k8s.io/client-go/transport/round_trippers.go (debuggingRoundTripper with
// DebugURLTiming, the structured "Response" line of client-go v1.32+), the request URL as
// client-go's Request.URL() builds it (url.Values.Encode: keys sorted, values query-escaped) and
// net/http's StatusText. The time is the simulated clock's; the duration is simulated milliseconds.
import { escapeComponent } from '../../api/index.ts';
import { klogLine } from './klog.ts';
import type { KubeRequest } from './transport.ts';

/** Where client-go v1.33 logs the line. */
export const ROUND_TRIPPERS_SOURCE = 'round_trippers.go:632';

/** kubectl's default --chunk-size: every list it sends asks for pages of 500. */
const CHUNK_SIZE = 500;

const METHODS: Readonly<Record<KubeRequest['verb'], string>> = {
  get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE',
};

/** net/http StatusText for the codes the API server answers with. */
const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable', 409: 'Conflict', 410: 'Gone', 413: 'Request Entity Too Large',
  415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error',
  501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** Go's url.QueryEscape: unreserved bytes kept, space as "+", every other UTF-8 byte %XX (upper case). */
function queryEscape(s: string): string {
  return escapeComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** The parameters client-go puts in the URL for a request (the body carries the rest). */
function queryParams(req: KubeRequest): [string, string][] {
  const q = req.query ?? {};
  const params: [string, string][] = [];
  const add = (k: string, v: string | number | boolean | undefined): void => {
    if (v !== undefined && v !== '') params.push([k, String(v)]);
  };
  add('labelSelector', q.labelSelector);
  add('fieldSelector', q.fieldSelector);
  add('resourceVersion', q.resourceVersion);
  add('dryRun', q.dryRun);
  add('fieldManager', q.fieldManager);
  add('fieldValidation', q.fieldValidation);
  add('container', q.container);
  if (q.follow) add('follow', 'true');
  if (q.previous) add('previous', 'true');
  if (q.timestamps) add('timestamps', 'true');
  add('tailLines', q.tailLines);
  add('sinceSeconds', q.sinceSeconds);
  add('sinceTime', q.sinceTime);
  add('limitBytes', q.limitBytes);
  if (req.verb === 'list') add('limit', CHUNK_SIZE);
  if (req.verb === 'watch') add('watch', 'true');
  return params;
}

/** Request.URL(): the server, the resource path, then the parameters sorted by key. */
export function requestURL(serverURL: string, req: KubeRequest): string {
  const { group, version, resource } = req.resource;
  let path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  if (req.namespace) path += `/namespaces/${req.namespace}`;
  path += `/${resource}`;
  if (req.name) path += `/${req.name}`;
  if (req.subresource) path += `/${req.subresource}`;
  const params = queryParams(req).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.map(([k, v]) => `${queryEscape(k)}=${queryEscape(v)}`).join('&');
  return `${serverURL}${path}${query ? `?${query}` : ''}`;
}

/** klog's quoting of a string value (strconv.Quote for printable text). */
const quote = (s: string): string => JSON.stringify(s);

/** The -v=6 line for one round trip: code 0 is a request that got no answer (status ""). */
export function responseLine(nowMs: number, method: string, url: string, code: number, milliseconds: number): string {
  const status = code === 0 ? '' : `${code} ${STATUS_TEXT[code] ?? ''}`.trimEnd();
  return klogLine(nowMs, 'I', ROUND_TRIPPERS_SOURCE, `"Response" verb=${quote(method)} url=${quote(url)} status=${quote(status)} milliseconds=${milliseconds}`);
}

export const httpMethod = (req: KubeRequest): string => METHODS[req.verb];
