// The one door kubectl has to the cluster: an HTTP-like request answered by callback.
// The API server (runtime/apiserver) implements it over the simulated network; tests use an
// in-memory fake. Callbacks may run synchronously (fakes) or later as kernel events; kubectl
// never assumes either.
import type { KubeObject, PodExecOptions, Status } from '../../api/index.ts';

export type Verb =
  'get' | 'list' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'watch';

/** A group/version/resource, as in the URL path /apis/<group>/<version>/<resource>. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** Selectors and options of a request; pods/exec's PodExecOptions (container is shared with pods/log). */
export interface RequestQuery extends Partial<Omit<PodExecOptions, 'container'>> {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  /** Server-side dry run ("All"). */
  dryRun?: 'All';
  gracePeriodSeconds?: number;
  /** Pod logs (PodLogOptions). */
  container?: string;
  tailLines?: number;
  previous?: boolean;
  timestamps?: boolean;
  sinceSeconds?: number;
  sinceTime?: string;
  limitBytes?: number;
  /** pods/log: keep the stream open for what the container writes next. */
  follow?: boolean;
  /** Patch type for verb "patch". */
  patchType?: 'merge' | 'strategic' | 'json';
  fieldManager?: string;
  /** Server-side field validation (--validate): Strict refuses unknown fields, Warn drops them with a warning. */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
}

export interface Impersonation {
  user?: string;
  groups?: string[];
}

export interface KubeRequest {
  verb: Verb;
  resource: GroupVersionResource;
  namespace?: string;
  name?: string;
  subresource?: string;
  body?: unknown;
  query?: RequestQuery;
  impersonate?: Impersonation;
  /** --token: a bearer token presented instead of the kubeconfig user's credentials. */
  token?: string;
}

/** A raw GET of a path (`kubectl get --raw /metrics`); the body is text. */
export interface RawRequest {
  path: string;
  impersonate?: Impersonation;
  /** --token: a bearer token presented instead of the kubeconfig user's credentials. */
  token?: string;
}

export interface ObjectList {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string };
  items: KubeObject[];
}

/** The object, list, text (logs, raw) or Status error a request produced. */
/** A failure whose body was not a Status keeps the server's text (`text`), as an upgrade failure shows it. */
/** `code` is the HTTP status when the transport knows it (kubectl -v=6 logs it). */
export type KubeResponse = { ok: true; body: unknown; code?: number } | { ok: false; status: Status; text?: string };

/** One change on a watch stream (metav1.WatchEvent). */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeObject;
}

export interface KubeTransport {
  request(req: KubeRequest, done: (res: KubeResponse) => void): void;
  raw(
    req: RawRequest,
    done: (res: { ok: true; body: string } | { ok: false; status: Status }) => void,
  ): void;
  /**
   * Streams changes after req.query.resourceVersion until stop() (`get -w`, `rollout status`).
   * Optional: without it kubectl prints the current state once.
   */
  /** A stream of events; `onClose` hears when the server ends it (with the Status that ended it, if any). */
  watch?(req: KubeRequest, onEvent: (event: WatchEvent) => void, onClose?: (error?: Status) => void): { stop(): void };
}
