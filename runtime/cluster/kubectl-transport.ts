// kubectl's transport (runtime/cli/kubectl/transport.ts) over the REST client: the kubeconfig
// user's credentials, --as/--as-group as Impersonate-* headers, the kubectl request shape turned
// into a REST call that crosses the simulated network to the load balancer or the replica.
import type { Status } from '../api/index.ts';
import type { RestClient, RestPatchType, RestRequest, RestResponse } from '../client/index.ts';
import type { KubeRequest, KubeResponse, KubeTransport, RawRequest, WatchEvent as KubeWatchEvent } from '../cli/index.ts';

// kubectl patch --type: json is an RFC 6902 JSON Patch, merge an RFC 7386 merge patch
const PATCH_TYPES: Record<string, RestPatchType> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

/** `onWarning` gets each Warning header of an answer (kubectl prints them on stderr). */
export function kubectlTransport(client: RestClient, onWarning: (text: string) => void = () => undefined): KubeTransport {
  const warned = (res: RestResponse): RestResponse => {
    for (const w of res.warnings ?? []) onWarning(w);
    return res;
  };
  const as = (imp: KubeRequest['impersonate'], token?: string): RestClient => {
    const base = token ? client.withCredentials({ token }) : client;
    return imp && (imp.user !== undefined || imp.groups)
      ? base.impersonate({ user: imp.user ?? '', ...(imp.groups ? { groups: imp.groups } : {}) })
      : base;
  };
  return {
    request(req: KubeRequest, done: (res: KubeResponse) => void): void {
      const rest = toRestRequest(req);
      if ('unsupported' in rest) return done({ ok: false, status: rest.unsupported });
      as(req.impersonate, req.token).request(rest, (res) => done(toKubeResponse(warned(res))));
    },
    // `kubectl get -w` and `rollout status`: a real watch stream through the API server.
    watch(req: KubeRequest, onEvent: (event: KubeWatchEvent) => void, onClose?: (error?: Status) => void): { stop(): void } {
      const rest = toRestRequest({ ...req, verb: 'watch' });
      if ('unsupported' in rest) return { stop: () => undefined };
      return as(req.impersonate, req.token).watch(rest, {
        onEvent: (e) => onEvent(e as KubeWatchEvent),
        onClose: (error) => onClose?.(error === undefined ? undefined : asStatus({ code: (error as { code?: number }).code ?? 500, body: error })),
      });
    },
    raw(req: RawRequest, done): void {
      as(req.impersonate, req.token).request({ verb: 'get', path: req.path }, (r) => {
        const res = warned(r);
        // an object arrives as the JSON serializer wrote it, ending in a newline
        if (res.code >= 200 && res.code < 300) return done({ ok: true, body: typeof res.body === 'string' ? res.body : JSON.stringify(res.body) + '\n' });
        done({ ok: false, status: asStatus(res) });
      });
    },
  };
}

function toRestRequest(req: KubeRequest): RestRequest | { unsupported: Status } {
  const q = req.query ?? {};
  const out: RestRequest = { verb: req.verb, group: req.resource.group, resource: req.resource.resource };
  if (req.namespace) out.namespace = req.namespace;
  if (req.name) out.name = req.name;
  if (req.subresource) out.subresource = req.subresource;
  if (req.body !== undefined) out.body = req.body;
  const query: RestRequest['query'] = {};
  if (q.labelSelector) query.labelSelector = q.labelSelector;
  if (q.fieldSelector) query.fieldSelector = q.fieldSelector;
  if (q.resourceVersion) query.resourceVersion = q.resourceVersion;
  if (q.dryRun) query.dryRun = q.dryRun;
  if (q.fieldValidation) query.fieldValidation = q.fieldValidation;
  if (q.fieldManager) query.fieldManager = q.fieldManager;
  if (q.gracePeriodSeconds !== undefined) query.gracePeriodSeconds = q.gracePeriodSeconds;
  // pods/log
  if (q.container !== undefined) query.container = q.container;
  if (q.tailLines !== undefined) query.tailLines = q.tailLines;
  if (q.previous) query.previous = true;
  if (q.follow) query.follow = true;
  if (q.timestamps) query.timestamps = true;
  if (q.sinceSeconds !== undefined) query.sinceSeconds = q.sinceSeconds;
  if (q.sinceTime !== undefined) query.sinceTime = q.sinceTime;
  if (q.limitBytes !== undefined) query.limitBytes = q.limitBytes;
  // pods/exec
  if (q.command !== undefined) query.command = q.command;
  for (const k of ['stdin', 'stdout', 'stderr', 'tty'] as const) if (q[k] !== undefined) query[k] = q[k];
  if (Object.keys(query).length > 0) out.query = query;
  if (req.verb === 'patch') {
    const type = PATCH_TYPES[q.patchType ?? 'strategic'];
    if (!type) {
      return { unsupported: status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json`) };
    }
    out.patchType = type;
  }
  return out;
}

function toKubeResponse(res: RestResponse): KubeResponse {
  if (res.code >= 200 && res.code < 300) return { ok: true, body: res.body, code: res.code };
  return { ok: false, status: asStatus(res), ...(typeof res.body === 'string' ? { text: res.body.trim() } : {}) };
}

function asStatus(res: RestResponse): Status {
  const b = res.body as Partial<Status> | string | undefined;
  if (typeof b === 'object' && b !== null && b.kind === 'Status') return b as Status;
  // a non-Status error body (e.g. /readyz text): what kubectl shows for an unstructured error
  const text = typeof b === 'string' ? b.trim() : JSON.stringify(b);
  return genericServerResponse(res.code, text);
}

/**
 * errors.NewGenericServerResponse (apimachinery/pkg/api/errors), as client-go builds it for an
 * error answer that is not a Status (newUnstructuredResponseError): a reason and a stock message
 * per code; 5xx without a stock one quote the server's text with Go's %q.
 */
export function genericServerResponse(code: number, serverMessage: string): Status {
  const known: Record<number, [string, string]> = {
    400: ['BadRequest', 'the server rejected our request for an unknown reason'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', serverMessage],
    404: ['NotFound', 'the server could not find the requested resource'],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    409: ['Conflict', 'the server reported a conflict'],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
    504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
  };
  const stock = known[code];
  if (stock) return status(code, stock[0], stock[1]);
  if (code >= 500) return status(code, 'InternalError', `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`);
  return status(code, 'Unknown', `the server responded with the status code ${code} but did not return more information`);
}

/** Go's %q for a string: double-quoted, with \n, \t, \" and \\ escaped (control characters as \xNN). */
function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, '\\x$1');
}

function status(code: number, reason: string, message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code } as Status;
}
