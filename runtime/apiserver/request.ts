// The request every client sends to the API server and the response it gets back.
// mirrors the REST shape of staging/src/k8s.io/apiserver/pkg/endpoints (RequestInfo: verb, API group,
// resource, subresource, namespace, name) with the HTTP parts (headers, query) as plain fields.
import type { ExecStreams, KubeObject, List, Status } from '../api/index.ts';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** Who the caller claims to be: a bearer token or a client certificate (CN = user, O = groups). */
export interface Credentials {
  token?: string;
  clientCert?: { commonName: string; organizations?: string[] };
}

/** Impersonate-User / Impersonate-Group / Impersonate-Uid headers (kubectl --as, --as-group). */
export interface Impersonation {
  user: string;
  groups?: string[];
  uid?: string;
}

export interface RequestQuery {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  limit?: number;
  /** The continue token of the previous page. */
  continue?: string;
  /** "All": run the whole pipeline but persist nothing. */
  dryRun?: 'All';
  allowWatchBookmarks?: boolean;
  /** Watch: close the stream after this many seconds. */
  timeoutSeconds?: number;
  /** Delete: how dependents are handled. */
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  gracePeriodSeconds?: number;
  /** Strict rejects unknown fields, Warn (default) drops them with a warning, Ignore drops them silently. */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  // pods/log: core/v1 PodLogOptions (query parameters arrive as text or as values)
  container?: string;
  follow?: boolean | string;
  previous?: boolean | string;
  timestamps?: boolean | string;
  sinceSeconds?: number | string;
  sinceTime?: string;
  tailLines?: number | string;
  limitBytes?: number | string;
  // pods/exec: core/v1 PodExecOptions (container is shared with PodLogOptions)
  command?: string[];
  stdin?: boolean | string;
  stdout?: boolean | string;
  stderr?: boolean | string;
  tty?: boolean | string;
}

export type PatchType =
  | 'application/json-patch+json'
  | 'application/merge-patch+json'
  | 'application/strategic-merge-patch+json';

export interface ApiRequest {
  verb: Verb;
  /** API group, "" for the core group. */
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  body?: unknown;
  query?: RequestQuery;
  patchType?: PatchType;
  credentials?: Credentials;
  impersonate?: Impersonation;
  /** A non-resource request (GET /metrics, /healthz, /readyz, /livez, /version). */
  path?: string;
  userAgent?: string;
}

/** The body of a response: an object, a list, a Status (errors and some deletes), or text (/metrics). */
export type ResponseBody = KubeObject | List<KubeObject> | Status | ExecStreams | string;

export interface ApiResponse {
  code: number;
  body: ResponseBody;
  /** Warning headers (e.g. unknown fields dropped). */
  warnings?: string[];
  /** Which replica answered, for the request-trace widget. */
  servedBy?: string;
}

export type ResponseCallback = (res: ApiResponse) => void;

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event (apimachinery's watch.Event); ERROR carries a Status. */
export type ApiWatchEvent =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; object: KubeObject }
  | { type: 'ERROR'; object: Status };

export interface ApiWatchHandlers {
  onEvent(event: ApiWatchEvent): void;
  /** The stream ended: normally (timeout) or with an error Status (e.g. the request was refused). */
  onClose(error?: Status): void;
}

export interface ApiWatchHandle {
  stop(): void;
}

/** Anything that answers API requests: one replica, the load balancer, a network client. */
export interface ApiEndpoint {
  request(req: ApiRequest, cb: ResponseCallback): void;
  watch(req: ApiRequest, handlers: ApiWatchHandlers): ApiWatchHandle;
}
