// What a REST call looks like on the simulated network. The API server side declares the same
// shapes (runtime/apiserver/server.ts, ApiWireMessage); client/ may not import apiserver/, so the
// protocol is written down twice and the cluster tests prove both sides agree.
// mirrors the REST shape of k8s.io/client-go/rest (verb, group, resource, subresource, namespace,
// name, query parameters, Impersonate-* headers) with the body as JSON text, as HTTP carries it.
import type { PodExecOptions } from '../../api/index.ts';

export type RestVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** A bearer token or a client certificate (CN = user, O = groups), as in a kubeconfig user. */
export interface RestCredentials {
  token?: string;
  clientCert?: { commonName: string; organizations?: string[] };
}

/** Impersonate-User / Impersonate-Group headers (kubectl --as, --as-group). */
export interface RestImpersonation {
  user: string;
  groups?: string[];
  uid?: string;
}

/** The query of a request (pods/exec's PodExecOptions included; container is shared with pods/log). */
export interface RestQuery extends Partial<Omit<PodExecOptions, 'container'>> {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  limit?: number;
  continue?: string;
  dryRun?: 'All';
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  gracePeriodSeconds?: number;
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** The writer's name for server-side apply's managedFields (kubectl-create, kubectl-client-side-apply...); not used by the simulated server. */
  fieldManager?: string;
  // pods/log (core/v1 PodLogOptions)
  container?: string;
  follow?: boolean;
  previous?: boolean;
  timestamps?: boolean;
  sinceSeconds?: number;
  sinceTime?: string;
  tailLines?: number;
  limitBytes?: number;
}

export type RestPatchType = 'application/merge-patch+json' | 'application/strategic-merge-patch+json' | 'application/json-patch+json';

/** One call: a resource request, or a non-resource GET when `path` is set (/metrics, /readyz). */
export interface RestRequest {
  verb: RestVerb;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  body?: unknown;
  query?: RestQuery;
  patchType?: RestPatchType;
  path?: string;
}

/** The request as it travels: credentials and impersonation attached, body as JSON text. */
export type WireRequest = Omit<RestRequest, 'body'> & {
  bodyJson?: string;
  credentials?: RestCredentials;
  impersonate?: RestImpersonation;
  userAgent?: string;
};

/**
 * `conn` names the client's connection a request or watch goes over: client-go keeps one HTTP/2
 * connection per server and multiplexes everything on it, so a load balancer (TCP) pins all of a
 * connection's requests to one replica; closeAllConnections starts a new one.
 */
export type WireMessage =
  | { type: 'api.request'; id: number; req: WireRequest; conn?: number }
  | { type: 'api.response'; id: number; code: number; bodyJson: string; frozenBody?: unknown; warnings?: string[]; servedBy?: string }
  | { type: 'api.failure'; id: number; error: string }
  | { type: 'api.watch'; id: number; req: WireRequest; conn?: number }
  | { type: 'api.watch.event'; id: number; seq: number; eventJson: string; event?: unknown }
  | { type: 'api.watch.close'; id: number; seq?: number; errorJson?: string; transportError?: string }
  | { type: 'api.watch.stop'; id: number }
  | { type: 'api.ping'; id: number }
  | { type: 'api.pong'; id: number; alive: boolean; lastSeq?: number }
  | { type: 'api.conn.close'; id: number }; // id: the closed connection's number (conn)

export function isWireMessage(msg: unknown): msg is WireMessage {
  return typeof msg === 'object' && msg !== null && typeof (msg as { type?: unknown }).type === 'string'
    && (msg as { type: string }).type.startsWith('api.');
}
